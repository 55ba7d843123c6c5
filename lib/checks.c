#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static int refuse_include(const char *key)
{
	if (!strncmp(key, "include.", 8) || !strncmp(key, "includeif.", 10))
		return sc_error("BAD-CONFIG", "includes are refused: a "
				"configuration must not pull in other files");
	return 0;
}

struct load_ctx {
	struct sc_checks *c;
	const char *section;     /* "check" or "acceptance" */
};

static int add_entry(const char *key, const char *value, void *ctx)
{
	struct load_ctx *lc = ctx;
	size_t n = strlen(lc->section);
	const char *sub, *var;
	struct sc_check *ck;

	if (!value)
		value = "";
	if (refuse_include(key))
		return -1;
	if (strncmp(key, lc->section, n) || key[n] != '.')
		return 0;
	sub = key + n + 1;
	var = strrchr(sub, '.');
	if (!var || var == sub)
		return sc_error("BAD-CONFIG", "'%s': a %s needs a name: "
				"[%s \"NAME\"]", key, lc->section, lc->section);
	ck = check_named(lc->c, sub, (size_t)(var - sub));
	if (!sc_check_name_valid(ck->name))
		return sc_error("BAD-CONFIG", "%s name '%s' is not "
				"[A-Za-z0-9._-]+ (no leading . or -)",
				lc->section, ck->name);
	if (!strcmp(var, ".argv"))
		return set_argv(lc->section, ck->name, &ck->argv, &ck->argc,
				value);
	if (!strcmp(var, ".timeout"))
		return set_timeout(lc->section, ck->name, &ck->timeout, value);
	return sc_error("BAD-CONFIG", "%s '%s': unknown key '%s'",
			lc->section, ck->name, var + 1);
}

int sc_checks_load_section(struct sc_checks *c, const char *path,
			   const char *section)
{
	struct load_ctx lc = { c, section };
	size_t i;
	int ret = sc_gitconfig_foreach(path, "BAD-CONFIG", add_entry, &lc);

	for (i = 0; !ret && i < c->nr; i++)
		if (!c->v[i].argv) {
			sc_error("BAD-CONFIG", "%s '%s' has no argv", section,
				 c->v[i].name);
			ret = SC_GITCONFIG_BAD;
		}
	if (ret)
		sc_checks_release(c);
	return ret;
}

int sc_checks_load(struct sc_checks *c, const char *path)
{
	return sc_checks_load_section(c, path, "check");
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

/* git's booleans; a key without a value is true. */
static int parse_bool(const char *v, int *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1", NULL };
	static const char *const no[] = { "false", "no", "off", "0", NULL };
	size_t i;

	if (!v) {
		*out = 1;
		return 0;
	}
	for (i = 0; yes[i]; i++)
		if (!strcasecmp(v, yes[i]))
			return *out = 1, 0;
	for (i = 0; no[i]; i++)
		if (!strcasecmp(v, no[i]))
			return *out = 0, 0;
	return -1;
}

/* A path relative to the root, without "..", "." or empty components. */
int sc_step_report_valid(const char *p)
{
	const char *c = p;

	if (!*p || *p == '/' || strlen(p) > 4096)
		return 0;
	while (*c) {
		const char *e = strchr(c, '/');
		size_t n = e ? (size_t)(e - c) : strlen(c);

		if (!n || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return 0;
		c += n + (e ? 1 : 0);
		if (e && !*c)
			return 0;
	}
	for (c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return 0;
	return 1;
}

struct step_ctx {
	struct sc_step *s;
	const char *section;
	int mutation;            /* minimum and report are mutation's keys */
	int seen;
};

static int step_key(struct step_ctx *sc, const char *var, const char *value)
{
	struct sc_step *s = sc->s;
	const char *v = value ? value : "";

	if (!strcmp(var, "argv"))
		return set_argv(sc->section, sc->section, &s->argv, &s->argc, v);
	if (!strcmp(var, "timeout"))
		return set_timeout(sc->section, sc->section, &s->timeout, v);
	if (!sc->mutation && !strcmp(var, "required")) {
		if (parse_bool(value, &s->required) < 0)
			return sc_error("BAD-CONFIG", "%s.required is not a "
					"boolean", sc->section);
		return 0;
	}
	if (sc->mutation && !strcmp(var, "minimum")) {
		if (sc_parse_uint(v, 100, &s->minimum) < 0)
			return sc_error("BAD-CONFIG", "%s.minimum is not a "
					"percentage from 0 to 100",
					sc->section);
		s->has_minimum = 1;
		return 0;
	}
	if (sc->mutation && !strcmp(var, "report")) {
		if (!sc_step_report_valid(v))
			return sc_error("BAD-CONFIG", "%s.report is not a "
					"path beneath the root (relative, no "
					"'..')", sc->section);
		free(s->report);
		s->report = sc_xstrdup(v);
		return 0;
	}
	return sc_error("BAD-CONFIG", "%s: unknown key '%s'", sc->section, var);
}

static int step_entry(const char *key, const char *value, void *ctx)
{
	struct step_ctx *sc = ctx;
	size_t n = strlen(sc->section);

	if (refuse_include(key))
		return -1;
	if (strncmp(key, sc->section, n) || key[n] != '.')
		return 0;
	if (strchr(key + n + 1, '.'))
		return sc_error("BAD-CONFIG", "'%s': [%s] takes no name",
				key, sc->section);
	sc->seen = 1;
	return step_key(sc, key + n + 1, value);
}

int sc_step_load(struct sc_step *s, const char *path, const char *section)
{
	struct step_ctx sc = { s, section, !strcmp(section, "mutation"), 0 };
	int ret = sc_gitconfig_foreach(path, "BAD-CONFIG", step_entry, &sc);

	if (!ret && sc.seen && !s->argv) {
		sc_error("BAD-CONFIG", "[%s] has no argv", section);
		ret = SC_GITCONFIG_BAD;
	}
	if (ret)
		sc_step_release(s);
	return ret;
}
