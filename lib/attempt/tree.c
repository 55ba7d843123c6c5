#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "filetool.h"
#include "gitopen.h"
#include "opt.h"
#include "record.h"
#include "strlist.h"
#include "tree.h"

/*
 * Below the sc_tree_CMD_run functions every function answers 0 or, with
 * its diagnostic printed, an enum sc_tree_status (tree.h); only
 * tree_exit() turns that into an exit status.
 */

/* Open NAME in directory DFD, never through a symlink or a mount. */
static int open_at(int dfd, const char *name, int flags)
{
	return sc_open_beneath(dfd, name, flags, 0);
}

/* A path the worktree must not hold, or that cannot be read, written or
 * removed: a finding (exit 1), not a fault of sc-tree.  Control bytes in
 * PATH are cleaned by sc_error itself. */
static int refuse_path(const char *code, const char *what, const char *path)
{
	sc_error(code, "'%s': %s", path, what);
	return SC_TREE_REFUSED;
}

static int git_fail(const char *what)
{
	sc_error("GIT-FAILED", "%s: %s", what, sc_git_errmsg());
	return SC_TREE_FAILED;
}

static void join(struct sc_buf *out, const char *dir, const char *name)
{
	sc_buf_reset(out);
	if (*dir) {
		sc_buf_adds(out, dir);
		sc_buf_addch(out, '/');
	}
	sc_buf_adds(out, name);
}

/* Read a regular file FD whole (at most SC_TREE_FILE_MAX bytes). */
static int read_capped(int fd, struct sc_buf *data, const char *path)
{
	sc_buf_reset(data);
	switch (sc_read_fd_max(fd, SC_TREE_FILE_MAX, 0, data)) {
	case -1:
		return refuse_path("UNREADABLE", strerror(errno), path);
	case -2:
		return refuse_path("FILE-TOO-LARGE", "larger than 64 MiB",
				   path);
	}
	return 0;
}

/* ---- HEAD's entries ---------------------------------------------------- */

struct entry {
	char *path;
	git_oid oid;
	unsigned mode;
	int seen;
};

struct entries {
	struct entry *v;
	size_t nr, alloc;
};

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
		      ((const struct entry *)b)->path);
}

static int collect_cb(const char *root, const git_tree_entry *te, void *payload)
{
	struct entries *es = payload;
	git_object_t type = git_tree_entry_type(te);
	struct sc_buf path;

	if (type != GIT_OBJECT_BLOB && type != GIT_OBJECT_COMMIT)
		return 0;
	sc_buf_init(&path);
	sc_buf_adds(&path, root);
	sc_buf_adds(&path, git_tree_entry_name(te));
	SC_ALLOC_GROW(es->v, es->nr + 1, es->alloc);
	es->v[es->nr].path = sc_buf_detach(&path, NULL);
	git_oid_cpy(&es->v[es->nr].oid, git_tree_entry_id(te));
	es->v[es->nr].mode = (unsigned)git_tree_entry_filemode(te);
	es->v[es->nr].seen = 0;
	es->nr++;
	return 0;
}

static void entries_release(struct entries *es)
{
	size_t i;

	for (i = 0; i < es->nr; i++)
		free(es->v[i].path);
	free(es->v);
}

static struct entry *entry_find(struct entries *es, const char *path)
{
	struct entry key = { (char *)path, { { 0 } }, 0, 0 };

	if (!es->nr)
		return NULL;
	return bsearch(&key, es->v, es->nr, sizeof(*es->v), entry_cmp);
}

/* 1 when HEAD tracks something below directory DIR. */
static int tracks_below(const struct entries *es, const char *dir)
{
	size_t lo = 0, hi = es->nr, len = strlen(dir);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(es->v[mid].path, dir, len);

		if (c < 0 || (c == 0 && es->v[mid].path[len] < '/'))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < es->nr && !strncmp(es->v[lo].path, dir, len) &&
	       es->v[lo].path[len] == '/';
}

/* HEAD's tree (NULL on an unborn branch: nothing is tracked). */
static int head_tree(git_repository *repo, git_tree **tree)
{
	git_object *obj = NULL;
	int err;

	*tree = NULL;
	err = git_revparse_single(&obj, repo, "HEAD^{tree}");
	if (err == GIT_ENOTFOUND || err == GIT_EUNBORNBRANCH)
		return 0;
	if (err < 0)
		return git_fail("cannot read HEAD's tree");
	*tree = (git_tree *)obj;
	return 0;
}

/* ---- the diff ---------------------------------------------------------- */

struct change {
	char *path;
	const char *kind;     /* added, modified, mode, deleted */
	unsigned mode, old_mode;
	git_oid oid;
	const char *refuse;   /* symlink, gitlink, set-id, or NULL */
};

struct diff {
	struct sc_strlist start_ignored;  /* sorted; directories end in '/' */
	git_repository *repo;
	git_odb *odb;
	struct entries head;
	struct change *ch;
	size_t nch, ach;
	size_t files;
	struct sc_buf data;
};

static int add_change(struct diff *d, const char *path, const char *kind,
		      unsigned mode, unsigned old_mode, const git_oid *oid,
		      const char *refuse)
{
	struct change *c;

	if (d->nch >= SC_TREE_CHANGES_MAX)
		return refuse_path("TOO-MANY-CHANGES",
				   "more than 10000 changed paths, at", path);
	SC_ALLOC_GROW(d->ch, d->nch + 1, d->ach);
	c = &d->ch[d->nch++];
	c->path = sc_xstrdup(path);
	c->kind = kind;
	c->mode = mode;
	c->old_mode = old_mode;
	if (oid)
		git_oid_cpy(&c->oid, oid);
	else
		memset(&c->oid, 0, sizeof(c->oid));
	c->refuse = refuse;
	return 0;
}

/* 1 when PATH (a directory when IS_DIR) was ignored at the start. */
static int start_ignored(struct diff *d, const char *path, int is_dir)
{
	struct sc_buf key;
	int found;

	if (!d->start_ignored.nr)
		return 0;
	sc_buf_init(&key);
	sc_buf_adds(&key, path);
	if (is_dir)
		sc_buf_addch(&key, '/');
	found = sc_strlist_has(&d->start_ignored, key.data);
	sc_buf_release(&key);
	return found;
}

/* Read the NUL-separated list at PATH into D->start_ignored, sorted. */
static int load_start_ignored(struct diff *d, const char *path)
{
	struct sc_buf data;
	size_t i, start = 0;
	int ret = 0;

	sc_buf_init(&data);
	switch (sc_read_file_max(path, (size_t)64 << 20, &data)) {
	case -1:
		sc_error_errno("FILE-UNREADABLE", "cannot read the ignored list");
		ret = SC_TREE_UNAVAILABLE;
		break;
	case -2:
		sc_error("FILE-UNREADABLE", "the ignored list cannot be read whole (64 MiB at most)");
		ret = SC_TREE_UNAVAILABLE;
		break;
	}
	for (i = 0; !ret && i <= data.len; i++) {
		if (i < data.len && data.data[i])
			continue;
		if (i > start)
			sc_strlist_addn(&d->start_ignored, data.data + start,
					i - start);
		start = i + 1;
	}
	sc_buf_release(&data);
	sc_strlist_sort(&d->start_ignored);
	return ret;
}

static int ignored(struct diff *d, const char *path)
{
	int ign = 0;

	if (git_ignore_path_is_ignored(&ign, d->repo, path) < 0)
		return -1;
	return ign;
}

/* Compare one file's content (DATA, MODE) with HEAD and store it when it
 * differs. */
static int judge_blob(struct diff *d, const char *path, unsigned mode,
		      const char *refuse)
{
	struct entry *e = entry_find(&d->head, path);
	git_oid oid;
	const char *kind;

	if (git_odb_hash(&oid, d->data.data, d->data.len, GIT_OBJECT_BLOB) < 0)
		return git_fail("cannot hash a file");
	if (e) {
		e->seen = 1;
		/* An unchanged symlink HEAD holds is not a change; a set-id
		 * bit is, whatever the content. */
		if (e->mode == mode && git_oid_equal(&e->oid, &oid) &&
		    (!refuse || mode == GIT_FILEMODE_LINK))
			return 0;
		kind = git_oid_equal(&e->oid, &oid) && e->mode != mode &&
		       e->mode != GIT_FILEMODE_LINK && mode != GIT_FILEMODE_LINK
			       ? "mode" : "modified";
	} else {
		kind = "added";
	}
	if (git_odb_write(&oid, d->odb, d->data.data, d->data.len,
			  GIT_OBJECT_BLOB) < 0)
		return git_fail("cannot store a file");
	return add_change(d, path, kind, mode, e ? e->mode : 0, &oid, refuse);
}

static int diff_dir(struct diff *d, int fd, const char *rel, unsigned depth);

static int diff_regular(struct diff *d, int dfd, const char *name,
			const char *path, const struct stat *st)
{
	int fd, ret;
	unsigned mode = (st->st_mode & 0111) ? GIT_FILEMODE_BLOB_EXECUTABLE
					     : GIT_FILEMODE_BLOB;
	const char *refuse = (st->st_mode & (S_ISUID | S_ISGID)) ? "set-id"
								  : NULL;

	fd = open_at(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return refuse_path("UNREADABLE", strerror(errno), path);
	ret = read_capped(fd, &d->data, path);
	close(fd);
	return ret ? ret : judge_blob(d, path, mode, refuse);
}

static int diff_symlink(struct diff *d, int dfd, const char *name,
			const char *path)
{
	char target[4096];
	ssize_t n = readlinkat(dfd, name, target, sizeof(target));

	if (n < 0 || (size_t)n >= sizeof(target))
		return refuse_path("UNREADABLE", "cannot read the symlink",
				   path);
	sc_buf_reset(&d->data);
	sc_buf_add(&d->data, target, (size_t)n);
	return judge_blob(d, path, GIT_FILEMODE_LINK, "symlink");
}

/* A directory holding .git: git would commit it as a gitlink. */
static int embedded_repo(int fd)
{
	struct stat st;

	return fstatat(fd, ".git", &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static int diff_subdir(struct diff *d, int dfd, const char *name,
		       const char *path, unsigned depth)
{
	struct entry *e = entry_find(&d->head, path);
	int fd, ret, ign;

	if (e && e->mode == GIT_FILEMODE_COMMIT) {
		e->seen = 1; /* a submodule: its own repository */
		return 0;
	}
	if (!tracks_below(&d->head, path)) {
		ign = ignored(d, path);
		if (ign < 0)
			return git_fail("cannot read the ignore rules");
		if (ign)
			return 0;
	}
	if (depth >= SC_TREE_DEPTH_MAX)
		return refuse_path("TOO-DEEP", "directories nest too deeply",
				   path);
	fd = open_at(dfd, name, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return refuse_path("UNREADABLE", strerror(errno), path);
	if (embedded_repo(fd)) {
		close(fd);
		return add_change(d, path, "added", GIT_FILEMODE_COMMIT, 0,
				  NULL, "gitlink");
	}
	ret = diff_dir(d, fd, path, depth + 1);
	close(fd);
	return ret;
}

static int diff_entry(struct diff *d, int fd, const char *name,
		      const char *path, unsigned depth)
{
	struct stat st;
	int ign;

	/* Every entry looked at counts, directories too: a million empty
	 * directories must not keep the driver walking. */
	if (++d->files > SC_TREE_FILES_MAX)
		return refuse_path("TOO-MANY-FILES",
				   "more than 100000 entries, at", path);
	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return refuse_path("UNREADABLE", strerror(errno), path);
	if (!entry_find(&d->head, path) &&
	    start_ignored(d, path, S_ISDIR(st.st_mode)))
		return 0;
	if (S_ISDIR(st.st_mode))
		return diff_subdir(d, fd, name, path, depth);
	if (!entry_find(&d->head, path)) {
		ign = ignored(d, path);
		if (ign < 0)
			return git_fail("cannot read the ignore rules");
		if (ign)
			return 0;
	}
	if (S_ISREG(st.st_mode))
		return diff_regular(d, fd, name, path, &st);
	if (S_ISLNK(st.st_mode))
		return diff_symlink(d, fd, name, path);
	return refuse_path("SPECIAL-FILE",
			   "neither a file, a directory nor a symlink", path);
}

/*
 * The ignore rules of a directory are read by libgit2 by path: its
 * .gitignore must be a regular file before any question is asked about
 * the names beside it (a symlink would make libgit2 read its target).
 */
static int check_ignore_file(int fd, const char *rel)
{
	struct stat st;
	struct sc_buf path;
	int ret = 0;

	if (fstatat(fd, ".gitignore", &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (S_ISREG(st.st_mode))
		return 0;
	sc_buf_init(&path);
	join(&path, rel, ".gitignore");
	ret = refuse_path("SPECIAL-FILE",
			  "an ignore file that is not a regular file",
			  path.data);
	sc_buf_release(&path);
	return ret;
}

static int diff_dir(struct diff *d, int fd, const char *rel, unsigned depth)
{
	struct sc_strlist n = { 0 };
	struct sc_buf path;
	size_t i;
	int ret;

	ret = check_ignore_file(fd, rel);
	if (ret)
		return ret;
	if (sc_dir_list(fd, SIZE_MAX, &n) < 0)
		return refuse_path("UNREADABLE", strerror(errno),
				   *rel ? rel : ".");
	sc_buf_init(&path);
	for (i = 0; !ret && i < n.nr; i++) {
		if (!*rel && !strcmp(n.v[i], ".git"))
			continue;
		join(&path, rel, n.v[i]);
		ret = diff_entry(d, fd, n.v[i], path.data, depth);
	}
	sc_buf_release(&path);
	sc_strlist_release(&n);
	return ret;
}

static int change_cmp(const void *a, const void *b)
{
	return strcmp(((const struct change *)a)->path,
		      ((const struct change *)b)->path);
}

static void put_mode(struct sc_record *rec, const char *name, unsigned mode)
{
	char num[16];

	snprintf(num, sizeof(num), "%06o", mode);
	sc_record_adds(rec, name, num);
}

static int put_change(struct sc_output *out, const struct change *c, size_t i)
{
	struct sc_record rec;
	char id[32], hex[GIT_OID_HEXSZ + 1];
	int ret;

	snprintf(id, sizeof(id), "d%zu", i + 1);
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "change");
	sc_record_adds(&rec, "id", id);
	sc_record_adds(&rec, "path", c->path);
	sc_record_adds(&rec, "change", c->kind);
	if (c->mode) {
		put_mode(&rec, "mode", c->mode);
		sc_record_adds(&rec, "oid", git_oid_tostr(hex, sizeof(hex),
							  &c->oid));
	}
	if (c->old_mode)
		put_mode(&rec, "old-mode", c->old_mode);
	if (c->refuse)
		sc_record_adds(&rec, "refuse", c->refuse);
	ret = sc_record_write(out, &rec);
	/* The same path as a call of the model's: sc-classify judges it. */
	sc_record_reset(&rec);
	sc_record_adds(&rec, "type", "call");
	sc_record_adds(&rec, "id", id);
	sc_record_adds(&rec, "tool", c->mode ? "write" : "delete");
	sc_record_adds(&rec, "path", c->path);
	sc_record_adds(&rec, "source", "model");
	if (!ret)
		ret = sc_record_write(out, &rec);
	sc_record_release(&rec);
	return ret;
}

static int put_changes(struct diff *d, struct sc_output *out)
{
	struct sc_record rec;
	size_t i;
	int ret = 0;

	if (d->nch)
		qsort(d->ch, d->nch, sizeof(*d->ch), change_cmp);
	for (i = 0; !ret && i < d->nch; i++)
		ret = put_change(out, &d->ch[i], i);
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "end");
	sc_record_addu(&rec, "changes", d->nch);
	if (!ret)
		ret = sc_record_write(out, &rec);
	sc_record_release(&rec);
	if (ret) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		return SC_TREE_FAILED;
	}
	return 0;
}

static int deleted(struct diff *d)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < d->head.nr; i++)
		if (!d->head.v[i].seen)
			ret = add_change(d, d->head.v[i].path, "deleted", 0,
					 d->head.v[i].mode, NULL, NULL);
	return ret;
}

/* Open the repository and the root the same way for every command. */
enum sc_tree_status sc_tree_open(const char *dir, git_repository **repo,
				 int *rootfd)
{
	int st = sc_gitopen(repo, dir);

	if (st)
		return st == SC_GITOPEN_FAILED ? SC_TREE_FAILED :
		       SC_TREE_UNAVAILABLE;
	/* On failure *REPO is NULL again: callers release what they hold. */
	if (git_repository_is_bare(*repo)) {
		git_repository_free(*repo);
		*repo = NULL;
		sc_error("BARE-REPOSITORY", "the repository has no worktree");
		return SC_TREE_UNAVAILABLE;
	}
	*rootfd = open(git_repository_workdir(*repo),
		       O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*rootfd < 0) {
		git_repository_free(*repo);
		*repo = NULL;
		sc_error_errno("BAD-ROOT", "cannot open the worktree");
		return SC_TREE_UNAVAILABLE;
	}
	return SC_TREE_OK;
}

/* The exit status sc-tree(1) documents for ST. */
static int tree_exit(enum sc_tree_status st)
{
	switch (st) {
	case SC_TREE_OK:
		return SC_EXIT_OK;
	case SC_TREE_REFUSED:
	case SC_TREE_DENIED:
		return SC_EXIT_NO;
	case SC_TREE_MALFORMED:
		return SC_EXIT_MALFORMED;
	case SC_TREE_UNAVAILABLE:
		return SC_EXIT_UNAVAILABLE;
	case SC_TREE_FAILED:
	default:    /* no other answer is given: fail closed all the same */
		return SC_EXIT_INTERNAL;
	}
}

/* Walk the worktree against HEAD into D; *TREE is HEAD's tree (NULL on
 * an unborn branch).  Release with diff_release whatever it returns. */
static int diff_walk(const char *dir, const char *ignored_list, struct diff *d,
		     git_tree **tree, int *rootfd)
{
	int ret;

	memset(d, 0, sizeof(*d));
	sc_buf_init(&d->data);
	*tree = NULL;
	*rootfd = -1;
	ret = ignored_list ? load_start_ignored(d, ignored_list) : 0;
	if (!ret)
		ret = sc_tree_open(dir, &d->repo, rootfd);
	if (!ret)
		ret = head_tree(d->repo, tree);
	if (!ret && git_repository_odb(&d->odb, d->repo) < 0)
		ret = git_fail("cannot open the object database");
	if (!ret && *tree &&
	    git_tree_walk(*tree, GIT_TREEWALK_PRE, collect_cb, &d->head) < 0)
		ret = git_fail("cannot walk HEAD's tree");
	if (!ret && d->head.nr)
		qsort(d->head.v, d->head.nr, sizeof(*d->head.v), entry_cmp);
	if (!ret)
		ret = diff_dir(d, *rootfd, "", 0);
	if (!ret)
		ret = deleted(d);
	return ret;
}

static void diff_release(struct diff *d, git_tree *tree, int rootfd)
{
	size_t i;

	for (i = 0; i < d->nch; i++)
		free(d->ch[i].path);
	free(d->ch);
	entries_release(&d->head);
	sc_strlist_release(&d->start_ignored);
	sc_buf_release(&d->data);
	git_odb_free(d->odb);
	git_tree_free(tree);
	git_repository_free(d->repo);
	if (rootfd >= 0)
		close(rootfd);
}

int sc_tree_diff_run(const char *dir, const char *ignored_list,
		     struct sc_output *out)
{
	struct diff d;
	git_tree *tree;
	int rootfd, ret;

	ret = diff_walk(dir, ignored_list, &d, &tree, &rootfd);
	if (!ret)
		ret = put_changes(&d, out);
	diff_release(&d, tree, rootfd);
	return tree_exit(ret);
}

/* ---- the audit ----------------------------------------------------------- */

void sc_tree_audit_release(struct sc_tree_audit *j)
{
	size_t i;

	for (i = 0; i < j->nr; i++)
		sc_record_release(&j->changes[i]);
	for (i = 0; i < j->nv; i++)
		sc_record_release(&j->verdicts[i]);
	free(j->changes);
	free(j->verdicts);
}

static void keep_record(struct sc_record **v, size_t *nr, size_t *alloc,
			const struct sc_record *rec)
{
	struct sc_buf wire;
	struct sc_input in;
	struct sc_reader rd;

	/* A copy through the wire form: records own their bytes. */
	sc_buf_init(&wire);
	sc_record_encode(rec, &wire);
	SC_ALLOC_GROW(*v, *nr + 1, *alloc);
	sc_record_init(&(*v)[*nr]);
	sc_input_init_mem(&in, wire.data, wire.len);
	sc_reader_init(&rd, &in);
	sc_reader_next(&rd, &(*v)[*nr]);
	(*nr)++;
	sc_buf_release(&wire);
}

enum sc_tree_status sc_tree_audit_read(struct sc_tree_audit *j,
				       struct sc_input *in)
{
	struct sc_reader rd;
	struct sc_record rec;
	const char *type, *n;
	int st;

	memset(j, 0, sizeof(*j));
	sc_reader_init(&rd, in);
	sc_record_init(&rec);
	while ((st = sc_reader_next(&rd, &rec)) == SC_READ_RECORD) {
		type = sc_record_type(&rec);
		if (!type)
			continue;
		if (!strcmp(type, "change"))
			keep_record(&j->changes, &j->nr, &j->alloc, &rec);
		else if (!strcmp(type, "verdict"))
			keep_record(&j->verdicts, &j->nv, &j->av, &rec);
		else if (!strcmp(type, "end") &&
			 (n = sc_record_str(&rec, "changes")))
			j->ended = sc_parse_uint(n, SC_TREE_CHANGES_MAX,
						 &j->end_count) == 0;
	}
	sc_record_release(&rec);
	if (st != SC_READ_EOF) {
		sc_reader_report(&rd, st);
		return st == SC_READ_IO ? SC_TREE_FAILED : SC_TREE_MALFORMED;
	}
	if (!j->ended || j->end_count != j->nr) {
		sc_error("MALFORMED-AUDIT", "the audit does not hold the whole diff");
		return SC_TREE_MALFORMED;
	}
	return SC_TREE_OK;
}

static int load_audit(const char *path, struct sc_tree_audit *j)
{
	struct sc_input in;
	int fd, ret;

	memset(j, 0, sizeof(*j));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		sc_error_errno("FILE-UNREADABLE", "cannot open the audit");
		return SC_TREE_UNAVAILABLE;
	}
	sc_input_init_fd(&in, fd);
	ret = sc_tree_audit_read(j, &in);
	close(fd);
	return ret;
}

static const struct sc_record *verdict_of(const struct sc_tree_audit *j,
					  const char *id)
{
	size_t i;
	const char *vid;

	for (i = 0; i < j->nv; i++) {
		vid = sc_record_str(&j->verdicts[i], "id");
		if (vid && !strcmp(vid, id))
			return &j->verdicts[i];
	}
	return NULL;
}

/* The rule that refuses change C, or NULL when it may be committed. */
static const char *refusal(const struct sc_tree_audit *j, const struct sc_record *c,
			   struct sc_buf *rule)
{
	const char *id = sc_record_str(c, "id"), *refuse, *decision, *r;
	const struct sc_record *v;

	sc_buf_reset(rule);
	refuse = sc_record_str(c, "refuse");
	if (refuse) {
		sc_buf_addf(rule, "tree.%s", refuse);
		return rule->data;
	}
	v = id ? verdict_of(j, id) : NULL;
	if (!v) {
		sc_buf_adds(rule, "tree.no-verdict");
		return rule->data;
	}
	decision = sc_record_str(v, "decision");
	if (decision && !strcmp(decision, "allow"))
		return NULL;
	r = sc_record_str(v, "rule");
	sc_buf_adds(rule, r ? r : "tree.no-rule");
	return rule->data;
}

static int put_denied(struct sc_output *out, const struct sc_record *c,
		      const char *rule)
{
	struct sc_record rec;
	const char *path = sc_record_str(c, "path");
	const char *kind = sc_record_str(c, "change");
	int ret;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "denied");
	sc_record_adds(&rec, "code", "DIFF-DENIED");
	sc_record_adds(&rec, "path", path ? path : "");
	sc_record_adds(&rec, "change", kind ? kind : "");
	sc_record_adds(&rec, "rule", rule);
	ret = sc_record_write(out, &rec);
	sc_record_release(&rec);
	return ret;
}

enum sc_tree_status sc_tree_audit_judge(const struct sc_tree_audit *j,
					struct sc_output *out)
{
	struct sc_buf rule;
	const char *r, *path;
	size_t i, denied = 0;

	sc_buf_init(&rule);
	for (i = 0; i < j->nr; i++) {
		r = refusal(j, &j->changes[i], &rule);
		if (!r)
			continue;
		path = sc_record_str(&j->changes[i], "path");
		sc_error("DIFF-DENIED", "'%s' (%s)", path ? path : "", r);
		if (put_denied(out, &j->changes[i], r) < 0) {
			sc_buf_release(&rule);
			sc_error_errno("WRITE-FAILED", "cannot write output");
			return SC_TREE_FAILED;
		}
		denied++;
	}
	sc_buf_release(&rule);
	return denied ? SC_TREE_DENIED : SC_TREE_OK;
}

int sc_tree_judge_run(const char *audit, struct sc_output *out)
{
	struct sc_tree_audit j;
	int ret = load_audit(audit, &j);

	if (!ret)
		ret = sc_tree_audit_judge(&j, out);
	sc_tree_audit_release(&j);
	return tree_exit(ret);
}

/* ---- the tree a tick commits -------------------------------------------- */

static int parse_mode(const char *s, unsigned *mode)
{
	char *end;
	unsigned long v;

	if (!s)
		return -1;
	errno = 0;
	v = strtoul(s, &end, 8);
	if (errno || *end || end == s)
		return -1;
	*mode = (unsigned)v;
	return *mode == GIT_FILEMODE_BLOB ||
			       *mode == GIT_FILEMODE_BLOB_EXECUTABLE ||
			       *mode == GIT_FILEMODE_LINK
		       ? 0 : -1;
}

static int change_update(git_repository *repo, const struct sc_record *c,
			 git_tree_update *u)
{
	const char *kind = sc_record_str(c, "change");
	const char *oid = sc_record_str(c, "oid");
	unsigned mode;
	git_odb *odb = NULL;
	int exists;

	memset(u, 0, sizeof(*u));
	u->path = sc_record_str(c, "path");
	if (!u->path || !kind) {
		sc_error("MALFORMED-AUDIT", "a change without a path");
		return SC_TREE_MALFORMED;
	}
	if (!strcmp(kind, "deleted")) {
		u->action = GIT_TREE_UPDATE_REMOVE;
		return 0;
	}
	if (parse_mode(sc_record_str(c, "mode"), &mode) < 0 || !oid ||
	    git_oid_fromstr(&u->id, oid) < 0) {
		sc_error("MALFORMED-AUDIT", "a change without a mode or an oid");
		return SC_TREE_MALFORMED;
	}
	u->action = GIT_TREE_UPDATE_UPSERT;
	u->filemode = (git_filemode_t)mode;
	if (git_repository_odb(&odb, repo) < 0)
		return git_fail("cannot open the object database");
	exists = git_odb_exists(odb, &u->id);
	git_odb_free(odb);
	if (!exists) {
		sc_error("MALFORMED-AUDIT", "'%s': %s", u->path,
			 "the audited content is not stored");
		return SC_TREE_MALFORMED;
	}
	return 0;
}

/* Speccoder's own change to ALSO (the ticked task list): read beneath the
 * root, a regular file only. */
static int also_update(git_repository *repo, int rootfd, git_tree *tree,
		       const char *rel, git_tree_update *u)
{
	struct sc_buf data, why;
	git_tree_entry *te = NULL;
	int truncated = 0, ret = 0;

	sc_buf_init(&data);
	sc_buf_init(&why);
	memset(u, 0, sizeof(*u));
	if (sc_file_read(rootfd, rel, SC_TREE_FILE_MAX, &data, &truncated,
			 &why) < 0 || truncated) {
		ret = refuse_path("UNREADABLE",
				  truncated ? "too large" : why.data, rel);
		goto out;
	}
	u->action = GIT_TREE_UPDATE_UPSERT;
	u->path = rel;
	u->filemode = GIT_FILEMODE_BLOB;
	if (tree && !git_tree_entry_bypath(&te, tree, rel) &&
	    git_tree_entry_filemode(te) == GIT_FILEMODE_BLOB_EXECUTABLE)
		u->filemode = GIT_FILEMODE_BLOB_EXECUTABLE;
	git_tree_entry_free(te);
	if (git_blob_create_from_buffer(&u->id, repo, data.data, data.len) < 0)
		ret = git_fail("cannot store a file");
out:
	sc_buf_release(&data);
	sc_buf_release(&why);
	return ret;
}

/* The empty tree, for a branch without a commit. */
static int empty_tree(git_repository *repo, git_tree **tree)
{
	git_treebuilder *tb = NULL;
	git_oid oid;
	int ret = 0;

	if (git_treebuilder_new(&tb, repo, NULL) < 0 ||
	    git_treebuilder_write(&oid, tb) < 0 ||
	    git_tree_lookup(tree, repo, &oid) < 0)
		ret = git_fail("cannot make an empty tree");
	git_treebuilder_free(tb);
	return ret;
}

/*
 * HEAD's tree with U applied: the deletions first, then the rest, so a
 * file that became a directory (or the other way round) is never a
 * directory/file conflict for libgit2.
 */
static int apply_updates(git_repository *repo, git_tree *base,
			 git_tree_update *u, size_t n, git_oid *oid)
{
	git_tree_update *rm = sc_xcalloc(n + 1, sizeof(*rm));
	git_tree_update *up = sc_xcalloc(n + 1, sizeof(*up));
	git_tree *mid = NULL;
	git_oid mid_oid;
	size_t i, nrm = 0, nup = 0;
	int ret = 0;

	for (i = 0; i < n; i++) {
		if (u[i].action == GIT_TREE_UPDATE_REMOVE)
			rm[nrm++] = u[i];
		else
			up[nup++] = u[i];
	}
	if (git_tree_create_updated(&mid_oid, repo, base, nrm, rm) < 0 ||
	    git_tree_lookup(&mid, repo, &mid_oid) < 0 ||
	    git_tree_create_updated(oid, repo, mid, nup, up) < 0)
		ret = git_fail("cannot write the tree");
	git_tree_free(mid);
	free(rm);
	free(up);
	return ret;
}

static int write_tree(git_repository *repo, int rootfd, const struct sc_tree_audit *j,
		      const char *const *also, size_t nalso,
		      struct sc_output *out)
{
	git_tree *tree = NULL;
	git_tree_update *u;
	git_oid oid;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i, n = 0;
	int ret;

	ret = head_tree(repo, &tree);
	if (ret)
		return ret;
	u = sc_xcalloc(j->nr + nalso + 1, sizeof(*u));
	for (i = 0; !ret && i < j->nr; i++)
		ret = change_update(repo, &j->changes[i], &u[n++]);
	for (i = 0; !ret && i < nalso; i++)
		ret = also_update(repo, rootfd, tree, also[i], &u[n++]);
	if (!ret && !tree)
		ret = empty_tree(repo, &tree);
	if (!ret)
		ret = apply_updates(repo, tree, u, n, &oid);
	if (!ret) {
		git_oid_tostr(hex, sizeof(hex), &oid);
		sc_output_add(out, hex, strlen(hex));
		sc_output_add(out, "\n", 1);
	}
	free(u);
	git_tree_free(tree);
	return ret;
}

int sc_tree_write_tree_run(const char *dir, const char *audit,
			   const char *const *also, size_t nalso,
			   struct sc_output *out)
{
	struct sc_tree_audit j;
	git_repository *repo = NULL;
	int rootfd = -1, ret;

	ret = load_audit(audit, &j);
	if (!ret)
		ret = sc_tree_audit_judge(&j, out);
	if (!ret)
		ret = sc_tree_open(dir, &repo, &rootfd);
	if (!ret) {
		ret = write_tree(repo, rootfd, &j, also, nalso, out);
		git_repository_free(repo);
		close(rootfd);
	}
	sc_tree_audit_release(&j);
	return tree_exit(ret);
}

/* ---- the tree under test (the held-out copy) ----------------------------- */

static int link_cb(const char *root, const git_tree_entry *te, void *payload)
{
	struct sc_strlist *links = payload;
	git_filemode_t mode = git_tree_entry_filemode(te);
	struct sc_buf path;

	if (mode != GIT_FILEMODE_LINK && mode != GIT_FILEMODE_COMMIT)
		return 0;
	sc_buf_init(&path);
	sc_buf_adds(&path, root);
	sc_buf_adds(&path, git_tree_entry_name(te));
	sc_strlist_add(links, path.data);
	sc_buf_release(&path);
	return 0;
}

/* TREE without its symlinks and gitlinks, into *OID. */
static int strip_links(git_repository *repo, const git_oid *tree_oid,
		       git_oid *oid)
{
	struct sc_strlist links = { 0 };
	git_tree *tree = NULL;
	git_tree_update *u;
	size_t i;
	int ret = 0;

	if (git_tree_lookup(&tree, repo, tree_oid) < 0 ||
	    git_tree_walk(tree, GIT_TREEWALK_PRE, link_cb, &links) < 0) {
		git_tree_free(tree);
		sc_strlist_release(&links);
		return git_fail("cannot walk the tree under test");
	}
	u = sc_xcalloc(links.nr + 1, sizeof(*u));
	for (i = 0; i < links.nr; i++) {
		u[i].action = GIT_TREE_UPDATE_REMOVE;
		u[i].path = links.v[i];
	}
	if (git_tree_create_updated(oid, repo, tree, links.nr, u) < 0)
		ret = git_fail("cannot write the tree under test");
	free(u);
	git_tree_free(tree);
	sc_strlist_release(&links);
	return ret;
}

int sc_tree_snapshot_run(const char *dir, const char *ignored_list,
			 struct sc_output *out)
{
	struct diff d;
	git_tree *tree, *empty = NULL;
	git_tree_update *u = NULL;
	git_oid mid, oid;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i, n = 0;
	int rootfd, ret;

	ret = diff_walk(dir, ignored_list, &d, &tree, &rootfd);
	if (!ret) {
		u = sc_xcalloc(d.nch + 1, sizeof(*u));
		/* What the tick would refuse stays out; HEAD's version, if
		 * any, stays in. */
		for (i = 0; i < d.nch; i++) {
			if (d.ch[i].refuse)
				continue;
			u[n].path = d.ch[i].path;
			if (!d.ch[i].mode) {
				u[n].action = GIT_TREE_UPDATE_REMOVE;
			} else {
				u[n].action = GIT_TREE_UPDATE_UPSERT;
				u[n].filemode = (git_filemode_t)d.ch[i].mode;
				git_oid_cpy(&u[n].id, &d.ch[i].oid);
			}
			n++;
		}
		if (!tree)
			ret = empty_tree(d.repo, &empty);
	}
	if (!ret)
		ret = apply_updates(d.repo, tree ? tree : empty, u, n, &mid);
	if (!ret)
		ret = strip_links(d.repo, &mid, &oid);
	if (!ret) {
		git_oid_tostr(hex, sizeof(hex), &oid);
		sc_output_add(out, hex, strlen(hex));
		sc_output_add(out, "\n", 1);
	}
	free(u);
	git_tree_free(empty);
	diff_release(&d, tree, rootfd);
	return tree_exit(ret);
}

/* ---- restore ------------------------------------------------------------ */

struct restore {
	git_repository *repo;
	const struct sc_patterns *keep;
	struct sc_buf data;
};

static int remove_entry(int dfd, const char *name, const char *path,
			unsigned depth);

static int remove_children(int fd, const char *path, unsigned depth)
{
	struct sc_strlist n = { 0 };
	struct sc_buf sub;
	size_t i;
	int ret = 0;

	if (sc_dir_list(fd, SIZE_MAX, &n) < 0)
		return refuse_path("UNRESTORABLE", strerror(errno), path);
	sc_buf_init(&sub);
	for (i = 0; !ret && i < n.nr; i++) {
		join(&sub, path, n.v[i]);
		ret = remove_entry(fd, n.v[i], sub.data, depth + 1);
	}
	sc_buf_release(&sub);
	sc_strlist_release(&n);
	return ret;
}

/* Remove NAME (recursively), never following a symlink. */
static int remove_entry(int dfd, const char *name, const char *path,
			unsigned depth)
{
	struct stat st;
	int fd, ret;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0
				       : refuse_path("UNRESTORABLE",
						     strerror(errno), path);
	if (S_ISDIR(st.st_mode)) {
		if (depth >= SC_TREE_DEPTH_MAX)
			return refuse_path("TOO-DEEP",
					   "directories nest too deeply", path);
		/* A directory the model made unreadable is still ours:
		 * it was just seen as a directory, not a symlink. */
		if ((st.st_mode & 0700) != 0700)
			(void)fchmodat(dfd, name, 0700, 0);
		fd = open_at(dfd, name, O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			return refuse_path("UNRESTORABLE", strerror(errno),
					   path);
		ret = remove_children(fd, path, depth);
		close(fd);
		if (ret)
			return ret;
		if (unlinkat(dfd, name, AT_REMOVEDIR) < 0)
			return refuse_path("UNRESTORABLE", strerror(errno),
					   path);
		return 0;
	}
	if (unlinkat(dfd, name, 0) < 0)
		return refuse_path("UNRESTORABLE", strerror(errno), path);
	return 0;
}

/* 1 when the regular file NAME holds exactly BLOB with MODE's x bit. */
static int same_file(struct restore *r, int dfd, const char *name,
		     const struct stat *st, git_blob *blob, unsigned mode)
{
	int fd, x = (st->st_mode & 0111) != 0, ok;

	if (!S_ISREG(st->st_mode) || (st->st_mode & (S_ISUID | S_ISGID)) ||
	    x != (mode == GIT_FILEMODE_BLOB_EXECUTABLE) ||
	    (git_object_size_t)st->st_size != git_blob_rawsize(blob))
		return 0;
	fd = open_at(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return 0;
	sc_buf_reset(&r->data);
	ok = sc_read_fd_max(fd, (size_t)git_blob_rawsize(blob), 0,
			    &r->data) == 0 &&
	     r->data.len == git_blob_rawsize(blob) &&
	     !memcmp(r->data.data, git_blob_rawcontent(blob), r->data.len);
	close(fd);
	return ok;
}

static int write_file(int dfd, const char *name, const char *path,
		      git_blob *blob, unsigned mode)
{
	mode_t perm = mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0755 : 0644;
	int fd = openat(dfd, name,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			perm);

	if (fd < 0)
		return refuse_path("UNRESTORABLE", strerror(errno), path);
	if (sc_write_all(fd, git_blob_rawcontent(blob),
			 (size_t)git_blob_rawsize(blob)) < 0 ||
	    fchmod(fd, perm) < 0) {
		int e = errno;
		close(fd);
		return refuse_path("UNRESTORABLE", strerror(e), path);
	}
	if (close(fd) < 0)
		return refuse_path("UNRESTORABLE", strerror(errno), path);
	return 0;
}

static int restore_blob(struct restore *r, int dfd, const git_tree_entry *te,
			const char *path, int exists, const struct stat *st)
{
	git_blob *blob = NULL;
	unsigned mode = (unsigned)git_tree_entry_filemode(te);
	const char *name = git_tree_entry_name(te);
	char target[4096];
	ssize_t n;
	int ret = 0;

	if (git_blob_lookup(&blob, r->repo, git_tree_entry_id(te)) < 0)
		return git_fail("cannot read a tracked file");
	if (mode == GIT_FILEMODE_LINK) {
		size_t len = (size_t)git_blob_rawsize(blob);

		if (exists && S_ISLNK(st->st_mode) &&
		    (n = readlinkat(dfd, name, target, sizeof(target))) >= 0 &&
		    (size_t)n == len &&
		    !memcmp(target, git_blob_rawcontent(blob), len))
			goto out;
		if (exists)
			ret = remove_entry(dfd, name, path, 0);
		if (!ret && (len >= sizeof(target) || memchr(git_blob_rawcontent(blob), 0, len))) {
			ret = refuse_path("UNRESTORABLE",
					  "a symlink git cannot write", path);
		} else if (!ret) {
			memcpy(target, git_blob_rawcontent(blob), len);
			target[len] = '\0';
			if (symlinkat(target, dfd, name) < 0)
				ret = refuse_path("UNRESTORABLE",
						  strerror(errno), path);
		}
		goto out;
	}
	if (exists && same_file(r, dfd, name, st, blob, mode))
		goto out;
	if (exists)
		ret = remove_entry(dfd, name, path, 0);
	if (!ret)
		ret = write_file(dfd, name, path, blob, mode);
out:
	git_blob_free(blob);
	return ret;
}

static int restore_dir(struct restore *r, int fd, const char *rel,
		       git_tree *tree, unsigned depth);

static int restore_subdir(struct restore *r, int dfd, const git_tree_entry *te,
			  const char *path, int exists, const struct stat *st,
			  unsigned depth)
{
	const char *name = git_tree_entry_name(te);
	git_tree *sub = NULL;
	int fd, ret = 0;

	if (exists && !S_ISDIR(st->st_mode))
		ret = remove_entry(dfd, name, path, 0);
	if (!ret && (!exists || !S_ISDIR(st->st_mode)) &&
	    mkdirat(dfd, name, 0755) < 0)
		ret = refuse_path("UNRESTORABLE", strerror(errno), path);
	if (ret || git_tree_entry_type(te) == GIT_OBJECT_COMMIT)
		return ret;
	if (depth >= SC_TREE_DEPTH_MAX)
		return refuse_path("TOO-DEEP", "directories nest too deeply",
				   path);
	if (exists && S_ISDIR(st->st_mode) && (st->st_mode & 0700) != 0700)
		(void)fchmodat(dfd, name, 0755, 0);
	fd = open_at(dfd, name, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return refuse_path("UNRESTORABLE", strerror(errno), path);
	if (git_tree_lookup(&sub, r->repo, git_tree_entry_id(te)) < 0)
		ret = git_fail("cannot read a tracked directory");
	else
		ret = restore_dir(r, fd, path, sub, depth + 1);
	git_tree_free(sub);
	close(fd);
	return ret;
}

/* An untracked entry: removed, unless the keep list names it and it is a
 * regular file or a directory. */
static int restore_untracked(struct restore *r, int fd, const char *name,
			     const char *path)
{
	struct stat st;

	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return refuse_path("UNRESTORABLE", strerror(errno), path);
	if ((S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) && r->keep &&
	    sc_patterns_match(r->keep, path, S_ISDIR(st.st_mode)))
		return 0;
	return remove_entry(fd, name, path, 0);
}

static int restore_dir(struct restore *r, int fd, const char *rel,
		       git_tree *tree, unsigned depth)
{
	struct sc_strlist n = { 0 };
	struct sc_buf path;
	struct stat st;
	size_t i, count = git_tree_entrycount(tree);
	int ret = 0, exists;

	if (sc_dir_list(fd, SIZE_MAX, &n) < 0)
		return refuse_path("UNRESTORABLE", strerror(errno),
				   *rel ? rel : ".");
	sc_buf_init(&path);
	for (i = 0; !ret && i < n.nr; i++) {
		if (!*rel && !strcmp(n.v[i], ".git"))
			continue;
		if (git_tree_entry_byname(tree, n.v[i]))
			continue;
		join(&path, rel, n.v[i]);
		ret = restore_untracked(r, fd, n.v[i], path.data);
	}
	for (i = 0; !ret && i < count; i++) {
		const git_tree_entry *te = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(te);

		join(&path, rel, name);
		exists = fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
		if (!exists && errno != ENOENT) {
			ret = refuse_path("UNRESTORABLE", strerror(errno),
					  path.data);
			break;
		}
		if (git_tree_entry_type(te) == GIT_OBJECT_BLOB)
			ret = restore_blob(r, fd, te, path.data, exists, &st);
		else
			ret = restore_subdir(r, fd, te, path.data, exists, &st,
					     depth);
	}
	sc_buf_release(&path);
	sc_strlist_release(&n);
	return ret;
}

/* The index as HEAD's tree: what git status compares with. */
static int reset_index(git_repository *repo, git_tree *tree)
{
	git_index *index = NULL;
	int ret = 0;

	if (git_repository_index(&index, repo) < 0 ||
	    (tree ? git_index_read_tree(index, tree) : git_index_clear(index)) < 0 ||
	    git_index_write(index) < 0)
		ret = git_fail("cannot reset the index");
	git_index_free(index);
	return ret;
}

int sc_tree_restore_run(const char *dir, const struct sc_patterns *keep)
{
	struct restore r;
	git_tree *tree = NULL;
	int rootfd = -1, ret;

	memset(&r, 0, sizeof(r));
	r.keep = keep;
	sc_buf_init(&r.data);
	ret = sc_tree_open(dir, &r.repo, &rootfd);
	if (ret)
		return tree_exit(ret);
	ret = head_tree(r.repo, &tree);
	if (!ret && !tree) {
		sc_error("NO-HEAD", "the branch has no commit to restore");
		ret = SC_TREE_REFUSED;
	}
	if (!ret)
		ret = restore_dir(&r, rootfd, "", tree, 0);
	if (!ret)
		ret = reset_index(r.repo, tree);
	git_tree_free(tree);
	sc_buf_release(&r.data);
	git_repository_free(r.repo);
	close(rootfd);
	return tree_exit(ret);
}

/* ---- cat ----------------------------------------------------------------- */

int sc_tree_cat_run(const char *dir, const char *rel, int outfd)
{
	struct sc_buf data, why;
	int rootfd, truncated = 0, ret = 0;

	rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		sc_error_errno("BAD-ROOT", "cannot open the root");
		return tree_exit(SC_TREE_UNAVAILABLE);
	}
	sc_buf_init(&data);
	sc_buf_init(&why);
	if (sc_file_read(rootfd, rel, SC_TREE_FILE_MAX, &data, &truncated,
			 &why) < 0)
		ret = refuse_path("UNREADABLE", why.data, rel);
	else if (truncated)
		ret = refuse_path("FILE-TOO-LARGE", "larger than 64 MiB", rel);
	else if (sc_write_all(outfd, data.data, data.len) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = SC_TREE_FAILED;
	}
	sc_buf_release(&data);
	sc_buf_release(&why);
	close(rootfd);
	return tree_exit(ret);
}
