#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <git2.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "opt.h"
#include "profile.h"

/*
 * libgit2 reads the profile, but it is loaded only when a profile is read:
 * it brings some fifteen shared libraries (TLS, SSH, Kerberos) whose
 * loading cost about 15 ms of CPU on every sandboxed command, profile or
 * not.  Same library, same parser; only the moment it is mapped changes.
 */
struct git_api {
	void *handle;
	int (*init)(void);
	int (*shutdown)(void);
	int (*config_new)(git_config **out);
	int (*add_file)(git_config *cfg, const char *path,
			git_config_level_t level, const git_repository *repo,
			int force);
	int (*foreach)(const git_config *cfg, git_config_foreach_cb cb,
		       void *payload);
	void (*config_free)(git_config *cfg);
	const git_error *(*error_last)(void);
	int (*parse_bool)(int *out, const char *value);
};

/* Set *SLOT to symbol NAME; -1 when it is missing. */
static int git_sym(void *handle, const char *name, void *slot)
{
	void *sym = dlsym(handle, name);

	memcpy(slot, &sym, sizeof(sym));
	return sym ? 0 : -1;
}

static int git_api_load(struct git_api *g)
{
	g->handle = dlopen("libgit2.so." LIBGIT2_SOVERSION, RTLD_NOW | RTLD_LOCAL);
	if (!g->handle)
		return sc_error("BAD-PROFILE", "cannot load libgit2 %s to read "
				"profiles", LIBGIT2_SOVERSION);
	if (git_sym(g->handle, "git_libgit2_init", &g->init) ||
	    git_sym(g->handle, "git_libgit2_shutdown", &g->shutdown) ||
	    git_sym(g->handle, "git_config_new", &g->config_new) ||
	    git_sym(g->handle, "git_config_add_file_ondisk", &g->add_file) ||
	    git_sym(g->handle, "git_config_foreach", &g->foreach) ||
	    git_sym(g->handle, "git_config_free", &g->config_free) ||
	    git_sym(g->handle, "git_error_last", &g->error_last) ||
	    git_sym(g->handle, "git_config_parse_bool", &g->parse_bool)) {
		dlclose(g->handle);
		return sc_error("BAD-PROFILE", "libgit2 %s lacks a function "
				"profiles need", LIBGIT2_SOVERSION);
	}
	return 0;
}

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
	p->mode = SC_MODE_UNSET;
	p->tier = SC_TIER_BEST;
	p->env = -1;
	p->timeout_ms = -1;
	p->max_output = -1;
}

void sc_sandbox_policy_release(struct sc_sandbox_policy *p)
{
	free(p->root);
	sc_strlist_release(&p->writable);
	sc_strlist_release(&p->read_only);
	sc_strlist_release(&p->hide);
	sc_strlist_release(&p->env_keep);
	sc_sandbox_policy_init(p);
}

void sc_sandbox_policy_defaults(struct sc_sandbox_policy *p)
{
	if (p->net < 0)
		p->net = SC_NET_LOOPBACK;
	if (p->mode == SC_MODE_UNSET)
		p->mode = SC_MODE_REQUIRED;
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
	merge_list(&p->read_only, &o->read_only);
	merge_list(&p->hide, &o->hide);
	merge_list(&p->env_keep, &o->env_keep);
	if (o->root_read_only)
		p->root_read_only = 1;
	if (o->net >= 0)
		p->net = o->net;
	if (o->mode != SC_MODE_UNSET)
		p->mode = o->mode;
	if (o->tier != SC_TIER_BEST)
		p->tier = o->tier;
	if (o->env >= 0)
		p->env = o->env;
	if (o->timeout_ms >= 0)
		p->timeout_ms = o->timeout_ms;
	if (o->max_output >= 0)
		p->max_output = o->max_output;
}

static int word_index(const char *s, const char *const *words)
{
	int i;

	for (i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return i;
	return -1;
}

static const char *const net_words[] = { "none", "loopback", "full", NULL };

int sc_net_parse(const char *s)
{
	return word_index(s, net_words);
}

const char *sc_net_name(int net)
{
	return net >= 0 && net <= 2 ? net_words[net] : "?";
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
	int bad;
	const struct git_api *git;
};

static int bad_value(struct load_ctx *c, const git_config_entry *e)
{
	sc_error("BAD-PROFILE", "%s: bad value for '%s'", c->file, e->name);
	c->bad = 1;
	return -1;
}

static int set_number(struct load_ctx *c, const git_config_entry *e,
		      long long *to, unsigned long long scale)
{
	unsigned long long n;

	/* "key" alone (no "=") is a boolean with no value: not a number. */
	if (!e->value ||
	    sc_parse_uint(e->value, (unsigned long long)LLONG_MAX / scale, &n))
		return bad_value(c, e);
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

/* One entry of the profile; libgit2 gives names in lower case. */
static int load_entry(const git_config_entry *e, void *payload)
{
	struct load_ctx *c = payload;
	struct sc_sandbox_policy *p = c->p;
	const char *key = e->name, *v = e->value ? e->value : "";
	int n;

	if (strncmp(key, "sandbox.", 8)) {
		sc_error("BAD-PROFILE", "%s: unknown key '%s'", c->file, key);
		c->bad = 1;
		return -1;
	}
	key += 8;
	if (!strcmp(key, "network")) {
		if ((n = sc_net_parse(v)) < 0)
			return bad_value(c, e);
		p->net = n;
	} else if (!strcmp(key, "env")) {
		if ((n = sc_env_mode_parse(v)) < 0)
			return bad_value(c, e);
		p->env = n;
	} else if (!strcmp(key, "writable") && *v) {
		add_path(&p->writable, v);
	} else if (!strcmp(key, "rootwritable")) {
		int b;

		if (c->git->parse_bool(&b, e->value) < 0)  /* NULL: true */
			return bad_value(c, e);
		p->root_read_only = !b;
	} else if (!strcmp(key, "readonly") && *v) {
		add_path(&p->read_only, v);
	} else if (!strcmp(key, "hide") && *v) {
		add_path(&p->hide, v);
	} else if (!strcmp(key, "envkeep") && *v) {
		sc_strlist_add(&p->env_keep, v);
	} else if (!strcmp(key, "timeout")) {
		return set_number(c, e, &p->timeout_ms, 1000);
	} else if (!strcmp(key, "maxoutput")) {
		return set_number(c, e, &p->max_output, 1);
	} else {
		sc_error("BAD-PROFILE", "%s: unknown key '%s'", c->file, e->name);
		c->bad = 1;
		return -1;
	}
	return 0;
}

static int load_file(struct sc_sandbox_policy *p, const char *file)
{
	struct git_api git;
	struct load_ctx c = { p, file, 0, &git };
	git_config *cfg = NULL;
	struct stat st;
	int rc;

	/* libgit2 treats a missing file as empty: say it is missing. */
	if (stat(file, &st) < 0 || !S_ISREG(st.st_mode) || access(file, R_OK))
		return sc_error("BAD-PROFILE", "cannot read profile '%s'", file);
	if (git_api_load(&git) < 0)
		return -1;
	git.init();
	/* A configuration of this one file: no global, system or repo config. */
	rc = git.config_new(&cfg);
	if (!rc)
		rc = git.add_file(cfg, file, GIT_CONFIG_LEVEL_APP, NULL, 0);
	if (!rc)
		rc = git.foreach(cfg, load_entry, &c);
	if (rc && !c.bad) {
		const git_error *err = git.error_last();

		sc_error("BAD-PROFILE", "%s: %s", file,
			 err && err->message ? err->message : "cannot parse");
	}
	git.config_free(cfg);
	git.shutdown();
	dlclose(git.handle);
	return rc ? -1 : 0;
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
