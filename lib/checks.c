#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "checks.h"
#include "diag.h"
#include "gitconfig.h"
#include "opt.h"
#include "shellwords.h"

void sc_checks_init(struct sc_checks *c)
{
	c->v = NULL;
	c->nr = c->alloc = 0;
}

void sc_checks_release(struct sc_checks *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		free(c->v[i].name);
		sc_sw_split_free(c->v[i].argv);
	}
	free(c->v);
	sc_checks_init(c);
}

int sc_check_name_valid(const char *name)
{
	const char *p;

	if (!*name || *name == '.' || *name == '-')
		return 0;
	for (p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
			return 0;
	return 1;
}

/* The check called NAME (LEN bytes), added when new. */
static struct sc_check *check_named(struct sc_checks *c, const char *name,
				    size_t len)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (strlen(c->v[i].name) == len &&
		    !memcmp(c->v[i].name, name, len))
			return &c->v[i];
	SC_ALLOC_GROW(c->v, c->nr + 1, c->alloc);
	memset(&c->v[c->nr], 0, sizeof(c->v[c->nr]));
	c->v[c->nr].name = sc_xmemdup(name, len);
	return &c->v[c->nr++];
}

static int set_argv(struct sc_check *ck, const char *value)
{
	const char *why;

	if (ck->argv)
		return sc_error("BAD-CONFIG", "check '%s' has more than one argv",
				ck->name);
	if (sc_sw_split(value, &ck->argv, &ck->argc, &why) < 0)
		return sc_error("BAD-CONFIG", "check '%s': argv: %s", ck->name,
				why);
	if (!ck->argc)
		return sc_error("BAD-CONFIG", "check '%s': empty argv", ck->name);
	return 0;
}

static int add_entry(const char *key, const char *value, void *ctx)
{
	struct sc_checks *c = ctx;
	const char *sub, *var;
	struct sc_check *ck;

	if (!value)
		value = "";
	if (!strncmp(key, "include.", 8) || !strncmp(key, "includeif.", 10))
		return sc_error("BAD-CONFIG", "includes are refused: a "
				"configuration must not pull in other files");
	if (strncmp(key, "check.", 6))
		return 0;
	sub = key + 6;
	var = strrchr(sub, '.');
	if (!var || var == sub)
		return sc_error("BAD-CONFIG", "'%s': a check needs a name: "
				"[check \"NAME\"]", key);
	ck = check_named(c, sub, (size_t)(var - sub));
	if (!sc_check_name_valid(ck->name))
		return sc_error("BAD-CONFIG", "check name '%s' is not "
				"[A-Za-z0-9._-]+ (no leading . or -)", ck->name);
	if (!strcmp(var, ".argv"))
		return set_argv(ck, value);
	if (!strcmp(var, ".timeout")) {
		if (sc_parse_uint(value, 7 * 24 * 3600, &ck->timeout) < 0 ||
		    !ck->timeout)
			return sc_error("BAD-CONFIG", "check '%s': timeout is "
					"not a number of seconds", ck->name);
		return 0;
	}
	return sc_error("BAD-CONFIG", "check '%s': unknown key '%s'",
			ck->name, var + 1);
}

int sc_checks_load(struct sc_checks *c, const char *path)
{
	size_t i;
	int ret = sc_gitconfig_foreach(path, "BAD-CONFIG", add_entry, c);

	for (i = 0; !ret && i < c->nr; i++)
		if (!c->v[i].argv) {
			sc_error("BAD-CONFIG", "check '%s' has no argv",
				 c->v[i].name);
			ret = SC_GITCONFIG_BAD;
		}
	if (ret)
		sc_checks_release(c);
	return ret;
}
