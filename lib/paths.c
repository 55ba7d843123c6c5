/*
 * Path resolution against a root: see paths.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "paths.h"

/* The most symlinks one resolution follows, as Linux's MAXSYMLINKS. */
#define MAX_LINKS 40
/*
 * The most directory entries one hard-link search visits.  Past it the
 * file counts as having links elsewhere: a huge tree must not turn a
 * refusal into a pass.
 */
#define MAX_WALK 200000

void sc_path_init(struct sc_path *p)
{
	memset(p, 0, sizeof(*p));
}

void sc_path_release(struct sc_path *p)
{
	size_t i;

	free(p->rel);
	free(p->lexical);
	for (i = 0; i < p->nr_aliases; i++)
		free(p->aliases[i]);
	free(p->aliases);
	sc_path_init(p);
}

const char *sc_path_status_text(int status)
{
	switch (status) {
	case SC_PATH_OK: return "ok";
	case SC_PATH_INVALID: return "an empty path or one holding a NUL";
	case SC_PATH_OUTSIDE: return "outside the root";
	case SC_PATH_ESCAPE: return "a symlink leading outside the root";
	case SC_PATH_TARGET_SYMLINK: return "a symlink as the target of a write";
	case SC_PATH_SPELLING: return "a spelling that reaches another file";
	case SC_PATH_HARDLINK: return "a file with hard links outside the root";
	default: return "a path that cannot be resolved";
	}
}

/*
 * Component-wise, so "/a/bc" is not beneath "/a/b"; DIR's trailing
 * slashes are dropped first, which makes "/" (and "//") the whole tree.
 */
const char *sc_path_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 0 && dir[n - 1] == '/')
		n--;
	if (strncmp(path, dir, n) || (path[n] != '/' && path[n]))
		return NULL;
	path += n;
	while (*path == '/')
		path++;
	return path;
}

int sc_path_plain(const char *rel, size_t len)
{
	const char *p = rel, *end = rel + len;

	for (;;) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		size_t n = slash ? (size_t)(slash - p) : (size_t)(end - p);

		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (!slash)
			return 1;
		p = slash + 1;
	}
}

int sc_path_is_beneath(const char *path, const char *dir)
{
	return sc_path_below(path, dir) != NULL;
}

int sc_path_normalize(const char *path, size_t len, struct sc_buf *out)
{
	size_t i = 0;

	sc_buf_reset(out);
	while (i < len) {
		size_t j = i;

		while (j < len && path[j] != '/')
			j++;
		if (j - i == 2 && path[i] == '.' && path[i + 1] == '.') {
			char *slash;

			if (!out->len)
				return -1;
			slash = strrchr(out->data, '/');
			sc_buf_setlen(out, slash ? (size_t)(slash - out->data) : 0);
		} else if (j > i && !(j - i == 1 && path[i] == '.')) {
			if (out->len)
				sc_buf_addch(out, '/');
			sc_buf_add(out, path + i, j - i);
		}
		i = j + 1;
	}
	if (!out->data)
		sc_buf_adds(out, "");
	return 0;
}

int sc_root_init(struct sc_root *root, const char *dir)
{
	struct sc_buf abs = SC_BUF_INIT, norm = SC_BUF_INIT;
	struct stat st;
	char *real;

	memset(root, 0, sizeof(*root));
	real = realpath(dir, NULL);
	if (!real)
		return -1;
	if (stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		free(real);
		errno = ENOTDIR;
		return -1;
	}
	if (dir[0] != '/') {
		char *cwd = getcwd(NULL, 0);

		if (!cwd) {
			free(real);
			return -1;
		}
		sc_buf_adds(&abs, cwd);
		sc_buf_addch(&abs, '/');
		free(cwd);
	}
	sc_buf_adds(&abs, dir);
	if (sc_path_normalize(abs.data, abs.len, &norm) < 0)
		sc_buf_adds(&norm, "");
	root->path = real;
	root->len = strlen(real);
	while (root->len > 1 && real[root->len - 1] == '/')
		real[--root->len] = '\0';
	root->given = sc_xstrdup(norm.data);   /* without the leading slash */
	root->given_len = norm.len;
	sc_buf_release(&abs);
	sc_buf_release(&norm);
	return 0;
}

void sc_root_release(struct sc_root *root)
{
	free(root->path);
	free(root->given);
	memset(root, 0, sizeof(*root));
}

/* PATH (absolute, normalised, no leading slash) under PREFIX: the rest. */
static const char *under(const char *path, const char *prefix, size_t plen)
{
	if (!plen)
		return path;
	if (strncmp(path, prefix, plen))
		return NULL;
	if (!path[plen])
		return path + plen;
	if (path[plen] == '/')
		return path + plen + 1;
	return NULL;
}

/* The lexical root-relative spelling of PATH, or a status. */
static int lexical(const struct sc_root *root, const char *cwd,
		   const char *path, size_t len, struct sc_buf *out)
{
	struct sc_buf joined = SC_BUF_INIT;
	int ret = SC_PATH_OK;

	if (!len || memchr(path, '\0', len))
		return SC_PATH_INVALID;
	if (path[0] == '/') {
		const char *rest;

		if (sc_path_normalize(path, len, &joined) < 0)
			ret = SC_PATH_OUTSIDE;
		else if ((rest = under(joined.data, root->path + 1,
				       root->len - 1)) ||
			 (rest = under(joined.data, root->given,
				       root->given_len)))
			sc_buf_adds(out, rest);
		else
			ret = SC_PATH_OUTSIDE;
	} else {
		sc_buf_adds(&joined, cwd);
		sc_buf_addch(&joined, '/');
		sc_buf_add(&joined, path, len);
		if (sc_path_normalize(joined.data, joined.len, out) < 0)
			ret = SC_PATH_OUTSIDE;
	}
	sc_buf_release(&joined);
	return ret;
}

/* 1 when directory DIR holds an entry spelled exactly NAME. */
static int exact_entry(const char *dir, const char *name)
{
	DIR *d = opendir(dir[0] ? dir : "/");
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d)))
		found = !strcmp(e->d_name, name);
	closedir(d);
	return found;
}

struct walk {
	const char *root;
	dev_t dev;
	ino_t ino;
	size_t visited;
	int too_many;
	struct sc_buf rel;
	char **names;
	size_t nr, alloc;
};

/* Look for names of one inode under the directory open as DFD. */
static void walk_dir(struct walk *w, int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;

	if (!d) {
		close(dfd);
		w->too_many = 1;
		return;
	}
	while (!w->too_many && (e = readdir(d))) {
		struct stat st;
		size_t keep = w->rel.len;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (++w->visited > MAX_WALK) {
			w->too_many = 1;
			break;
		}
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (w->rel.len)
			sc_buf_addch(&w->rel, '/');
		sc_buf_adds(&w->rel, e->d_name);
		if (S_ISREG(st.st_mode) && st.st_ino == w->ino &&
		    st.st_dev == w->dev) {
			SC_ALLOC_GROW(w->names, w->nr + 1, w->alloc);
			w->names[w->nr++] = sc_xstrdup(w->rel.data);
		} else if (S_ISDIR(st.st_mode) && st.st_dev == w->dev) {
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC);
			if (sub >= 0)
				walk_dir(w, sub);
		}
		sc_buf_setlen(&w->rel, keep);
	}
	closedir(d);
}

/* Fill OUT's aliases with the other names of its inode in the root. */
static int find_links(const struct sc_root *root, struct sc_path *out)
{
	struct walk w;
	int fd, ret = SC_PATH_OK;
	size_t i, alloc = 0;

	memset(&w, 0, sizeof(w));
	w.root = root->path;
	w.dev = out->st.st_dev;
	w.ino = out->st.st_ino;
	fd = open(root->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return SC_PATH_HARDLINK;
	walk_dir(&w, fd);
	if (w.too_many || w.nr < (size_t)out->st.st_nlink)
		ret = SC_PATH_HARDLINK;
	for (i = 0; i < w.nr; i++) {
		if (!strcmp(w.names[i], out->rel)) {
			free(w.names[i]);
			continue;
		}
		SC_ALLOC_GROW(out->aliases, out->nr_aliases + 1, alloc);
		out->aliases[out->nr_aliases++] = w.names[i];
	}
	free(w.names);
	sc_buf_release(&w.rel);
	return ret;
}

struct resolve {
	struct sc_buf cur;     /* physical, absolute, no trailing slash */
	struct sc_buf todo;    /* components still to walk */
	int links;
	int missing;           /* a component did not exist: the rest is lexical */
	int spelling;          /* a component exists under another spelling */
};

/* Take the first component of r->todo into COMP; 0 when none is left. */
static int next_component(struct resolve *r, struct sc_buf *comp)
{
	size_t i = 0, j;

	while (i < r->todo.len && r->todo.data[i] == '/')
		i++;
	if (i == r->todo.len)
		return 0;
	j = i;
	while (j < r->todo.len && r->todo.data[j] != '/')
		j++;
	sc_buf_reset(comp);
	sc_buf_add(comp, r->todo.data + i, j - i);
	sc_buf_consume(&r->todo, j);
	return 1;
}

static void pop_component(struct sc_buf *cur)
{
	char *slash = strrchr(cur->data, '/');

	sc_buf_setlen(cur, slash ? (size_t)(slash - cur->data) : 0);
}

/* Replace the symlink at r->cur + COMP by its target in r->todo. */
static int follow(struct resolve *r, const char *at)
{
	char target[PATH_MAX];
	ssize_t n = readlink(at, target, sizeof(target) - 1);
	struct sc_buf todo = SC_BUF_INIT;

	if (n <= 0 || ++r->links > MAX_LINKS)
		return SC_PATH_ERROR;
	sc_buf_add(&todo, target, (size_t)n);
	sc_buf_addch(&todo, '/');
	sc_buf_add(&todo, r->todo.data ? r->todo.data : "", r->todo.len);
	sc_buf_release(&r->todo);
	r->todo = todo;
	if (target[0] == '/')
		sc_buf_reset(&r->cur);
	return SC_PATH_OK;
}

static int walk_components(struct resolve *r, unsigned flags,
			   struct sc_path *out)
{
	struct sc_buf comp = SC_BUF_INIT, at = SC_BUF_INIT;
	int ret = SC_PATH_OK;

	while (ret == SC_PATH_OK && next_component(r, &comp)) {
		struct stat st;
		int last;

		if (!strcmp(comp.data, "."))
			continue;
		if (!strcmp(comp.data, "..")) {
			pop_component(&r->cur);
			continue;
		}
		sc_buf_reset(&at);
		sc_buf_add(&at, r->cur.data ? r->cur.data : "", r->cur.len);
		sc_buf_addch(&at, '/');
		sc_buf_add(&at, comp.data, comp.len);
		last = strspn(r->todo.data ? r->todo.data : "", "/") == r->todo.len;
		if (r->missing || lstat(at.data, &st) < 0) {
			if (!r->missing && errno != ENOENT)
				ret = SC_PATH_ERROR;
			r->missing = 1;
			sc_buf_reset(&r->cur);
			sc_buf_add(&r->cur, at.data, at.len);
			continue;
		}
		if ((flags & SC_PATH_WRITE) &&
		    !exact_entry(r->cur.data ? r->cur.data : "", comp.data))
			r->spelling = 1;
		if (S_ISLNK(st.st_mode)) {
			if (last && (flags & SC_PATH_WRITE))
				ret = SC_PATH_TARGET_SYMLINK;
			else
				ret = follow(r, at.data);
			continue;
		}
		if (!last && !S_ISDIR(st.st_mode))
			ret = SC_PATH_ERROR;
		if (last) {
			out->exists = 1;
			out->st = st;
		}
		sc_buf_reset(&r->cur);
		sc_buf_add(&r->cur, at.data, at.len);
	}
	sc_buf_release(&comp);
	sc_buf_release(&at);
	return ret;
}

int sc_path_resolve(const struct sc_root *root, const char *cwd,
		    const char *path, size_t len, unsigned flags,
		    struct sc_path *out)
{
	struct sc_buf lex = SC_BUF_INIT;
	struct resolve r;
	const char *rest;
	int ret;

	memset(&r, 0, sizeof(r));
	sc_path_release(out);
	ret = lexical(root, cwd ? cwd : "", path, len, &lex);
	out->lexical = sc_buf_detach(&lex, NULL);
	if (ret != SC_PATH_OK) {
		out->rel = sc_xstrdup(out->lexical);
		return ret;
	}
	sc_buf_adds(&r.cur, root->path);
	if (r.cur.len == 1)
		sc_buf_reset(&r.cur);   /* the root is / */
	sc_buf_adds(&r.todo, out->lexical);
	ret = walk_components(&r, flags, out);
	if (ret == SC_PATH_OK && !*out->lexical &&
	    lstat(root->path, &out->st) == 0)
		out->exists = 1;   /* the root itself */
	if (ret == SC_PATH_OK) {
		rest = under(r.cur.data ? r.cur.data + 1 : "", root->path + 1,
			     root->len - 1);
		if (root->len == 1)
			rest = r.cur.data ? r.cur.data + 1 : "";
		if (!rest)
			ret = r.links ? SC_PATH_ESCAPE : SC_PATH_OUTSIDE;
		else
			out->rel = sc_xstrdup(rest);
	}
	if (ret == SC_PATH_OK && (flags & SC_PATH_WRITE) &&
	    (r.spelling || strcmp(out->rel, out->lexical)))
		ret = SC_PATH_SPELLING;
	if (ret == SC_PATH_OK && out->exists && S_ISREG(out->st.st_mode) &&
	    out->st.st_nlink > 1)
		ret = find_links(root, out);
	if (!out->rel)
		out->rel = sc_xstrdup(out->lexical);
	sc_buf_release(&r.cur);
	sc_buf_release(&r.todo);
	return ret;
}

/* Decode one UTF-8 sequence at S (LEN left); *N its length; -1 if bad. */
static long utf8_next(const unsigned char *s, size_t len, size_t *n)
{
	long cp;
	size_t need, i;

	if (s[0] < 0x80) {
		*n = 1;
		return s[0];
	}
	if ((s[0] & 0xe0) == 0xc0) {
		need = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		need = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		need = 4;
		cp = s[0] & 0x07;
	} else {
		*n = 1;
		return -1;
	}
	if (need > len) {
		*n = 1;
		return -1;
	}
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*n = 1;
			return -1;
		}
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	*n = need;
	return cp;
}

/* Code points HFS+ and NTFS ignore in names, and zero-width ones. */
static int ignorable(long cp)
{
	return cp == 0x00ad || cp == 0x034f || cp == 0x180e ||
	       (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x2064) ||
	       (cp >= 0x206a && cp <= 0x206f) || cp == 0xfeff;
}

void sc_path_fold(const char *comp, size_t len, struct sc_buf *out)
{
	const unsigned char *s = (const unsigned char *)comp;
	size_t i = 0, n, start = out->len;

	while (i < len) {
		long cp = utf8_next(s + i, len - i, &n);

		if (cp >= 'A' && cp <= 'Z')
			sc_buf_addch(out, (int)(cp - 'A' + 'a'));
		else if (cp >= 0 && cp < 0x80)
			sc_buf_addch(out, (int)cp);
		else if (cp >= 0xff01 && cp <= 0xff5e) {
			cp = cp - 0xff01 + 0x21;
			if (cp >= 'A' && cp <= 'Z')
				cp += 'a' - 'A';
			sc_buf_addch(out, (int)cp);
		} else if (cp == 0x212a)
			sc_buf_addch(out, 'k');
		else if (cp == 0x017f)
			sc_buf_addch(out, 's');
		else if (cp == 0x0131 || cp == 0x0130)
			sc_buf_addch(out, 'i');
		else if (!ignorable(cp))
			sc_buf_add(out, s + i, n);
		i += n;
	}
	while (out->len > start &&
	       (out->data[out->len - 1] == '.' || out->data[out->len - 1] == ' '))
		sc_buf_setlen(out, out->len - 1);
	if (out->len - start == 5 && !memcmp(out->data + start, "git~1", 5)) {
		sc_buf_setlen(out, start);
		sc_buf_adds(out, ".git");
	}
	if (out->len == start && len)
		sc_buf_adds(out, ".");   /* a name of only dots or spaces */
}

void sc_path_fold_rel(const char *rel, struct sc_buf *out)
{
	const char *c = rel;

	sc_buf_reset(out);
	sc_buf_adds(out, "");
	while (*c) {
		const char *e = strchr(c, '/');
		size_t n = e ? (size_t)(e - c) : strlen(c);

		if (out->len)
			sc_buf_addch(out, '/');
		sc_path_fold(c, n, out);
		c += n + (e ? 1 : 0);
	}
}
