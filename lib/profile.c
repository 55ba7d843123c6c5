#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "gitconfig.h"
#include "hostlist.h"
#include "opt.h"
#include "profile.h"
#include "strlist.h"

void sc_sandbox_policy_init(struct sc_sandbox_policy *p)
{
	memset(p, 0, sizeof(*p));
	p->net = -1;
	p->mode = SC_SANDBOX_MODE_UNSET;
	p->tier = SC_TIER_BEST;
	p->env = -1;
	p->timeout_ms = -1;
	p->max_output = -1;
}

void sc_sandbox_policy_release(struct sc_sandbox_policy *p)
{
	free(p->root);
	sc_strlist_release(&p->writable);
	sc_strlist_release(&p->writable_outside);
	sc_strlist_release(&p->read_only);
	sc_strlist_release(&p->hide);
	sc_strlist_release(&p->hide_homes);
	sc_strlist_release(&p->env_keep);
	sc_strlist_release(&p->allow_hosts);
	free(p->connections);
	sc_strlist_release(&p->accept_gaps);
	sc_sandbox_policy_init(p);
}

void sc_sandbox_policy_defaults(struct sc_sandbox_policy *p)
{
	if (p->net < 0)
		p->net = SC_NET_LOOPBACK;
	if (p->mode == SC_SANDBOX_MODE_UNSET)
		p->mode = SC_SANDBOX_MODE_REQUIRED;
	if (p->env < 0)
		p->env = SC_ENV_SCRUB;
	if (p->timeout_ms < 0)
		p->timeout_ms = 0;
	if (p->max_output < 0)
		p->max_output = 0;
}

static void merge_list(struct sc_strlist *to, const struct sc_strlist *from)
{
	size_t i;

	for (i = 0; i < from->nr; i++)
		sc_strlist_add(to, from->v[i]);
}

void sc_sandbox_policy_merge(struct sc_sandbox_policy *p, const struct sc_sandbox_policy *o)
{
	if (o->root) {
		free(p->root);
		p->root = sc_xstrdup(o->root);
	}
	merge_list(&p->writable, &o->writable);
	merge_list(&p->writable_outside, &o->writable_outside);
	merge_list(&p->read_only, &o->read_only);
	merge_list(&p->hide, &o->hide);
	merge_list(&p->hide_homes, &o->hide_homes);
	merge_list(&p->env_keep, &o->env_keep);
	merge_list(&p->accept_gaps, &o->accept_gaps);
	if (o->root_read_only)
		p->root_read_only = 1;
	if (o->net >= 0)
		p->net = o->net;
	if (o->mode != SC_SANDBOX_MODE_UNSET)
		p->mode = o->mode;
	if (o->tier != SC_TIER_BEST)
		p->tier = o->tier;
	if (o->env >= 0)
		p->env = o->env;
	if (o->timeout_ms >= 0)
		p->timeout_ms = o->timeout_ms;
	if (o->max_output >= 0)
		p->max_output = o->max_output;
	if (o->keep_stdin)
		p->keep_stdin = 1;
	merge_list(&p->allow_hosts, &o->allow_hosts);
	if (o->connections) {
		free(p->connections);
		p->connections = sc_xstrdup(o->connections);
	}
}

static int word_index(const char *s, const char *const *words)
{
	int i;

	for (i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return i;
	return -1;
}

static const char *const net_words[] = { "none", "loopback", "full", "hosts",
					 NULL };

int sc_net_parse(const char *s)
{
	return word_index(s, net_words);
}

const char *sc_net_name(int net)
{
	return net >= 0 && net <= SC_NET_HOSTS ? net_words[net] : "?";
}

static const char *const mode_words[] = { "required", "auto", "off", NULL };
static const char *const env_words[] = { "scrub", "short", NULL };

int sc_sandbox_mode_parse(const char *s)
{
	return word_index(s, mode_words);
}

const char *sc_sandbox_mode_name(int mode)
{
	return mode >= 0 && mode <= SC_SANDBOX_MODE_OFF ? mode_words[mode] : "?";
}

int sc_env_mode_parse(const char *s)
{
	return word_index(s, env_words);
}

const char *sc_env_mode_name(int env)
{
	return env >= SC_ENV_SCRUB && env <= SC_ENV_SHORT ? env_words[env] : "?";
}

/* SC_TIER_BEST has no word: it is the absence of --tier. */
static const char *const tier_words[] = { "", "full", "landlock", NULL };

int sc_tier_parse(const char *s)
{
	int t = *s ? word_index(s, tier_words) : -1;

	return t == SC_TIER_BEST ? -1 : t;
}

const char *sc_tier_name(int tier)
{
	return tier > SC_TIER_BEST && tier <= SC_TIER_LANDLOCK ?
	       tier_words[tier] : "?";
}

char *sc_expand_home(const char *path)
{
	const char *home = getenv("HOME");
	struct sc_buf b = SC_BUF_INIT;

	if (!strncmp(path, "~/", 2) && home && *home) {
		sc_buf_adds(&b, home);
		sc_buf_adds(&b, path + 1);
		return sc_buf_detach(&b, NULL);
	}
	return sc_xstrdup(path);
}

/* Find NAME.profile in the directories installed next to EXE. */
static char *find_profile(const char *name, const char *exe)
{
	static const char *const rel[] = {
		"/../share/speccoder/profiles/", /* PREFIX/bin */
		"/../../share/profiles/",         /* build/bin in the tree */
		/* A twin (twin.h) in PREFIX/libexec/speccoder, in the tree */
		"/../../share/speccoder/profiles/",
		"/../../../share/profiles/",
		NULL,
	};
	char *dir = realpath(exe, NULL), *slash = dir ? strrchr(dir, '/') : NULL;
	const char *const *r;

	if (slash)
		*slash = '\0';
	for (r = rel; slash && *r; r++) {
		struct sc_buf path = SC_BUF_INIT;

		sc_buf_addf(&path, "%s%s%s.profile", dir, *r, name);
		if (!access(path.data, R_OK)) {
			free(dir);
			return sc_buf_detach(&path, NULL);
		}
		sc_buf_release(&path);
	}
	free(dir);
	return NULL;
}

static int valid_profile_name(const char *name)
{
	const char *p;

	if (!*name || strlen(name) > 64)
		return 0;
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '-' || *p == '_'))
			return 0;
	return 1;
}

/* "FILE:LINE: " (or "FILE: ") before a message about entry SRC->at. */
static void where(struct sc_buf *b, const struct sc_sandbox_src *src,
		  const char *name)
{
	unsigned line = src->file ? sc_gitconfig_line(src->file, src->at,
						       name) : 0;

	if (line)
		sc_buf_addf(b, "%s:%u: ", src->file, line);
	else if (src->file)
		sc_buf_addf(b, "%s: ", src->file);
}

static int bad_value(const struct sc_sandbox_src *src, const char *name,
		     const char *value, const char *why)
{
	struct sc_buf b = SC_BUF_INIT;

	where(&b, src, name);
	if (why)
		sc_error(src->code, "%s%s '%s': %s", b.data ? b.data : "",
			 name, value, why);
	else
		sc_error(src->code, "%sbad value for '%s'",
			 b.data ? b.data : "", name);
	sc_buf_release(&b);
	return -1;
}

/* A misspelt key would leave the sandbox wider than meant: refused. */
static int unknown_key(const struct sc_sandbox_src *src, const char *name)
{
	struct sc_buf b = SC_BUF_INIT;

	where(&b, src, name);
	sc_error(src->code, "%sunknown key '%s'", b.data ? b.data : "", name);
	sc_buf_release(&b);
	return -1;
}

/* A number up to MAX (the command line's bound, profile.h), times SCALE. */
static int set_number(const struct sc_sandbox_src *src, const char *name,
		      const char *value, long long *to,
		      unsigned long long max, unsigned long long scale)
{
	unsigned long long n;

	/* "key" alone (no "=") is a boolean with no value: not a number. */
	if (!value || sc_parse_uint(value, max, &n))
		return bad_value(src, name, "", NULL);
	*to = (long long)(n * scale);
	return 0;
}

/*
 * A profile names paths that exist on some machines only (package caches):
 * one that does not exist here is skipped.  speccoder.conf's paths are
 * the project's own and go as the command line's do: one that does not
 * exist is an error when the command runs.
 */
static int add_path(struct sc_strlist *l, const struct sc_sandbox_src *src,
		    const char *name, const char *value)
{
	char *path;
	struct stat st;

	if (!value || !*value)
		return bad_value(src, name, "", NULL);
	if (!src->profile) {
		sc_strlist_add(l, value);
		return 0;
	}
	path = sc_expand_home(value);
	if (!stat(path, &st))
		sc_strlist_add(l, path);
	free(path);
	return 0;
}

int sc_sandbox_gaps_add(struct sc_strlist *l, const char *list, char **bad)
{
	char *copy = sc_xstrdup(list), *save = NULL, *gap;
	int n = 0;

	*bad = NULL;
	for (gap = strtok_r(copy, ",", &save); gap && !*bad;
	     gap = strtok_r(NULL, ",", &save))
		if (sc_sandbox_gap_acceptable(gap)) {
			sc_strlist_add(l, gap);
			n++;
		} else {
			*bad = sc_xstrdup(gap);
		}
	free(copy);
	return *bad ? -1 : n;
}

/* sandbox.acceptGaps: "unix-sockets,kill-all", as --accept-gaps. */
static int add_gaps(struct sc_sandbox_policy *p,
		    const struct sc_sandbox_src *src, const char *name,
		    const char *v)
{
	char *bad;
	int ret = 0;

	if (sc_sandbox_gaps_add(&p->accept_gaps, v, &bad) < 0)
		ret = bad_value(src, name, bad, "not a protection that may be "
				"accepted");
	free(bad);
	return ret;
}

/* The keys of a profile alone: the drivers decide these for a project. */
static int profile_key(struct sc_sandbox_policy *p,
		       const struct sc_sandbox_src *src, const char *name,
		       const char *key, const char *value)
{
	const char *why;
	int b;

	if (!strcmp(key, "rootwritable")) {
		/* "key" alone is true, as git reads it */
		if (sc_gitconfig_bool(value, &b) < 0)
			return bad_value(src, name, value ? value : "", NULL);
		p->root_read_only = !b;
		return 0;
	}
	if (!strcmp(key, "allowhost")) {
		if (!value || sc_host_entry_check(value, &why) < 0)
			return bad_value(src, name, value ? value : "",
					 value ? why : "not a host");
		sc_strlist_add(&p->allow_hosts, value);
		return 0;
	}
	if (!strcmp(key, "timeout"))
		return set_number(src, name, value, &p->timeout_ms,
				  SC_SANDBOX_TIMEOUT_MAX, 1000);
	if (!strcmp(key, "maxoutput"))
		return set_number(src, name, value, &p->max_output,
				  SC_SANDBOX_MAX_OUTPUT_MAX, 1);
	return 1;
}

/* The keys of speccoder.conf's [sandbox] alone. */
static int config_key(struct sc_sandbox_policy *p,
		      const struct sc_sandbox_src *src, const char *name,
		      const char *key, const char *v)
{
	int n;

	if (!strcmp(key, "mode")) {
		if ((n = sc_sandbox_mode_parse(v)) < 0)
			return bad_value(src, name, v, NULL);
		p->mode = n;
		return 0;
	}
	if (!strcmp(key, "acceptgaps"))
		return add_gaps(p, src, name, v);
	return 1;
}

int sc_sandbox_entry(struct sc_sandbox_policy *p,
		     const struct sc_sandbox_src *src, const char *name,
		     const char *value)
{
	const char *key = name + 8, *v = value ? value : "";
	int n;

	if (strncmp(name, "sandbox.", 8))
		return unknown_key(src, name);
	if (!strcmp(key, "network")) {
		if ((n = sc_net_parse(v)) < 0)
			return bad_value(src, name, v, NULL);
		p->net = n;
	} else if (!strcmp(key, "env")) {
		if ((n = sc_env_mode_parse(v)) < 0)
			return bad_value(src, name, v, NULL);
		p->env = n;
	} else if (!strcmp(key, "writable")) {
		return add_path(&p->writable, src, name, value);
	} else if (!strcmp(key, "writableoutside")) {
		return add_path(&p->writable_outside, src, name, value);
	} else if (!strcmp(key, "readonly")) {
		return add_path(&p->read_only, src, name, value);
	} else if (!strcmp(key, "hide")) {
		return add_path(&p->hide, src, name, value);
	} else if (!strcmp(key, "envkeep")) {
		if (!*v)
			return bad_value(src, name, v, NULL);
		sc_strlist_add(&p->env_keep, v);
	} else {
		n = src->profile ? profile_key(p, src, name, key, value) :
				   config_key(p, src, name, key, v);
		if (n > 0)
			return unknown_key(src, name);
		return n;
	}
	return 0;
}

/* One entry of a profile, counted so that a bad one is named by its line. */
static int load_entry(const char *name, const char *value, void *payload)
{
	struct sc_sandbox_src *src = payload;
	int ret = sc_sandbox_entry(src->policy, src, name, value);

	src->at++;
	return ret;
}

static int load_file(struct sc_sandbox_policy *p, const char *file)
{
	struct sc_sandbox_src src = { "BAD-PROFILE", file, 0, 1, p };

	/* Only this file: no global, system or repository configuration. */
	if (sc_gitconfig_foreach(file, "BAD-PROFILE", load_entry, &src))
		return -1;
	return 0;
}

int sc_profile_load(struct sc_sandbox_policy *p, const char *name, const char *exe)
{
	char *file;
	int rc;

	if (strchr(name, '/'))
		return load_file(p, name);
	if (!valid_profile_name(name) || !(file = find_profile(name, exe)))
		return sc_error("UNKNOWN-PROFILE", "no profile named '%s'", name);
	rc = load_file(p, file);
	free(file);
	return rc;
}

int sc_sandbox_gap_acceptable(const char *name)
{
	static const char *const acceptable[] = {
		"network", "unix-sockets", "abstract-sockets", "read-only-paths",
		"hidden-credentials", "process-isolation", "ipc-isolation",
		"file-metadata", "kill-all", NULL,
	};

	return sc_str_in_list(name, acceptable);
}

int sc_sandbox_gap_accepted(const struct sc_sandbox_policy *pol,
			    const char *name)
{
	size_t i;

	for (i = 0; i < pol->accept_gaps.nr; i++)
		if (!strcmp(pol->accept_gaps.v[i], name))
			return 1;
	return 0;
}
