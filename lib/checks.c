#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "checks.h"
#include "diag.h"
#include "gitconfig.h"
#include "opt.h"
#include "paths.h"
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

/* One argv (SECTION names the kind in messages) into *ARGV, *ARGC. */
static int set_argv(const char *section, const char *name, char ***argv,
		    size_t *argc, const char *value)
{
	const char *why;

	if (*argv)
		return sc_error("BAD-CONFIG", "%s '%s' has more than one argv",
				section, name);
	if (sc_sw_split(value, argv, argc, &why) < 0)
		return sc_error("BAD-CONFIG", "%s '%s': argv: %s", section, name,
				why);
	if (!*argc)
		return sc_error("BAD-CONFIG", "%s '%s': empty argv", section,
				name);
	return 0;
}

static int set_timeout(const char *section, const char *name,
		       unsigned long long *timeout, const char *value)
{
	if (sc_parse_uint(value, 7 * 24 * 3600, timeout) < 0 || !*timeout)
		return sc_error("BAD-CONFIG", "%s '%s': timeout is not a "
				"number of seconds", section, name);
	return 0;
}

/* KEY of [SECTION "NAME"]: "NAME.argv" or "NAME.timeout". */
int sc_checks_entry(struct sc_checks *c, const char *section,
		    const char *key, const char *value)
{
	const char *var = strrchr(key, '.');
	struct sc_check *ck;

	if (!value)
		value = "";
	if (!var || var == key)
		return sc_error("BAD-CONFIG", "'%s.%s': a %s needs a name: "
				"[%s \"NAME\"]", section, key, section, section);
	ck = check_named(c, key, (size_t)(var - key));
	if (!sc_check_name_valid(ck->name))
		return sc_error("BAD-CONFIG", "%s name '%s' is not "
				"[A-Za-z0-9._-]+ (no leading . or -)",
				section, ck->name);
	if (!strcmp(var, ".argv"))
		return set_argv(section, ck->name, &ck->argv, &ck->argc, value);
	if (!strcmp(var, ".timeout"))
		return set_timeout(section, ck->name, &ck->timeout, value);
	return sc_error("BAD-CONFIG", "%s '%s': unknown key '%s'", section,
			ck->name, var + 1);
}

int sc_checks_finish(struct sc_checks *c, const char *section)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		if (!c->v[i].argv)
			return sc_error("BAD-CONFIG", "%s '%s' has no argv",
					section, c->v[i].name);
		if (!c->v[i].timeout)
			c->v[i].timeout = SC_CHECK_TIMEOUT;
	}
	return 0;
}

/* ---- one step: [format], [mutation] ---- */

void sc_step_init(struct sc_step *s)
{
	memset(s, 0, sizeof(*s));
}

void sc_step_release(struct sc_step *s)
{
	sc_sw_split_free(s->argv);
	free(s->report);
	sc_step_init(s);
}

/* A path relative to the root, without "..", "." or empty components. */
int sc_step_report_valid(const char *p)
{
	const char *c;

	if (strlen(p) > 4096 || !sc_path_plain(p, strlen(p)))
		return 0;
	for (c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return 0;
	return 1;
}

/* VAR of [SECTION]; MUTATION: minimum and report are its keys. */
static int step_key(struct sc_step *s, const char *section, int mutation,
		    const char *var, const char *value)
{
	const char *v = value ? value : "";

	if (!strcmp(var, "argv"))
		return set_argv(section, section, &s->argv, &s->argc, v);
	if (!strcmp(var, "timeout"))
		return set_timeout(section, section, &s->timeout, v);
	if (!mutation && !strcmp(var, "required")) {
		/* git's booleans, as libgit2 reads them: a key alone is true */
		if (sc_gitconfig_bool(value, &s->required) < 0)
			return sc_error("BAD-CONFIG", "%s.required is not a "
					"boolean", section);
		return 0;
	}
	if (mutation && !strcmp(var, "minimum")) {
		if (sc_parse_uint(v, 100, &s->minimum) < 0)
			return sc_error("BAD-CONFIG", "%s.minimum is not a "
					"percentage from 0 to 100", section);
		s->has_minimum = 1;
		return 0;
	}
	if (mutation && !strcmp(var, "report")) {
		if (!sc_step_report_valid(v))
			return sc_error("BAD-CONFIG", "%s.report is not a "
					"path beneath the root (relative, no "
					"'..')", section);
		free(s->report);
		s->report = sc_xstrdup(v);
		return 0;
	}
	return sc_error("BAD-CONFIG", "%s: unknown key '%s'", section, var);
}

int sc_step_entry(struct sc_step *s, const char *section, const char *key,
		  const char *value)
{
	if (strchr(key, '.'))
		return sc_error("BAD-CONFIG", "'%s.%s': [%s] takes no name",
				section, key, section);
	s->seen = 1;
	return step_key(s, section, !strcmp(section, "mutation"), key, value);
}

int sc_step_finish(struct sc_step *s, const char *section)
{
	if (s->seen && !s->argv)
		return sc_error("BAD-CONFIG", "[%s] has no argv", section);
	if (s->argv && !s->timeout)
		s->timeout = !strcmp(section, "mutation") ? SC_MUTATION_TIMEOUT :
							    SC_FORMAT_TIMEOUT;
	return 0;
}
