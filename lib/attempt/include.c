#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "filetool.h"
#include "gitopen.h"
#include "include.h"
#include "paths.h"
#include "pattern.h"
#include "record.h"
#include "secrets.h"
#include "tree.h"

/* The committed list of patterns, at the root of HEAD's tree. */
#define LIST_NAME ".worktreeinclude"
/* The most bytes the candidates list may hold (as sc-tree --ignored). */
#define CANDIDATES_MAX ((size_t)64 << 20)

/* What the steps below return; include_exit maps it. */
enum include_status {
	INCLUDE_OK = 0,
	INCLUDE_FAILED = -1,       /* libgit2, a write, our output */
	INCLUDE_UNAVAILABLE = -2,  /* a directory or the candidates unreadable */
};

struct include {
	const struct sc_include_opts *o;
	struct sc_output *out;
	git_repository *repo;
	git_tree *head;
	int rootfd, fromfd;
	struct sc_patterns pats;
	int refused, skipped;
	size_t copied;
	struct sc_secrets secrets;
};

static int put(struct sc_output *out, const char *type, const char *k1,
	       const char *v1, const char *k2, const char *v2, const char *k3,
	       const char *v3)
{
	struct sc_record rec;
	int ret;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", type);
	if (k1)
		sc_record_adds(&rec, k1, v1);
	if (k2)
		sc_record_adds(&rec, k2, v2);
	if (k3)
		sc_record_adds(&rec, k3, v3);
	ret = sc_record_write(out, &rec);
	sc_record_release(&rec);
	return ret;
}

/* A refusal of the whole list: said, recorded, nothing will be copied. */
static void refuse(struct include *in, const char *code, const char *source,
		   const char *what, const char *key, const char *text)
{
	sc_error(code, "%s: '%s': %s", source, text, what);
	put(in->out, "refused", "code", code, "source", source, key, text);
	in->refused = 1;
}

/* A file left out; the others are still copied. */
static void skip(struct include *in, const char *code, const char *path,
		 const char *what)
{
	sc_error(code, "'%s': %s: not included", path, what);
	put(in->out, "skipped", "code", code, "path", path, NULL, NULL);
	in->skipped = 1;
}

/* ---- the patterns ------------------------------------------------------ */

/* 1 when the glob reaches outside the root: a ".." component, or "~". */
static int escapes(const char *text)
{
	const char *p = text;

	if (*p == '~')
		return 1;
	while (*p) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return 1;
		p += n;
		if (*p == '/')
			p++;
	}
	return 0;
}

/* Parse TEXT from SOURCE into the list; refuse a bad or escaping line. */
static void add_patterns(struct include *in, const char *source,
			 const char *text, size_t len)
{
	struct sc_patterns one;
	struct sc_pattern_error err;
	char line[32];
	size_t i;

	sc_patterns_init(&one);
	if (sc_patterns_parse(&one, text, len, &err) < 0) {
		snprintf(line, sizeof(line), "%u", err.line);
		refuse(in, "BAD-INCLUDE-PATTERN", source, err.what, "line",
		       line);
	}
	for (i = 0; i < one.nr; i++) {
		if (escapes(one.v[i].text)) {
			refuse(in, "INCLUDE-ESCAPES", source,
			       "the pattern reaches outside the checkout",
			       "pattern", one.v[i].text);
			continue;
		}
		SC_ALLOC_GROW(in->pats.v, in->pats.nr + 1, in->pats.alloc);
		in->pats.v[in->pats.nr++] = one.v[i];
		one.v[i].text = NULL;
	}
	sc_patterns_release(&one);
}

/* HEAD's .worktreeinclude, when it has one: a regular blob, 1 MiB at most. */
static int committed_patterns(struct include *in)
{
	const git_tree_entry *te;
	git_blob *blob = NULL;
	git_filemode_t mode;

	if (!in->head || !(te = git_tree_entry_byname(in->head, LIST_NAME)))
		return 0;
	mode = git_tree_entry_filemode(te);
	if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE) {
		refuse(in, "BAD-INCLUDE-LIST", "commit",
		       "not a regular file in the commit", "path", LIST_NAME);
		return 0;
	}
	if (git_blob_lookup(&blob, in->repo, git_tree_entry_id(te)) < 0) {
		sc_error("GIT-FAILED", "cannot read %s: %s", LIST_NAME,
			 sc_git_errmsg());
		return INCLUDE_FAILED;
	}
	if (git_blob_rawsize(blob) > SC_INCLUDE_FILE_MAX)
		refuse(in, "BAD-INCLUDE-LIST", "commit",
		       "larger than 1 MiB in the commit", "path", LIST_NAME);
	else
		add_patterns(in, LIST_NAME, git_blob_rawcontent(blob),
			     (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

/* A tracked path a pattern selects: a committed file, never a private one. */
static int tracked_cb(const char *root, const git_tree_entry *te, void *payload)
{
	struct include *in = payload;
	struct sc_buf path = SC_BUF_INIT;

	if (git_tree_entry_type(te) == GIT_OBJECT_TREE)
		return 0;
	sc_buf_adds(&path, root);
	sc_buf_adds(&path, git_tree_entry_name(te));
	if (sc_patterns_match(&in->pats, path.data, 0))
		refuse(in, "INCLUDE-TRACKED", "patterns",
		       "a tracked file is committed, not included", "path",
		       path.data);
	sc_buf_release(&path);
	/* The first one is enough to refuse; stop the walk there. */
	return in->refused ? 1 : 0;
}

/* ---- the files ------------------------------------------------------- */

/*
 * 1 when REL is a plain root-relative path (sc_path_plain), or one with a
 * slash after it: git lists an untracked repository as "DIR/".
 */
static int plain_path(const char *rel)
{
	size_t len = strlen(rel);

	if (len && rel[len - 1] == '/')
		len--;
	return sc_path_plain(rel, len);
}

/*
 * A secret-named variable too short to mask (a test password "test") is
 * said once, here, and left out of the records: every masker of the run
 * would say it again on every output it masks.
 */
static void warn_weak(struct include *in, size_t from, const char *rel)
{
	size_t i;

	for (i = from; i < in->secrets.nr; i++) {
		const struct sc_secret *sec = &in->secrets.v[i];

		if (sc_secrets_value_too_weak(sec->value.data ? sec->value.data : "",
					      sec->value.len))
			sc_warning("SHORT-SECRET", "'%s' of '%s' is shorter than "
				   "8 bytes or only digits and dots: not masked",
				   sec->name, rel);
	}
}

static int copy_one(struct include *in, const char *rel)
{
	struct sc_buf data = SC_BUF_INIT, why = SC_BUF_INIT;
	struct sc_record rec;
	struct stat st;
	char mode[8], size[32];
	int fd, perm, kind, ret = 0;
	size_t before;

	fd = sc_open_beneath(in->fromfd, rel, O_RDONLY | O_NOFOLLOW | O_NONBLOCK, 0);
	if (fd < 0) {
		if (errno == ELOOP || errno == EXDEV)
			skip(in, "INCLUDE-SYMLINK", rel,
			     "a symlink (or a mount) on the way, never followed");
		else
			skip(in, "INCLUDE-UNREADABLE", rel, strerror(errno));
		return 0;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		skip(in, "INCLUDE-NOT-FILE", rel, "not a regular file");
		return 0;
	}
	if (sc_read_fd_max(fd, SC_INCLUDE_FILE_MAX, 0, &data) < 0) {
		close(fd);
		sc_buf_wipe(&data);
		skip(in, "INCLUDE-TOO-LARGE", rel,
		     "larger than 1 MiB, or unreadable");
		return 0;
	}
	close(fd);
	/* The owner's bits, never less than read and write. */
	perm = (int)((st.st_mode & 0700) | 0600);
	if (!in->o->dry_run &&
	    sc_file_write_mode(in->rootfd, rel, data.data ? data.data : "",
			       data.len, perm, &why) < 0) {
		skip(in, "INCLUDE-UNWRITABLE", rel, why.data);
		goto out;
	}
	before = in->secrets.nr;
	kind = sc_secrets_from_included(&in->secrets, rel,
					data.data ? data.data : "", data.len);
	warn_weak(in, before, rel);
	snprintf(mode, sizeof(mode), "%04o", (unsigned)perm);
	snprintf(size, sizeof(size), "%zu", data.len);
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "included");
	sc_record_adds(&rec, "path", rel);
	sc_record_adds(&rec, "mode", mode);
	sc_record_adds(&rec, "size", size);
	sc_record_adds(&rec, "kind", kind == SC_INCLUDED_DOTENV ? "dotenv" : "key");
	ret = sc_record_write(in->out, &rec);
	sc_record_release(&rec);
	in->copied++;
out:
	sc_buf_wipe(&data);
	sc_buf_release(&why);
	return ret;
}

/*
 * Every candidate the patterns select, copied (or skipped, said why).  The
 * selection is counted whole first: a list refused for its size copies
 * nothing.
 */
static int copy_selected(struct include *in)
{
	struct sc_buf list = SC_BUF_INIT;
	const char **sel = NULL;
	size_t i, start = 0, n = 0, alloc = 0;
	int ret = 0;

	if (sc_read_file_max(in->o->candidates, CANDIDATES_MAX, &list) < 0) {
		sc_error_errno("FILE-UNREADABLE", "cannot read the candidates "
			       "(64 MiB at most)");
		sc_buf_release(&list);
		return INCLUDE_UNAVAILABLE;
	}
	for (i = 0; i <= list.len; i++) {
		const char *rel;

		if (i < list.len && list.data[i])
			continue;
		rel = list.data ? list.data + start : "";
		if (i > start && plain_path(rel) &&
		    sc_patterns_match(&in->pats, rel, 0)) {
			SC_ALLOC_GROW(sel, n + 1, alloc);
			sel[n++] = rel;
		}
		start = i + 1;
	}
	if (n > SC_INCLUDE_FILES_MAX)
		refuse(in, "INCLUDE-TOO-MANY", "patterns",
		       "more than 1000 files selected, the first", "path",
		       sel[0]);
	for (i = 0; !ret && !in->refused && i < n; i++)
		ret = copy_one(in, sel[i]);
	free(sel);
	sc_buf_release(&list);
	return ret;
}

/* The secrets records, 0600, replacing the file whole (a masker starting
 * meanwhile reads the old list or the new one, never half of one). */
static int write_secrets(struct include *in)
{
	struct sc_buf enc = SC_BUF_INIT;
	struct sc_record rec;
	enum sc_replace_step step;
	size_t i;
	int ret = 0;

	sc_record_init(&rec);
	for (i = 0; i < in->secrets.nr; i++) {
		if (sc_secrets_value_too_weak(in->secrets.v[i].value.data ?
					      in->secrets.v[i].value.data : "",
					      in->secrets.v[i].value.len))
			continue;
		sc_record_reset(&rec);
		sc_record_adds(&rec, "type", "secret");
		sc_record_adds(&rec, "name", in->secrets.v[i].name);
		sc_record_add(&rec, "value", in->secrets.v[i].value.data ?
			      in->secrets.v[i].value.data : "",
			      in->secrets.v[i].value.len);
		sc_record_encode(&rec, &enc);
	}
	sc_buf_wipe(&rec.store);
	sc_record_release(&rec);
	if (sc_replace_file(in->o->secrets, enc.data ? enc.data : "", enc.len,
			    0600, &step) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write the secrets file");
		ret = INCLUDE_FAILED;
	}
	sc_buf_wipe(&enc);
	return ret;
}

static int open_all(struct include *in)
{
	git_object *obj = NULL;
	enum sc_tree_status st;
	int err;

	st = sc_tree_open(in->o->dir, &in->repo, &in->rootfd);
	if (st)
		return st == SC_TREE_FAILED ? INCLUDE_FAILED : INCLUDE_UNAVAILABLE;
	err = git_revparse_single(&obj, in->repo, "HEAD^{tree}");
	if (err < 0 && err != GIT_ENOTFOUND && err != GIT_EUNBORNBRANCH) {
		sc_error("GIT-FAILED", "cannot read HEAD's tree: %s",
			 sc_git_errmsg());
		return INCLUDE_FAILED;
	}
	in->head = (git_tree *)obj;
	if (in->o->to) {
		/* Another target, the driver's own directory: the worktree's
		 * descriptor is not needed any more. */
		close(in->rootfd);
		in->rootfd = open(in->o->to, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				  O_CLOEXEC);
		if (in->rootfd < 0) {
			sc_error_errno("BAD-ROOT", "cannot open the target directory");
			return INCLUDE_UNAVAILABLE;
		}
	}
	in->fromfd = open(in->o->from, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (in->fromfd < 0) {
		sc_error_errno("BAD-ROOT", "cannot open the checkout");
		return INCLUDE_UNAVAILABLE;
	}
	return INCLUDE_OK;
}

/* The exit status of sc-tree include (sc-tree(1)). */
static int include_exit(const struct include *in, int st)
{
	if (st == INCLUDE_UNAVAILABLE)
		return SC_EXIT_UNAVAILABLE;
	if (st)
		return SC_EXIT_INTERNAL;
	return in->refused || in->skipped ? SC_EXIT_NO : SC_EXIT_OK;
}

int sc_tree_include_run(const struct sc_include_opts *o, struct sc_output *out)
{
	struct include in;
	char num[32];
	int ret;

	memset(&in, 0, sizeof(in));
	in.o = o;
	in.out = out;
	in.rootfd = in.fromfd = -1;
	sc_patterns_init(&in.pats);
	sc_secrets_init(&in.secrets);
	ret = open_all(&in);
	if (!ret && o->patterns_len)
		add_patterns(&in, "worktree.include", o->patterns,
			     o->patterns_len);
	if (!ret)
		ret = committed_patterns(&in);
	if (!ret && !in.refused && in.head && in.pats.nr &&
	    git_tree_walk(in.head, GIT_TREEWALK_PRE, tracked_cb, &in) < 0 &&
	    !in.refused) {
		sc_error("GIT-FAILED", "cannot walk HEAD's tree: %s",
			 sc_git_errmsg());
		ret = INCLUDE_FAILED;
	}
	if (!ret && !in.refused && in.pats.nr)
		ret = copy_selected(&in);
	if (!ret && !in.refused && o->secrets)
		ret = write_secrets(&in);
	if (!ret) {
		snprintf(num, sizeof(num), "%zu", in.refused ? 0 : in.copied);
		put(out, "end", "included", num, NULL, NULL, NULL, NULL);
	}
	ret = include_exit(&in, ret);
	sc_secrets_release(&in.secrets);
	sc_patterns_release(&in.pats);
	git_tree_free(in.head);
	git_repository_free(in.repo);
	if (in.rootfd >= 0)
		close(in.rootfd);
	if (in.fromfd >= 0)
		close(in.fromfd);
	return ret;
}
