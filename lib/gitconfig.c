#include <ctype.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "buf.h"
#include "diag.h"
#include "env.h"
#include "gitconfig.h"
#include "io.h"

struct git_api {
	int (*init)(void);
	int (*config_new)(git_config **out);
	int (*add_file)(git_config *cfg, const char *path,
			git_config_level_t level, const git_repository *repo,
			int force);
	int (*iterator_new)(git_config_iterator **out, const git_config *cfg);
	int (*next)(git_config_entry **entry, git_config_iterator *it);
	void (*iterator_free)(git_config_iterator *it);
	void (*config_free)(git_config *cfg);
	const git_error *(*error_last)(void);
	int (*parse_bool)(int *out, const char *value);
	int (*version)(int *major, int *minor, int *rev);
};

#ifdef SC_STATIC_EXE
/*
 * The statically linked sc-sandbox-exec (twin.h): dlopen would bring a
 * second C library into it, so libgit2 is never loaded here; its twin
 * reads profiles.
 */
static const struct git_api *git_api(void)
{
	sc_error("LIBGIT2-UNAVAILABLE", "a statically linked tool does not "
		 "load libgit2");
	return NULL;
}
#else
/* Set *SLOT to symbol NAME of HANDLE; -1 when it is missing. */
static int git_sym(void *handle, const char *name, void *slot)
{
	void *sym = dlsym(handle, name);

	memcpy(slot, &sym, sizeof(sym));
	return sym ? 0 : -1;
}

/*
 * The API, mapped once per process and kept: the mapping is the cost being
 * deferred, and a tool that reads two files must not pay it twice.
 */
static const struct git_api *git_api(void)
{
	static const char code[] = "LIBGIT2-UNAVAILABLE";
	static struct git_api g;
	static int state; /* 0 not tried, 1 ready, -1 failed */
	void *h;

	if (state)
		return state > 0 ? &g : NULL;
	state = -1;
	h = dlopen("libgit2.so." LIBGIT2_SOVERSION, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		sc_error(code, "cannot load libgit2 %s", LIBGIT2_SOVERSION);
		return NULL;
	}
	if (git_sym(h, "git_libgit2_init", &g.init) ||
	    git_sym(h, "git_config_new", &g.config_new) ||
	    git_sym(h, "git_config_add_file_ondisk", &g.add_file) ||
	    git_sym(h, "git_config_iterator_new", &g.iterator_new) ||
	    git_sym(h, "git_config_next", &g.next) ||
	    git_sym(h, "git_config_iterator_free", &g.iterator_free) ||
	    git_sym(h, "git_config_free", &g.config_free) ||
	    git_sym(h, "git_error_last", &g.error_last) ||
	    git_sym(h, "git_config_parse_bool", &g.parse_bool) ||
	    git_sym(h, "git_libgit2_version", &g.version)) {
		sc_error(code, "libgit2 %s lacks a function it needs",
			 LIBGIT2_SOVERSION);
		return NULL;
	}
	if (g.init() < 0) {
		sc_error(code, "cannot start libgit2");
		return NULL;
	}
	state = 1;
	return &g;
}
#endif

static int refused(const struct git_api *g, const char *path,
		   const char *code)
{
	const git_error *err = g->error_last();

	sc_error(code, "%s: %s", path,
		 err && err->message ? err->message : "cannot parse");
	return SC_GITCONFIG_BAD;
}

/* The largest configuration file read: a project's is a few KiB. */
#define GITCONFIG_MAX ((off_t)4 << 20)

/* 1 when the section header at P names include or includeIf. */
static int include_header(const char *p, const char *end)
{
	static const char word[] = "include";
	size_t i;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p++ != '[')
		return 0;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (i = 0; word[i]; i++, p++)
		if (p == end || (*p | 0x20) != word[i])
			return 0;
	if (end - p >= 2 && (p[0] | 0x20) == 'i' && (p[1] | 0x20) == 'f')
		p += 2;
	return p == end || strchr(" \t].\"", *p) != NULL;
}

/*
 * libgit2 opens what include.path names while it parses, before any entry
 * reaches us: a FIFO there would hang the tool, a device would be read.
 * So the file is looked at first, and a file with an include section (or
 * too large to be a configuration) is refused before libgit2 sees it.
 */
static int refuse_includes(const char *path, const char *code)
{
	struct sc_buf b = SC_BUF_INIT;
	const char *p, *end, *nl;
	int ret = 0;

	switch (sc_read_file_at(AT_FDCWD, path, (size_t)GITCONFIG_MAX,
				SC_OPEN_NONBLOCK, &b)) {
	case -2:
		ret = sc_error(code, "%s: larger than a configuration can be",
			       path);
		break;
	case -1:
		ret = sc_error(code, "cannot read '%s'", path);
		break;
	}
	/* An empty file leaves b.data NULL: no pointer arithmetic on it. */
	for (p = b.data, end = p ? p + b.len : p; !ret && p && p < end;
	     p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (include_header(p, nl))
			ret = sc_error(code, "%s: includes are refused: a "
				       "configuration must not pull in other "
				       "files", path);
	}
	sc_buf_release(&b);
	return ret;
}

int sc_gitconfig_foreach(const char *path, const char *code,
			 sc_gitconfig_fn fn, void *ctx)
{
	const struct git_api *g;
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	struct stat st;
	int ret = SC_GITCONFIG_OK, err;

	/* libgit2 takes a missing file for an empty one: a named file must be. */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || access(path, R_OK)) {
		sc_error(code, "cannot read '%s'", path);
		return SC_GITCONFIG_UNREADABLE;
	}
	if (refuse_includes(path, code) < 0)
		return SC_GITCONFIG_BAD;
	if (!(g = git_api()))
		return SC_GITCONFIG_NO_LIBGIT2;
	/* A configuration of this one file only: no other level is added. */
	if (g->config_new(&cfg) < 0 ||
	    g->add_file(cfg, path, GIT_CONFIG_LEVEL_APP, NULL, 0) < 0 ||
	    g->iterator_new(&it, cfg) < 0) {
		ret = refused(g, path, code);
		goto out;
	}
	while ((err = g->next(&e, it)) == 0)
		if (fn(e->name, e->value, ctx) < 0) {
			ret = SC_GITCONFIG_STOPPED;
			break;
		}
	if (!ret && err != GIT_ITEROVER)
		ret = refused(g, path, code);
out:
	if (it)
		g->iterator_free(it);
	if (cfg)
		g->config_free(cfg);
	return ret;
}

int sc_gitconfig_foreach_mem(const char *data, size_t len, const char *code,
			     sc_gitconfig_fn fn, void *ctx)
{
	struct sc_buf path = SC_BUF_INIT;
	int fd, ret;

	/* libgit2 parses files only: the bytes go to a private one. */
	sc_buf_addf(&path, "%s/sc-config.XXXXXX", sc_env_tmpdir());
	fd = mkstemp(path.data);
	if (fd < 0) {
		sc_buf_release(&path);
		return SC_GITCONFIG_UNREADABLE;
	}
	if (sc_write_all(fd, data, len) < 0) {
		close(fd);
		unlink(path.data);
		sc_buf_release(&path);
		return SC_GITCONFIG_UNREADABLE;
	}
	close(fd);
	ret = sc_gitconfig_foreach(path.data, code, fn, ctx);
	unlink(path.data);
	sc_buf_release(&path);
	return ret;
}

/* ---- where an entry is, for diagnostics ---------------------------- */

struct locate {
	struct sc_buf section;   /* "section." or "section.sub." */
	size_t want, seen;
	const char *name;
	unsigned line, found;
};

/*
 * A section header at P: the section in lower case, a quoted subsection
 * as written (its escapes kept simple), an old [a.b] subsection in lower
 * case.  The end of the header, or NULL.
 */
static const char *locate_header(struct locate *lc, const char *p,
				 const char *end)
{
	sc_buf_reset(&lc->section);
	for (p++; p < end && *p != ']' && *p != ' ' && *p != '\t' &&
	     *p != '"'; p++)
		sc_buf_addch(&lc->section, (char)(*p >= 'A' && *p <= 'Z' ?
						   *p + 32 : *p));
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p == '"') {
		sc_buf_addch(&lc->section, '.');
		for (p++; p < end && *p != '"'; p++) {
			if (*p == '\\' && p + 1 < end)
				p++;
			sc_buf_addch(&lc->section, *p);
		}
		p++;
	}
	while (p < end && *p != ']')
		p++;
	if (p >= end)
		return NULL;
	sc_buf_addch(&lc->section, '.');
	return p + 1;
}

/* A key line at P: count it; note the line when it is the one wanted. */
static void locate_key(struct locate *lc, const char *p, const char *end)
{
	struct sc_buf full = SC_BUF_INIT;

	if (lc->seen++ != lc->want)
		return;
	sc_buf_add(&full, lc->section.data ? lc->section.data : "",
		   lc->section.len);
	for (; p < end && (isalnum((unsigned char)*p) || *p == '-'); p++)
		sc_buf_addch(&full, (char)tolower((unsigned char)*p));
	if (full.data && !strcmp(full.data, lc->name))
		lc->found = lc->line;
	sc_buf_release(&full);
}

/* 1 when the line P..END ends in a backslash that continues the value. */
static int continues(const char *p, const char *end)
{
	size_t n = 0;

	while (end > p && (end[-1] == '\r'))
		end--;
	while (end > p && end[-1] == '\\') {
		end--;
		n++;
	}
	return n % 2 == 1;
}

unsigned sc_gitconfig_line(const char *path, size_t n, const char *name)
{
	struct locate lc = { SC_BUF_INIT, n, 0, name, 0, 0 };
	struct sc_buf b = SC_BUF_INIT;
	const char *p, *end, *nl;
	int cont = 0;

	if (!path || sc_read_file_max(path, (size_t)GITCONFIG_MAX, &b) < 0)
		return 0;
	for (p = b.data, end = p ? p + b.len : p; p && p < end && !lc.found;
	     p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		lc.line++;
		if (cont) {
			cont = continues(p, nl);
			continue;
		}
		while (p < nl && (*p == ' ' || *p == '\t'))
			p++;
		if (p < nl && *p == '[') {
			p = locate_header(&lc, p, nl);
			if (!p)
				break;   /* not a header libgit2 took: give up */
			while (p < nl && (*p == ' ' || *p == '\t'))
				p++;
		}
		if (p < nl && isalpha((unsigned char)*p)) {
			locate_key(&lc, p, nl);
			cont = continues(p, nl);
		}
	}
	sc_buf_release(&lc.section);
	sc_buf_release(&b);
	return lc.found;
}

int sc_gitconfig_bool(const char *value, int *out)
{
	const struct git_api *g = git_api();

	return g && g->parse_bool(out, value) == 0 ? 0 : -1;
}

int sc_gitconfig_libgit2_version(char *buf, size_t size)
{
	const struct git_api *g = git_api();
	int major, minor, rev;

	if (!g || g->version(&major, &minor, &rev) < 0)
		return -1;
	snprintf(buf, size, "%d.%d.%d", major, minor, rev);
	return 0;
}
