#include <errno.h>
#include <limits.h>
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

void sc_strlist_add(struct sc_strlist *l, const char *s)
{
	SC_ALLOC_GROW(l->v, l->nr + 2, l->alloc);
	l->v[l->nr++] = sc_xstrdup(s);
	l->v[l->nr] = NULL;
}

void sc_strlist_release(struct sc_strlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

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

int sc_mode_parse(const char *s)
{
	static const char *const w[] = { "required", "auto", "off", NULL };

	return word_index(s, w);
}

int sc_env_mode_parse(const char *s)
{
	static const char *const w[] = { "scrub", "short", NULL };

	return word_index(s, w);
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

struct load_ctx {
	struct sc_sandbox_policy *p;
	const char *file;
	size_t at;   /* the entry being read, to find its line */
};

static int bad_value(struct load_ctx *c, const char *name)
{
	return sc_error("BAD-PROFILE", "%s: bad value for '%s'", c->file, name);
}

static int set_number(struct load_ctx *c, const char *name, const char *value,
		      long long *to, unsigned long long scale)
{
	unsigned long long n;

	/* "key" alone (no "=") is a boolean with no value: not a number. */
	if (!value ||
	    sc_parse_uint(value, (unsigned long long)LLONG_MAX / scale, &n))
		return bad_value(c, name);
	*to = (long long)(n * scale);
	return 0;
}

/*
 * A profile names paths that exist on some machines only (package caches):
 * one that does not exist here is skipped.  On the command line a missing
 * path is an error.
 */
static void add_path(struct sc_strlist *l, const char *value)
{
	char *path = sc_expand_home(value);
	struct stat st;

	if (!stat(path, &st))
		sc_strlist_add(l, path);
	free(path);
}

/*
 * One entry of the profile; libgit2 gives names in lower case and a NULL
 * VALUE for a key written without "=".
 */
static int load_one(const char *name, const char *value, void *payload)
{
	struct load_ctx *c = payload;
	struct sc_sandbox_policy *p = c->p;
	const char *key = name, *v = value ? value : "";
	int n;

	if (strncmp(key, "sandbox.", 8))
		return sc_error("BAD-PROFILE", "%s: unknown key '%s'", c->file,
				key);
	key += 8;
	if (!strcmp(key, "network")) {
		if ((n = sc_net_parse(v)) < 0)
			return bad_value(c, name);
		p->net = n;
	} else if (!strcmp(key, "env")) {
		if ((n = sc_env_mode_parse(v)) < 0)
			return bad_value(c, name);
		p->env = n;
	} else if (!strcmp(key, "writable") && *v) {
		add_path(&p->writable, v);
	} else if (!strcmp(key, "writableoutside") && *v) {
		add_path(&p->writable_outside, v);
	} else if (!strcmp(key, "rootwritable")) {
		int b;

		if (!value)
			b = 1;  /* "key" alone is true, as git reads it */
		else if (sc_gitconfig_bool(value, &b) < 0)
			return bad_value(c, name);
		p->root_read_only = !b;
	} else if (!strcmp(key, "readonly") && *v) {
		add_path(&p->read_only, v);
	} else if (!strcmp(key, "hide") && *v) {
		add_path(&p->hide, v);
	} else if (!strcmp(key, "allowhost")) {
		const char *why;

		if (sc_host_entry_check(v, &why) < 0) {
			unsigned line = sc_gitconfig_line(c->file, c->at, name);

			if (line)
				return sc_error("BAD-PROFILE", "%s:%u: %s '%s': %s",
						c->file, line, name, v, why);
			return sc_error("BAD-PROFILE", "%s: %s '%s': %s", c->file,
					name, v, why);
		}
		sc_strlist_add(&p->allow_hosts, v);
	} else if (!strcmp(key, "envkeep") && *v) {
		sc_strlist_add(&p->env_keep, v);
	} else if (!strcmp(key, "timeout")) {
		return set_number(c, name, value, &p->timeout_ms, 1000);
	} else if (!strcmp(key, "maxoutput")) {
		return set_number(c, name, value, &p->max_output, 1);
	} else {
		return sc_error("BAD-PROFILE", "%s: unknown key '%s'", c->file,
				name);
	}
	return 0;
}

/* One entry, counted so that a bad one can be named by its line. */
static int load_entry(const char *name, const char *value, void *payload)
{
	struct load_ctx *c = payload;
	int ret = load_one(name, value, payload);

	c->at++;
	return ret;
}

static int load_file(struct sc_sandbox_policy *p, const char *file)
{
	struct load_ctx c = { p, file, 0 };

	/* Only this file: no global, system or repository configuration. */
	if (sc_gitconfig_foreach(file, "BAD-PROFILE", load_entry, &c))
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
	size_t i;

	for (i = 0; acceptable[i]; i++)
		if (!strcmp(name, acceptable[i]))
			return 1;
	return 0;
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
