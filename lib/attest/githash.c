/*
 * sc-hash-git's manifest: what in a repository can make git run code or
 * change what git shows, each with a digest.  See githash.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "encode.h"
#include "gitopen.h"
#include "io.h"
#include "opt.h"
#include "paths.h"
#include "githash.h"
#include "rectable.h"

#define HEX_SHA256 65  /* 64 hex digits and a NUL */
#define SYMLINK_MAX 65536 /* longer targets than PATH_MAX exist; cap anyway */
#define MANIFEST_ITEMS_MAX ((size_t)1 << 22)

static const char *const kind_names[SC_GITHASH_NKINDS] = {
	"config", "hook", "info", "head", "ref", "status", "protected",
};

const char *sc_githash_kind_name(enum sc_githash_kind kind)
{
	return kind_names[kind];
}

int sc_githash_kind_parse(const char *name)
{
	int k;

	for (k = 0; k < SC_GITHASH_NKINDS; k++)
		if (!strcmp(kind_names[k], name))
			return k;
	return -1;
}

#define CHUNK_SIZE 65536

void sc_githash_manifest_init(struct sc_githash_manifest *m)
{
	m->v = NULL;
	m->nr = m->alloc = 0;
	m->chunks = NULL;
	m->nchunks = m->chunks_alloc = 0;
	m->cur = NULL;
	m->left = 0;
}

void sc_githash_manifest_release(struct sc_githash_manifest *m)
{
	size_t i;

	for (i = 0; i < m->nchunks; i++)
		free(m->chunks[i]);
	free(m->chunks);
	free(m->v);
	sc_githash_manifest_init(m);
}

/* A copy of S in M's chunks, or NULL for NULL. */
static const char *dup_or_null(struct sc_githash_manifest *m, const char *s)
{
	size_t len;
	char *p;

	if (!s)
		return NULL;
	len = sc_st_add(strlen(s), 1);
	if (len > m->left) {
		size_t size = len > CHUNK_SIZE ? len : CHUNK_SIZE;

		SC_ALLOC_GROW(m->chunks, m->nchunks + 1, m->chunks_alloc);
		m->chunks[m->nchunks++] = m->cur = sc_xmalloc(size);
		m->left = size;
	}
	p = m->cur;
	memcpy(p, s, len);
	m->cur += len;
	m->left -= len;
	return p;
}

static struct sc_githash_item *add_item(struct sc_githash_manifest *m,
					enum sc_githash_kind kind,
					const char *name, const char *mode,
					const char *digest, const char *target)
{
	struct sc_githash_item *it;

	SC_ALLOC_GROW(m->v, m->nr + 1, m->alloc);
	it = &m->v[m->nr++];
	it->kind = kind;
	it->name = dup_or_null(m, name);
	it->mode = dup_or_null(m, mode);
	it->digest = dup_or_null(m, digest);
	it->target = dup_or_null(m, target);
	it->clean = NULL;
	return it;
}

static int item_cmp(const void *a, const void *b)
{
	const struct sc_githash_item *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * Sort M.  Most of a large manifest is refs, which libgit2 mostly returns
 * in order already: a linear check first spares the qsort then.
 */
static void sort_items(struct sc_githash_manifest *m)
{
	size_t i;

	for (i = 1; i < m->nr; i++)
		if (item_cmp(&m->v[i - 1], &m->v[i]) > 0)
			break;
	if (i < m->nr)
		qsort(m->v, m->nr, sizeof(*m->v), item_cmp);
}

/* Sort the items from START on, which are all of one kind and come after
 * every earlier item's kind. */
static void sort_tail(struct sc_githash_manifest *m, size_t start)
{
	struct sc_githash_manifest tail;

	sc_githash_manifest_init(&tail);
	tail.v = m->v + start;
	tail.nr = m->nr - start;

	sort_items(&tail);
}

/* Drop repeated items (a file included twice), keeping the first. */
static void dedup_items(struct sc_githash_manifest *m)
{
	size_t i, out = 0;

	for (i = 0; i < m->nr; i++) {
		if (out && !item_cmp(&m->v[out - 1], &m->v[i]))
			continue; /* its strings stay in the chunks */
		m->v[out++] = m->v[i];
	}
	m->nr = out;
}

/* ---- SHA-256 ---------------------------------------------------------- */

static void hex_digest(EVP_MD_CTX *ctx, char hex[HEX_SHA256])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;

	if (!EVP_DigestFinal_ex(ctx, md, &len) || len != 32)
		hex[0] = '\0';
	else
		sc_sha256_hex(md, hex);
}

static EVP_MD_CTX *sha256_new(void)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		sc_die(SC_EXIT_INTERNAL, "INTERNAL", "cannot set up SHA-256");
	return ctx;
}

static void sha256_mem(const void *data, size_t len, char hex[HEX_SHA256])
{
	EVP_MD_CTX *ctx = sha256_new();

	EVP_DigestUpdate(ctx, data, len);
	hex_digest(ctx, hex);
	EVP_MD_CTX_free(ctx);
}

/* Hash what FD holds.  -1 with errno set on a read error. */
static int sha256_fd(int fd, char hex[HEX_SHA256])
{
	EVP_MD_CTX *ctx = sha256_new();
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			EVP_MD_CTX_free(ctx);
			return -1;
		}
		EVP_DigestUpdate(ctx, buf, (size_t)n);
	}
	hex_digest(ctx, hex);
	EVP_MD_CTX_free(ctx);
	return 0;
}

/* ---- files, never following a symlink ------------------------------------ */

struct walk {
	struct sc_githash_manifest *m;
	enum sc_githash_kind kind;
	const struct sc_patterns *select; /* NULL: every entry */
	int skip_dotgit;                  /* the worktree walk */
};

static int read_failed(const char *path)
{
	return sc_error_errno("READ-FAILED", "cannot read '%s'", path);
}

/* Record the symlink NAME in DIRFD (REL for messages and the item). */
static int add_symlink(struct walk *w, int parent, const char *name,
		       const char *rel, const struct stat *st)
{
	size_t cap = (size_t)st->st_size + 1;
	char hex[HEX_SHA256];
	char *target;
	ssize_t n;

	if (cap > SYMLINK_MAX)
		cap = SYMLINK_MAX;
	target = sc_xmalloc(cap + 1);
	n = readlinkat(parent, name, target, cap);
	if (n < 0 || (size_t)n >= cap) {
		free(target);
		if (n >= 0)
			errno = ENAMETOOLONG;
		return read_failed(rel);
	}
	target[n] = '\0';
	sha256_mem(target, (size_t)n, hex);
	/* a target holding a NUL cannot exist: readlink gives bytes up to n */
	add_item(w->m, w->kind, rel, "symlink", hex, target);
	free(target);
	return 0;
}

static int add_regular(struct walk *w, int parent, const char *name,
		       const char *rel, const struct stat *st)
{
	char hex[HEX_SHA256];
	struct stat fst;
	int fd, r;

	/* O_NONBLOCK: if the entry became a fifo since the lstat, opening it
	 * must not wait for a writer; the fstat below then refuses it. */
	fd = openat(parent, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return read_failed(rel);
	if (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode) ||
	    fst.st_ino != st->st_ino || fst.st_dev != st->st_dev) {
		close(fd);
		errno = errno ? errno : ESTALE;
		return sc_error("READ-FAILED", "'%s' changed while it was read",
				rel);
	}
	r = sha256_fd(fd, hex);
	close(fd);
	if (r < 0)
		return read_failed(rel);
	add_item(w->m, w->kind, rel,
		 (fst.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) ? "exec" : "file",
		 hex, NULL);
	return 0;
}

static int walk_entry(struct walk *w, int parent, const char *name,
		      const char *rel, int inherited, int depth);

static int walk_dir(struct walk *w, int parent, const char *name,
		    const char *rel, int inherited, int depth)
{
	struct sc_buf path = SC_BUF_INIT;
	struct dirent *de;
	DIR *dir;
	int fd, ret = 0;

	if (depth > SC_GITHASH_MAX_DEPTH) {
		return sc_error("READ-FAILED", "'%s': nested deeper than %d",
				rel, SC_GITHASH_MAX_DEPTH);
	}
	fd = openat(parent, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return read_failed(rel);
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return read_failed(rel);
	}
	while (ret == 0) {
		errno = 0;
		de = readdir(dir);
		if (!de) {
			if (errno)
				ret = read_failed(rel);
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (w->skip_dotgit && !strcmp(de->d_name, ".git"))
			continue;
		sc_buf_reset(&path);
		if (*rel)
			sc_buf_addf(&path, "%s/", rel);
		sc_buf_adds(&path, de->d_name);
		ret = walk_entry(w, dirfd(dir), de->d_name, path.data,
				 inherited, depth + 1);
	}
	closedir(dir);
	sc_buf_release(&path);
	return ret;
}

/*
 * Record the entry NAME of directory PARENT (REL is its path in the
 * manifest).  INHERITED is the nearest ancestor's protect verdict.
 */
static int walk_entry(struct walk *w, int parent, const char *name,
		      const char *rel, int inherited, int depth)
{
	struct stat st;
	int selected = 1;

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT && depth == 0)
			return 0; /* an absent hooks/, info/, config */
		return read_failed(rel);
	}
	if (w->select) {
		/* protected names match in any letter case (protected.h) */
		struct sc_buf folded = SC_BUF_INIT;
		int v;

		sc_path_fold_rel(rel, &folded);
		v = sc_patterns_decide(w->select, folded.data,
				       S_ISDIR(st.st_mode));
		sc_buf_release(&folded);
		selected = v >= 0 ? v : inherited;
	}
	if (S_ISDIR(st.st_mode))
		return walk_dir(w, parent, name, rel, selected, depth);
	if (!selected)
		return 0;
	if (S_ISLNK(st.st_mode))
		return add_symlink(w, parent, name, rel, &st);
	if (S_ISREG(st.st_mode))
		return add_regular(w, parent, name, rel, &st);
	/* fifos, sockets, devices: never opened, recorded as present */
	add_item(w->m, w->kind, rel, "other", NULL, NULL);
	return 0;
}

static int git_failed(const char *what);

static int open_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		read_failed(path);
	return fd;
}

/* config, hooks/ and info/ of the common dir; what else decides which
 * config and objects git reads. */
static int add_gitdir_files(git_repository *repo, struct sc_githash_manifest *m)
{
	static const struct {
		enum sc_githash_kind kind;
		const char *name;
		int in_common;
	} entries[] = {
		{ SC_GITHASH_CONFIG, "config", 1 },
		{ SC_GITHASH_CONFIG, "objects/info/alternates", 1 },
		{ SC_GITHASH_CONFIG, "config.worktree", 0 },
		{ SC_GITHASH_CONFIG, "commondir", 0 },
		{ SC_GITHASH_HOOK, "hooks", 1 },
		{ SC_GITHASH_INFO, "info", 1 },
	};
	int common, own, ret = 0;
	size_t i;

	common = open_dir(git_repository_commondir(repo));
	if (common < 0)
		return -1;
	own = open_dir(git_repository_path(repo));
	if (own < 0) {
		close(common);
		return -1;
	}
	for (i = 0; i < sizeof(entries) / sizeof(entries[0]) && !ret; i++) {
		struct walk w = { m, entries[i].kind, NULL, 0 };

		ret = walk_entry(&w, entries[i].in_common ? common : own,
				 entries[i].name, entries[i].name, 1, 0);
	}
	close(common);
	close(own);
	return ret;
}

/*
 * Files the repository's config pulls in with include.path and
 * includeIf.*.path: libgit2 reads them (as data) and git would take keys
 * that run programs from them, so an edit to one is a config change.  Each
 * is recorded under its resolved absolute path.  A relative path inside an
 * included file cannot be resolved here (libgit2 1.5 does not say which
 * file an entry came from); it is recorded as written, with no digest, so
 * adding or changing the include line is still seen.
 */
struct includes {
	struct sc_githash_manifest *m;
	const char *common;
	int ret;
};

static int add_include(const git_config_entry *entry, void *payload)
{
	struct includes *inc = payload;
	struct walk w = { inc->m, SC_GITHASH_CONFIG, NULL, 0 };
	struct sc_buf path = SC_BUF_INIT;
	const char *v = entry->value;
	const char *home = getenv("HOME");

	if (!v || !*v || entry->level != GIT_CONFIG_LEVEL_LOCAL)
		return 0;
	if (v[0] == '/')
		sc_buf_adds(&path, v);
	else if (v[0] == '~' && v[1] == '/' && home)
		sc_buf_addf(&path, "%s%s", home, v + 1);
	else if (entry->include_depth == 0)
		sc_buf_addf(&path, "%s%s", inc->common, v);
	if (!path.len) {
		sc_buf_addf(&path, "include:%s", v);
		add_item(inc->m, SC_GITHASH_CONFIG, path.data, "other", NULL,
			 NULL);
	} else {
		inc->ret = walk_entry(&w, AT_FDCWD, path.data, path.data, 1, 0);
	}
	sc_buf_release(&path);
	return inc->ret ? 1 : 0;
}

static int add_includes(git_repository *repo, struct sc_githash_manifest *m)
{
	struct includes inc = { m, git_repository_commondir(repo), 0 };
	git_config *cfg = NULL;
	int r;

	if (git_repository_config_snapshot(&cfg, repo) < 0)
		return git_failed("cannot read the config");
	r = git_config_foreach_match(cfg, "^include(if\\..*)?\\.path$",
				     add_include, &inc);
	git_config_free(cfg);
	if (inc.ret)
		return -1;
	if (r < 0)
		return git_failed("cannot read the config");
	return 0;
}

static int add_protected(git_repository *repo, const struct sc_patterns *pats,
			 struct sc_githash_manifest *m)
{
	const char *workdir = git_repository_workdir(repo);
	struct walk w = { m, SC_GITHASH_PROTECTED, pats, 1 };
	int ret;

	if (!workdir)
		return sc_error("NO-WORKTREE",
				"--protect needs a worktree; the repository is bare");
	ret = walk_dir(&w, AT_FDCWD, workdir, "", 0, 0);
	return ret;
}

/* ---- protected files from a commit's tree ------------------------------- */

/*
 * Is REL, a path of the tree, selected: the last verdict of the patterns
 * on it or on one of its directories, as the worktree walk inherits them.
 */
static int tree_selected(const struct sc_patterns *pats, const char *rel)
{
	struct sc_buf part = SC_BUF_INIT, folded = SC_BUF_INIT;
	const char *slash = rel;
	int selected = 0, v;

	for (;;) {
		slash = strchr(slash, '/');
		sc_buf_reset(&part);
		sc_buf_add(&part, rel, slash ? (size_t)(slash - rel) : strlen(rel));
		sc_buf_reset(&folded);
		sc_path_fold_rel(part.data, &folded);
		v = sc_patterns_decide(pats, folded.data, slash != NULL);
		if (v >= 0)
			selected = v;
		if (!slash++)
			break;
	}
	sc_buf_release(&part);
	sc_buf_release(&folded);
	return selected;
}

struct tree_walk {
	git_repository *repo;
	const struct sc_patterns *pats;
	struct sc_githash_manifest *m;
	int ret;
};

/* One entry of the tree: a selected blob becomes a protected item, with
 * the mode and digest the worktree walk gives the same file. */
static int tree_entry(const char *root, const git_tree_entry *e, void *payload)
{
	struct tree_walk *tw = payload;
	git_filemode_t mode = git_tree_entry_filemode(e);
	struct sc_buf rel = SC_BUF_INIT, target = SC_BUF_INIT;
	char hex[HEX_SHA256];
	git_blob *blob = NULL;
	const char *kind;

	if (mode == GIT_FILEMODE_TREE || mode == GIT_FILEMODE_COMMIT)
		return 0;
	sc_buf_addf(&rel, "%s%s", root, git_tree_entry_name(e));
	if (!tree_selected(tw->pats, rel.data)) {
		sc_buf_release(&rel);
		return 0;
	}
	if (git_blob_lookup(&blob, tw->repo, git_tree_entry_id(e)) < 0) {
		tw->ret = git_failed("cannot read a blob of the tree");
		sc_buf_release(&rel);
		return -1;
	}
	sha256_mem(git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob), hex);
	kind = mode == GIT_FILEMODE_LINK ? "symlink" :
	       mode == GIT_FILEMODE_BLOB_EXECUTABLE ? "exec" : "file";
	if (mode == GIT_FILEMODE_LINK)
		sc_buf_add(&target, git_blob_rawcontent(blob),
			   (size_t)git_blob_rawsize(blob));
	add_item(tw->m, SC_GITHASH_PROTECTED, rel.data, kind, hex,
		 mode == GIT_FILEMODE_LINK ? (target.data ? target.data : "") : NULL);
	git_blob_free(blob);
	sc_buf_release(&rel);
	sc_buf_release(&target);
	return 0;
}

/*
 * The protected items of the tree of REV, not of the worktree: the
 * baseline a run starts from is the commit, never what a previous run
 * left in the worktree.
 */
static int add_protected_tree(git_repository *repo, const struct sc_patterns *pats,
			      const char *rev, struct sc_githash_manifest *m)
{
	struct tree_walk tw = { repo, pats, m, 0 };
	git_object *obj = NULL, *tree = NULL;
	int r;

	if (git_revparse_single(&obj, repo, rev) < 0 ||
	    git_object_peel(&tree, obj, GIT_OBJECT_TREE) < 0) {
		git_object_free(obj);
		return sc_error("BAD-REVISION", "'%s' names no commit or tree", rev);
	}
	r = git_tree_walk((git_tree *)tree, GIT_TREEWALK_PRE, tree_entry, &tw);
	git_object_free(tree);
	git_object_free(obj);
	if (tw.ret)
		return -1;
	if (r < 0)
		return git_failed("cannot walk the tree");
	return 0;
}

/* ---- refs and HEAD ------------------------------------------------------ */

static int git_failed(const char *what)
{
	return sc_error("GIT-FAILED", "%s: %s", what, sc_git_errmsg());
}

static int ref_wanted(const char *name, const struct sc_githash_options *opt)
{
	size_t i;

	if (strncmp(name, "refs/heads/", 11) && strncmp(name, "refs/tags/", 10) &&
	    strncmp(name, "refs/replace/", 13))
		return 0;
	for (i = 0; i < opt->nr_exclude; i++)
		if (sc_wildmatch(opt->exclude_refs[i], name, 1))
			return 0;
	return 1;
}

static void add_ref(struct sc_githash_manifest *m, enum sc_githash_kind kind,
		    const char *name, const git_reference *ref)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC) {
		add_item(m, kind, name, NULL, NULL,
			 git_reference_symbolic_target(ref));
		return;
	}
	git_oid_tostr(hex, sizeof(hex), git_reference_target(ref));
	add_item(m, kind, name, NULL, hex, NULL);
}

static int add_refs(git_repository *repo, const struct sc_githash_options *opt,
		    struct sc_githash_manifest *m)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	int err;

	if (git_reference_iterator_new(&it, repo) < 0)
		return git_failed("cannot list the refs");
	while ((err = git_reference_next(&ref, it)) == 0) {
		const char *name = git_reference_name(ref);

		if (ref_wanted(name, opt))
			add_ref(m, SC_GITHASH_REF, name, ref);
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	if (err != GIT_ITEROVER)
		return git_failed("cannot read the refs");
	return 0;
}

/* HEAD of the opened worktree: its symbolic target and the oid it names. */
static int add_head(git_repository *repo, struct sc_githash_manifest *m)
{
	git_reference *head = NULL, *resolved = NULL;
	struct sc_githash_item *it;
	char hex[GIT_OID_HEXSZ + 1];
	int err;

	if (git_reference_lookup(&head, repo, "HEAD") < 0)
		return git_failed("cannot read HEAD");
	add_ref(m, SC_GITHASH_HEAD, "HEAD", head);
	it = &m->v[m->nr - 1];
	if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC) {
		err = git_reference_resolve(&resolved, head);
		if (err == 0) {
			git_oid_tostr(hex, sizeof(hex),
				      git_reference_target(resolved));
			it->digest = dup_or_null(m, hex);
			git_reference_free(resolved);
		} else if (err != GIT_ENOTFOUND) {
			git_reference_free(head);
			return git_failed("cannot resolve HEAD");
		}
	}
	git_reference_free(head);
	return 0;
}

/* ---- status --------------------------------------------------------------- */

/* The content of a tracked path as it is in the worktree, for the digest:
 * a symlink's target, a file's SHA-256, or "missing"/"other". */
static int hash_worktree_path(const char *workdir, const char *path,
			      EVP_MD_CTX *ctx)
{
	struct sc_githash_manifest one;
	struct walk w = { &one, SC_GITHASH_PROTECTED, NULL, 0 };
	struct stat st;
	int dfd, ret;

	sc_githash_manifest_init(&one);
	dfd = open_dir(workdir);
	if (dfd < 0)
		return -1;
	if (fstatat(dfd, path, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		close(dfd);
		if (errno == ENOENT || errno == ENOTDIR) {
			EVP_DigestUpdate(ctx, "missing", 8);
			return 0;
		}
		return read_failed(path);
	}
	if (S_ISLNK(st.st_mode))
		ret = add_symlink(&w, dfd, path, path, &st);
	else if (S_ISREG(st.st_mode))
		ret = add_regular(&w, dfd, path, path, &st);
	else
		ret = (add_item(&one, SC_GITHASH_PROTECTED, path, "other", NULL, NULL), 0);
	close(dfd);
	if (!ret) {
		const struct sc_githash_item *it = &one.v[0];

		EVP_DigestUpdate(ctx, it->mode, strlen(it->mode) + 1);
		if (it->digest)
			EVP_DigestUpdate(ctx, it->digest, strlen(it->digest));
	}
	sc_githash_manifest_release(&one);
	return ret;
}

static int hash_index(git_repository *repo, EVP_MD_CTX *ctx)
{
	git_index *idx = NULL;
	size_t i, n;

	if (git_repository_index(&idx, repo) < 0)
		return git_failed("cannot read the index");
	n = git_index_entrycount(idx);
	for (i = 0; i < n; i++) {
		const git_index_entry *e = git_index_get_byindex(idx, i);
		char hex[GIT_OID_HEXSZ + 1];
		char head[64];

		git_oid_tostr(hex, sizeof(hex), &e->id);
		snprintf(head, sizeof(head), "%o %s %d ", e->mode, hex,
			 GIT_INDEX_ENTRY_STAGE(e));
		EVP_DigestUpdate(ctx, head, strlen(head));
		EVP_DigestUpdate(ctx, e->path, strlen(e->path) + 1);
	}
	git_index_free(idx);
	return 0;
}

static int hash_changes(git_repository *repo, EVP_MD_CTX *ctx, size_t *count)
{
	git_status_options so;
	git_status_list *list = NULL;
	const char *workdir = git_repository_workdir(repo);
	size_t i, n;
	int ret = 0;

	git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION);
	so.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	/* tracked files only; submodules are repositories of their own */
	so.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES |
		   GIT_STATUS_OPT_SORT_CASE_SENSITIVELY;
	if (git_status_list_new(&list, repo, &so) < 0)
		return git_failed("cannot compute the status");
	n = git_status_list_entrycount(list);
	for (i = 0; i < n && !ret; i++) {
		const git_status_entry *e = git_status_byindex(list, i);
		const git_diff_delta *d = e->index_to_workdir ? e->index_to_workdir
							       : e->head_to_index;
		const char *path = d->new_file.path ? d->new_file.path
						    : d->old_file.path;
		char flags[32];

		snprintf(flags, sizeof(flags), "%u ", (unsigned)e->status);
		EVP_DigestUpdate(ctx, flags, strlen(flags));
		EVP_DigestUpdate(ctx, path, strlen(path) + 1);
		if (e->index_to_workdir && workdir)
			ret = hash_worktree_path(workdir, path, ctx);
	}
	*count = n;
	git_status_list_free(list);
	return ret;
}

static int add_status(git_repository *repo, struct sc_githash_manifest *m)
{
	EVP_MD_CTX *ctx;
	struct sc_githash_item *it;
	char hex[HEX_SHA256];
	size_t changes = 0;
	int ret;

	if (git_repository_is_bare(repo))
		return sc_error("NO-WORKTREE",
				"--status needs a worktree; the repository is bare");
	ctx = sha256_new();
	/* HEAD is in the digest through its own item's oid; the index and
	 * the changes are what status adds */
	ret = hash_index(repo, ctx);
	if (!ret)
		ret = hash_changes(repo, ctx, &changes);
	if (ret) {
		EVP_MD_CTX_free(ctx);
		return ret;
	}
	hex_digest(ctx, hex);
	EVP_MD_CTX_free(ctx);
	it = add_item(m, SC_GITHASH_STATUS, "status", NULL, hex, NULL);
	it->clean = dup_or_null(m, changes ? "no" : "yes");
	return 0;
}

int sc_githash_build(git_repository *repo, const struct sc_githash_options *opt,
		     struct sc_githash_manifest *m)
{
	size_t start;

	if (add_gitdir_files(repo, m) < 0 || add_includes(repo, m) < 0 ||
	    add_head(repo, m) < 0)
		return -1;
	/* everything before the refs is small: sort it, then the refs alone,
	 * which then only need a linear check in the common case */
	sort_items(m);
	dedup_items(m);
	start = m->nr;
	if (add_refs(repo, opt, m) < 0)
		return -1;
	sort_tail(m, start);
	if (opt->status && add_status(repo, m) < 0)
		return -1;
	start = m->nr;
	if (opt->protect && (opt->protect_tree ?
	    add_protected_tree(repo, opt->protect, opt->protect_tree, m) :
	    add_protected(repo, opt->protect, m)) < 0)
		return -1;
	sort_tail(m, start);
	return 0;
}

/* ---- the manifest as records --------------------------------------------- */

static int kind_uses_ref(enum sc_githash_kind kind)
{
	return kind == SC_GITHASH_HEAD || kind == SC_GITHASH_REF;
}

/*
 * Append the field NAME=V to OUT, or to REC when the output is a table for
 * a person.  Every value an item holds is a C string (paths, ref names,
 * link targets and hex cannot hold a NUL), so the plain form of
 * sc-record(5) is always the right one; encoding straight into the output
 * spares a record per item, which counts with 100,000 refs.
 */
static void put_field(struct sc_output *out, struct sc_record *rec,
		      const char *name, const char *v)
{
	if (!v)
		return;
	if (rec) {
		sc_record_adds(rec, name, v);
		return;
	}
	sc_output_add(out, name, strlen(name));
	sc_output_add(out, "=", 1);
	sc_output_add(out, v, strlen(v) + 1);
}

static int put_item(const struct sc_githash_item *it, struct sc_output *out)
{
	int isref = kind_uses_ref(it->kind), ret;
	struct sc_record row, *rec = out->table ? &row : NULL;

	if (rec)
		sc_record_init(rec);
	put_field(out, rec, "type", "item");
	put_field(out, rec, "kind", kind_names[it->kind]);
	if (it->kind != SC_GITHASH_STATUS)
		put_field(out, rec, isref ? "ref" : "path", it->name);
	put_field(out, rec, "mode", it->mode);
	put_field(out, rec, isref ? "oid" : "sha256", it->digest);
	put_field(out, rec, "target", it->target);
	put_field(out, rec, "clean", it->clean);
	if (!rec) {
		sc_output_add(out, "", 1);
		return sc_output_unit_done(out);
	}
	ret = sc_record_write(out, rec);
	sc_record_release(rec);
	return ret;
}

int sc_githash_write(const struct sc_githash_manifest *m, struct sc_output *out)
{
	struct sc_record rec;
	size_t i;
	int ret = 0;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "manifest");
	sc_record_adds(&rec, "version", "1");
	ret = sc_record_write(out, &rec);
	for (i = 0; i < m->nr && !ret; i++)
		ret = put_item(&m->v[i], out);
	if (!ret) {
		sc_record_reset(&rec);
		sc_record_adds(&rec, "type", "end");
		sc_record_addu(&rec, "items", m->nr);
		ret = sc_record_write(out, &rec);
	}
	sc_record_release(&rec);
	return ret;
}

static int malformed(size_t nrec, const char *what)
{
	sc_error("MALFORMED-MANIFEST", "record %zu: %s", nrec, what);
	return SC_GITHASH_MALFORMED;
}

static int hex_ok(const char *s, size_t len)
{
	size_t i;

	if (strlen(s) != len)
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/*
 * A string field: *OUT is its value or NULL when absent.  -1 when present
 * but holding a NUL (no name, path or digest can).
 */
static int str_field(const struct sc_record *rec, const char *name,
		     const char **out)
{
	*out = NULL;
	if (!sc_record_get(rec, name))
		return 0;
	*out = sc_record_str(rec, name);
	return *out ? 0 : -1;
}

static int read_item(const struct sc_record *rec, size_t nrec,
		     struct sc_githash_manifest *m)
{
	const char *kind_s, *name, *mode, *digest, *target, *clean;
	int kind, isref;
	struct sc_githash_item *it;

	if (str_field(rec, "kind", &kind_s) < 0 || !kind_s ||
	    (kind = sc_githash_kind_parse(kind_s)) < 0)
		return malformed(nrec, "item without a known kind");
	isref = kind_uses_ref(kind);
	if (str_field(rec, isref ? "ref" : "path", &name) < 0 ||
	    str_field(rec, "mode", &mode) < 0 ||
	    str_field(rec, isref ? "oid" : "sha256", &digest) < 0 ||
	    str_field(rec, "target", &target) < 0 ||
	    str_field(rec, "clean", &clean) < 0)
		return malformed(nrec, "a field holds a NUL byte");
	if (kind == SC_GITHASH_STATUS)
		name = "status";
	if (!name || !*name)
		return malformed(nrec, "item without a path or ref");
	if (mode && strcmp(mode, "file") && strcmp(mode, "exec") &&
	    strcmp(mode, "symlink") && strcmp(mode, "other"))
		return malformed(nrec, "unknown mode");
	if (digest && !hex_ok(digest, isref ? GIT_OID_HEXSZ : 64))
		return malformed(nrec, "digest is not lowercase hex of the right length");
	if (m->nr >= MANIFEST_ITEMS_MAX)
		return malformed(nrec, "too many items");
	it = add_item(m, (enum sc_githash_kind)kind, name, mode, digest,
		      target);
	it->clean = dup_or_null(m, clean);
	return 0;
}

static int read_end(const struct sc_record *rec, size_t nrec, size_t items)
{
	unsigned long long n;
	const char *count;

	if (str_field(rec, "items", &count) < 0 || !count ||
	    sc_parse_uint(count, MANIFEST_ITEMS_MAX, &n) < 0)
		return malformed(nrec, "end record without a valid item count");
	if (n != items)
		return malformed(nrec, "item count does not match: truncated or edited");
	return 0;
}

/* Report reader status ST of RD: what it says of the input. */
static enum sc_githash_status reader_failed(const struct sc_reader *rd,
					    int st)
{
	sc_reader_report(rd, st);
	return st == SC_READ_IO ? SC_GITHASH_FAILED : SC_GITHASH_MALFORMED;
}

enum sc_githash_status sc_githash_read(struct sc_reader *rd,
				       struct sc_githash_manifest *m)
{
	struct sc_record rec;
	size_t nrec = 0, i;
	int status = 0, state = 0, ret = 0; /* 0 before header, 1 items, 2 ended */

	sc_record_init(&rec);
	while (!ret && (status = sc_reader_next(rd, &rec)) == SC_READ_RECORD) {
		const char *type = sc_record_type(&rec);

		nrec++;
		if (type && !strcmp(type, "manifest")) {
			const char *v = sc_record_str(&rec, "version");

			if (state != 0)
				ret = malformed(nrec, "a second manifest header");
			else if (!v || strcmp(v, "1"))
				ret = malformed(nrec, "unsupported manifest version");
			state = 1;
		} else if (type && !strcmp(type, "item")) {
			ret = state == 1 ? read_item(&rec, nrec, m)
					 : malformed(nrec, "item outside the manifest");
		} else if (type && !strcmp(type, "end")) {
			ret = state == 1 ? read_end(&rec, nrec, m->nr)
					 : malformed(nrec, "end outside the manifest");
			state = 2;
		} else if (state == 0) {
			ret = malformed(nrec, "the manifest header must come first");
		}
		/* other record types inside are skipped (sc-record(5)) */
	}
	if (!ret && status < 0)
		ret = reader_failed(rd, status);
	else if (!ret && state != 2)
		ret = malformed(nrec, "no end record: the manifest is truncated");
	sc_record_release(&rec);
	if (ret)
		return ret;
	sort_items(m);
	for (i = 1; i < m->nr; i++)
		if (!item_cmp(&m->v[i - 1], &m->v[i]))
			return malformed(nrec, "an item appears twice");
	return 0;
}

/* ---- comparison -------------------------------------------------------- */

static int same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static int same_item(const struct sc_githash_item *a,
		     const struct sc_githash_item *b)
{
	return same_str(a->mode, b->mode) && same_str(a->digest, b->digest) &&
	       same_str(a->target, b->target) && same_str(a->clean, b->clean);
}

static int finding(struct sc_output *out, struct sc_record *rec,
		   const struct sc_githash_item *it, const char *change)
{
	sc_record_reset(rec);
	sc_record_adds(rec, "type", "finding");
	if (it->kind == SC_GITHASH_PROTECTED) {
		sc_record_adds(rec, "code", "INTEGRITY");
		sc_record_adds(rec, "path", it->name);
	} else {
		sc_record_adds(rec, "code", "GIT-CHANGED");
		sc_record_adds(rec, "kind", kind_names[it->kind]);
		sc_record_adds(rec, "item", it->name);
	}
	sc_record_adds(rec, "change", change);
	return sc_record_write(out, rec);
}

int sc_githash_compare(const struct sc_githash_manifest *old,
		       const struct sc_githash_manifest *now,
		       struct sc_output *out, size_t *nfound)
{
	struct sc_record rec;
	size_t i = 0, j = 0;
	int ret = 0;

	*nfound = 0;
	sc_record_init(&rec);
	while (!ret && (i < old->nr || j < now->nr)) {
		int c;

		if (i == old->nr)
			c = 1;
		else if (j == now->nr)
			c = -1;
		else
			c = item_cmp(&old->v[i], &now->v[j]);
		if (c < 0) {
			ret = finding(out, &rec, &old->v[i++], "removed");
			++*nfound;
		} else if (c > 0) {
			ret = finding(out, &rec, &now->v[j++], "added");
			++*nfound;
		} else {
			if (!same_item(&old->v[i], &now->v[j])) {
				ret = finding(out, &rec, &now->v[j], "modified");
				++*nfound;
			}
			i++;
			j++;
		}
	}
	sc_record_release(&rec);
	return ret;
}

/* ---- the --protect list ---------------------------------------------------- */

/* Read PATH whole, at most SC_GITHASH_PROTECT_MAX bytes. */
static enum sc_githash_status read_protect_file(const char *path,
						struct sc_buf *text)
{
	int st = sc_read_file_max(path, SC_GITHASH_PROTECT_MAX, text);

	if (st == -2) {
		sc_error("PROTECT-TOO-LARGE", "'%s' is larger than %zu bytes",
			 path, SC_GITHASH_PROTECT_MAX);
		return SC_GITHASH_MALFORMED;
	}
	if (st < 0) {
		read_failed(path);
		return SC_GITHASH_FAILED;
	}
	return SC_GITHASH_OK;
}

static int parse_protect(const char *path, const struct sc_buf *text,
			 struct sc_patterns *list)
{
	struct sc_pattern_error err = { 0, NULL };

	if (sc_patterns_parse(list, text->data ? text->data : "", text->len,
			      &err) < 0) {
		sc_error("BAD-PATTERN", "'%s' line %u: the pattern %s", path,
			 err.line, err.what);
		return SC_GITHASH_MALFORMED;
	}
	sc_patterns_fold(list);
	return 0;
}

enum sc_githash_status sc_githash_load_protect(const char *path,
					       struct sc_patterns *list)
{
	struct sc_buf text = SC_BUF_INIT;
	int ret = read_protect_file(path, &text);

	if (!ret)
		ret = parse_protect(path, &text, list);
	sc_buf_release(&text);
	return ret;
}

/*
 * The patterns of the type=protected records in TEXT that are watched
 * (watch=yes), one a line, into LINES.
 */
static int watched_patterns(const char *path, const struct sc_buf *text,
			    struct sc_buf *lines)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record r;
	int st, ret = 0;

	sc_input_init_mem(&in, text->data ? text->data : "", text->len);
	sc_reader_init(&rd, &in);
	sc_record_init(&r);
	while ((st = sc_reader_next(&rd, &r)) == SC_READ_RECORD) {
		const struct sc_field *pat = sc_record_get(&r, "pattern");
		const char *type = sc_record_type(&r);
		const char *watch = sc_record_str(&r, "watch");

		if (!type || strcmp(type, "protected") || !watch ||
		    strcmp(watch, "yes"))
			continue;
		if (!pat || !pat->value_len ||
		    memchr(pat->value, '\n', pat->value_len) ||
		    memchr(pat->value, '\0', pat->value_len)) {
			sc_error("BAD-PATTERN", "'%s': a type=protected record "
				 "without one pattern on one line", path);
			ret = SC_GITHASH_MALFORMED;
			break;
		}
		sc_buf_add(lines, pat->value, pat->value_len);
		sc_buf_addch(lines, '\n');
	}
	if (!ret && st < 0)
		ret = reader_failed(&rd, st);
	sc_record_release(&r);
	return ret;
}

enum sc_githash_status sc_githash_load_protect_records(const char *path,
						       struct sc_patterns *list)
{
	struct sc_buf text = SC_BUF_INIT, lines = SC_BUF_INIT;
	int ret = read_protect_file(path, &text);

	if (!ret)
		ret = watched_patterns(path, &text, &lines);
	if (!ret)
		ret = parse_protect(path, &lines, list);
	sc_buf_release(&text);
	sc_buf_release(&lines);
	return ret;
}
