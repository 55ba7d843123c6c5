#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "encode.h"
#include "io.h"
#include "record.h"
#include "rectable.h"
#include "tasks.h"

int sc_tasks_feature_valid(const char *name)
{
	size_t i, len = strlen(name);

	/* NAME_MAX: the name becomes a directory and a branch component. */
	if (!len || len > 255 || name[0] == '.' || name[0] == '-')
		return 0;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

/* ---- the parser ---- */

void sc_tasklist_init(struct sc_tasklist *l)
{
	l->v = NULL;
	l->nr = l->alloc = 0;
}

void sc_tasklist_release(struct sc_tasklist *l)
{
	free(l->v);
	sc_tasklist_init(l);
}

/*
 * Why the line P (N bytes, without its newline) is not text, or NULL.
 * Control characters could move a person's cursor when a task is shown,
 * and bidirectional controls make a line read differently from what the
 * model is given ("Trojan Source"); a task list needs neither.
 */
static const char *line_fault(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned cp = p[i];
		size_t k = 1;

		if (cp >= 0x80 && !(k = sc_utf8_decode(p + i, n - i, &cp)))
			return "not UTF-8";
		if (cp == 0)
			return "a NUL byte";
		if ((cp < 0x20 && cp != '\t' && !(cp == '\r' && i + 1 == n)) ||
		    (cp >= 0x7f && cp <= 0x9f))
			return "a control character";
		if ((cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069))
			return "a bidirectional control character";
		i += k;
	}
	return NULL;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The length of the (valid) character at P, N > 0 bytes available. */
static size_t char_len(const char *p, size_t n)
{
	unsigned cp;
	size_t k = 1;

	if ((unsigned char)*p >= 0x80)
		k = sc_utf8_decode((const unsigned char *)p, n, &cp);
	return k ? k : 1;
}

/*
 * Recognise an item on the line at P (N bytes): 1 with T's offsets
 * relative to P, 0 for prose, -1 for a box that is neither open nor done
 * (*WHY set).  "- [link](url)" and "- [x]y" are prose: a box is followed
 * by white space or the line's end.
 */
static int parse_item(const char *p, size_t n, struct sc_task *t,
		      const char **why)
{
	size_t i = 0, k, after, s, e;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (n - i < 4 || (p[i] != '-' && p[i] != '*') || p[i + 1] != ' ' ||
	    p[i + 2] != '[')
		return 0;
	i += 3;
	k = p[i] == ']' ? 0 : char_len(p + i, n - i);
	if (i + k >= n || p[i + k] != ']')
		return 0;
	after = i + k + 1;
	if (after < n && !is_blank(p[after]))
		return 0;
	if (k != 1 || (p[i] != ' ' && p[i] != 'x' && p[i] != 'X')) {
		*why = k ? "a checkbox that is neither [ ] nor [x]" :
			   "an empty checkbox []";
		return -1;
	}
	for (s = after; s < n && is_blank(p[s]); s++)
		;
	for (e = n; e > s && is_blank(p[e - 1]); e--)
		;
	if (e == s) {
		*why = "an item without text";
		return -1;
	}
	t->done = p[i] != ' ';
	t->mark = i;
	t->text = s;
	t->text_len = e - s;
	return 1;
}

static int malformed(const char *file, size_t line, const char *why)
{
	sc_error("MALFORMED-TASKS", "%s:%zu: %s", file, line, why);
	return SC_TASKS_MALFORMED;
}

int sc_tasks_parse(const char *data, size_t len, const char *file,
		   struct sc_tasklist *out)
{
	size_t pos = 0, line = 0;

	out->nr = 0;
	if (len > SC_TASKS_MAX_FILE)
		return malformed(file, 1, "larger than 4 MiB");
	/* A byte order mark is text editors' business, not the first item's. */
	if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) : len;
		const char *why = NULL;
		struct sc_task t;
		int r;

		line++;
		if (end - pos > SC_TASKS_MAX_LINE)
			return malformed(file, line, "a line longer than 64 KiB");
		why = line_fault((const unsigned char *)data + pos, end - pos);
		if (why)
			return malformed(file, line, why);
		r = parse_item(data + pos, end - pos, &t, &why);
		if (r < 0)
			return malformed(file, line, why);
		if (r > 0) {
			SC_ALLOC_GROW(out->v, out->nr + 1, out->alloc);
			t.n = out->nr + 1;
			t.line = line;
			t.mark += pos;
			t.text += pos;
			out->v[out->nr++] = t;
		}
		pos = nl ? end + 1 : len;
	}
	return SC_TASKS_OK;
}

/* ---- walking without following symlinks ---- */

/* The status for an openat/fstatat failure on SHOWN. */
static int open_failed(const char *shown, const char *what)
{
	if (errno == ENOENT)
		return SC_TASKS_NONE;
	if (errno == ELOOP || errno == ENOTDIR) {
		sc_error("UNSAFE-PATH", "'%s' is a symlink or not a %s: "
			 "refused, never followed", shown, what);
		return SC_TASKS_UNSAFE;
	}
	sc_error_errno("READ-FAILED", "cannot open '%s'", shown);
	return SC_TASKS_IO;
}

/*
 * Open the directory REL below the directory AT, one component at a time,
 * following no symlink; ".." is refused, so the walk stays below AT.
 * SHOWN is what diagnostics call REL's start (may be empty).
 */
static int walk_dirs(int at, const char *rel, int *out)
{
	struct sc_buf shown = SC_BUF_INIT;
	const char *p = rel;
	int cur, ret = SC_TASKS_OK;

	cur = openat(at, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0)
		return open_failed(".", "directory");
	while (*p && ret == SC_TASKS_OK) {
		size_t len = strcspn(p, "/");
		char *name = sc_xmemdup(p, len);
		int next;

		if (len && strcmp(name, ".")) {
			if (shown.len)
				sc_buf_addch(&shown, '/');
			sc_buf_adds(&shown, name);
		}
		if (!strcmp(name, "..")) {
			sc_error("BAD-PATH", "'%s': '..' is refused below -C",
				 shown.data);
			ret = SC_TASKS_BAD_NAME;
		} else if (len && strcmp(name, ".")) {
			next = openat(cur, name, O_RDONLY | O_DIRECTORY |
				      O_NOFOLLOW | O_CLOEXEC);
			if (next < 0) {
				ret = open_failed(shown.data, "directory");
			} else {
				close(cur);
				cur = next;
			}
		}
		free(name);
		p += len + (p[len] == '/');
	}
	sc_buf_release(&shown);
	if (ret != SC_TASKS_OK) {
		close(cur);
		return ret;
	}
	*out = cur;
	return SC_TASKS_OK;
}

/* Whether NAME in AT is a regular file, not following a symlink. */
static int check_regular(int at, const char *name, const char *shown,
			 struct stat *st)
{
	if (fstatat(at, name, st, AT_SYMLINK_NOFOLLOW) < 0)
		return open_failed(shown, "regular file");
	if (!S_ISREG(st->st_mode)) {
		sc_error("UNSAFE-PATH", "'%s' is a symlink or not a regular "
			 "file: refused, never followed", shown);
		return SC_TASKS_UNSAFE;
	}
	return SC_TASKS_OK;
}

/* ---- find ---- */

struct layout {
	const char *name, *parent, *spec, *plan;
};

static const struct layout layouts[] = {
	{ "spec-kit", "specs", "spec.md", "plan.md" },
	{ "openspec", "openspec/changes", "proposal.md", "design.md" },
};

void sc_feature_release(struct sc_feature *f)
{
	free(f->dir);
	free(f->tasks);
	free(f->spec);
	free(f->plan);
	memset(f, 0, sizeof(*f));
}

/* "A/B" in a new string. */
static char *join(const char *a, const char *b)
{
	struct sc_buf buf = SC_BUF_INIT;

	sc_buf_addf(&buf, "%s/%s", a, b);
	return sc_buf_detach(&buf, NULL);
}

/* *OUT is DIR/NAME when NAME is a regular file, NULL when it is absent. */
static int optional_file(int dfd, const char *dir, const char *name,
			 char **out)
{
	char *path = join(dir, name);
	struct stat st;
	int ret = check_regular(dfd, name, path, &st);

	if (ret == SC_TASKS_OK) {
		*out = path;
		return ret;
	}
	free(path);
	return ret == SC_TASKS_NONE ? SC_TASKS_OK : ret;
}

/* Fill OUT from layout L when it holds FEATURE's tasks file. */
static int probe(int root, const struct layout *l, const char *feature,
		 struct sc_feature *out)
{
	struct stat st;
	int dfd, ret;

	memset(out, 0, sizeof(*out));
	out->layout = l->name;
	out->dir = join(l->parent, feature);
	out->tasks = join(out->dir, "tasks.md");
	ret = walk_dirs(root, out->dir, &dfd);
	if (ret)
		return ret;
	ret = check_regular(dfd, "tasks.md", out->tasks, &st);
	if (!ret)
		ret = optional_file(dfd, out->dir, l->spec, &out->spec);
	if (!ret)
		ret = optional_file(dfd, out->dir, l->plan, &out->plan);
	close(dfd);
	return ret;
}

int sc_tasks_find(const char *dir, const char *feature,
		  struct sc_feature *out)
{
	struct sc_feature found[2];
	int root, ret[2], i, pick = -1, status = SC_TASKS_OK;

	if (!sc_tasks_feature_valid(feature)) {
		sc_error("BAD-FEATURE", "'%s' is not a feature name: "
			 "[A-Za-z0-9._-]+, not starting with '.' or '-'", feature);
		return SC_TASKS_BAD_NAME;
	}
	root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		sc_error_errno("READ-FAILED", "cannot open '%s'", dir);
		return SC_TASKS_IO;
	}
	/* Both layouts are looked at, so a feature in both is never guessed. */
	for (i = 0; i < 2; i++) {
		ret[i] = probe(root, &layouts[i], feature, &found[i]);
		if (ret[i] == SC_TASKS_OK)
			pick = pick < 0 ? i : 2;
		else if (ret[i] != SC_TASKS_NONE && status == SC_TASKS_OK)
			status = ret[i];
	}
	close(root);
	if (status == SC_TASKS_OK && pick == 2) {
		sc_error("AMBIGUOUS-FEATURE", "'%s' has a tasks file in both "
			 "%s and %s", feature, found[0].tasks, found[1].tasks);
		status = SC_TASKS_AMBIGUOUS;
	} else if (status == SC_TASKS_OK && pick < 0) {
		sc_error("NO-TASKS", "no tasks file for '%s': neither %s nor %s",
			 feature, found[0].tasks, found[1].tasks);
		status = SC_TASKS_NONE;
	}
	for (i = 0; i < 2; i++) {
		if (status == SC_TASKS_OK && i == pick)
			*out = found[i];
		else
			sc_feature_release(&found[i]);
	}
	return status;
}

/* ---- reading and ticking a file ---- */

void sc_taskfile_init(struct sc_taskfile *tf)
{
	sc_buf_init(&tf->data);
	sc_tasklist_init(&tf->items);
	memset(&tf->st, 0, sizeof(tf->st));
}

void sc_taskfile_release(struct sc_taskfile *tf)
{
	sc_buf_release(&tf->data);
	sc_tasklist_release(&tf->items);
}

/*
 * Open FILE's directory into *DIRFD and point *BASE at its last component.
 * With DIR, FILE is relative to it and walked without following symlinks;
 * without, FILE's directory is opened as given.
 */
static int locate(const char *dir, const char *file, int *dirfd,
		  const char **base)
{
	const char *slash = strrchr(file, '/');
	char *parent;
	int ret = SC_TASKS_OK, root;

	*base = slash ? slash + 1 : file;
	if (!**base || !strcmp(*base, ".") || !strcmp(*base, "..") ||
	    (dir && *file == '/')) {
		sc_error("BAD-PATH", "'%s' is not a %sfile name", file,
			 dir ? "relative " : "");
		return SC_TASKS_BAD_NAME;
	}
	parent = slash ? sc_xmemdup(file, (size_t)(slash - file)) :
			 sc_xstrdup(".");
	if (!*parent && slash) {
		free(parent);
		parent = sc_xstrdup("/");
	}
	if (dir) {
		root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (root < 0) {
			sc_error_errno("READ-FAILED", "cannot open '%s'", dir);
			ret = SC_TASKS_IO;
		} else {
			ret = walk_dirs(root, parent, dirfd);
			close(root);
		}
	} else {
		*dirfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (*dirfd < 0)
			ret = open_failed(parent, "directory");
	}
	if (ret == SC_TASKS_NONE)
		sc_error("NO-TASKS", "no tasks file '%s'", file);
	free(parent);
	return ret;
}

/* Read all of FD into OUT; more than the cap is malformed, never cut. */
static int read_all(int fd, const char *shown, struct sc_buf *out)
{
	switch (sc_read_fd_max(fd, SC_TASKS_MAX_FILE, 0, out)) {
	case 0:
		return SC_TASKS_OK;
	case -2:
		return malformed(shown, 1, "larger than 4 MiB");
	default:
		sc_error_errno("READ-FAILED", "cannot read '%s'", shown);
		return SC_TASKS_IO;
	}
}

/* Open NAME in DIRFD (a regular file, never a symlink) and parse it whole. */
static int read_tasks(int dirfd, const char *name, const char *shown,
		      struct sc_taskfile *tf)
{
	struct stat st;
	int fd, ret;

	ret = check_regular(dirfd, name, shown, &st);
	if (ret == SC_TASKS_NONE)
		sc_error("NO-TASKS", "no tasks file '%s'", shown);
	if (ret)
		return ret;
	/* O_NONBLOCK: had it become a fifo since, the open must not wait. */
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		    O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return open_failed(shown, "regular file");
	if (fstat(fd, &tf->st) < 0 || !S_ISREG(tf->st.st_mode) ||
	    tf->st.st_ino != st.st_ino || tf->st.st_dev != st.st_dev) {
		close(fd);
		sc_error("UNSAFE-PATH", "'%s' changed while it was opened", shown);
		return SC_TASKS_UNSAFE;
	}
	sc_buf_reset(&tf->data);
	ret = read_all(fd, shown, &tf->data);
	close(fd);
	if (!ret)
		ret = sc_tasks_parse(tf->data.data ? tf->data.data : "",
				     tf->data.len, shown, &tf->items);
	if (!ret && !tf->items.nr) {
		sc_error("NO-TASKS", "'%s' holds no checkbox item", shown);
		ret = SC_TASKS_NONE;
	}
	return ret;
}

/* Read FILE into TF; on success *DIRFD is its directory, left open. */
static int load_at(const char *dir, const char *file, struct sc_taskfile *tf,
		   int *dirfd, const char **base)
{
	int ret = locate(dir, file, dirfd, base);

	if (ret)
		return ret;
	ret = read_tasks(*dirfd, *base, file, tf);
	if (ret)
		close(*dirfd);
	return ret;
}

int sc_tasks_load(const char *dir, const char *file, struct sc_taskfile *tf)
{
	const char *base;
	int dirfd, ret;

	ret = load_at(dir, file, tf, &dirfd, &base);
	if (!ret)
		close(dirfd);
	return ret;
}

/* Whether NAME in DIRFD is still the file ST describes, unchanged. */
static int unchanged(int dirfd, const char *name, const struct stat *st)
{
	struct stat now;

	if (fstatat(dirfd, name, &now, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	return now.st_dev == st->st_dev && now.st_ino == st->st_ino &&
	       now.st_size == st->st_size &&
	       now.st_mtim.tv_sec == st->st_mtim.tv_sec &&
	       now.st_mtim.tv_nsec == st->st_mtim.tv_nsec;
}

struct tick_check {
	int dirfd;
	const char *name;
	const struct stat *st;
};

/* Someone else's edit since the read must not be overwritten. */
static int changed_since_read(void *ctx)
{
	const struct tick_check *c = ctx;

	return !unchanged(c->dirfd, c->name, c->st);
}

/*
 * Replace NAME in DIRFD by TF's data with the box at MARK ticked, with
 * the mode and owner of the file it replaces, so a tick changes one byte,
 * not who may read the file (sc_replace_file_how: a crash leaves the old
 * file or the new one).
 */
static int replace_ticked(int dirfd, const char *name, const char *shown,
			  const struct sc_taskfile *tf, size_t mark)
{
	struct tick_check c = { dirfd, name, &tf->st };
	struct sc_replace_how how = { tf->st.st_mode & 07777, &tf->st,
				      changed_since_read, &c };
	struct sc_buf data = SC_BUF_INIT;
	enum sc_replace_step step;
	int ret = SC_TASKS_OK;

	sc_buf_add(&data, tf->data.data, tf->data.len);
	data.data[mark] = 'x';
	if (sc_replace_file_how(dirfd, name, data.data, data.len, &how,
				&step) < 0) {
		if (step == SC_REPLACE_CHECK) {
			sc_error("TASK-CHANGED", "'%s' changed while it was "
				 "ticked", shown);
			ret = SC_TASKS_CHANGED;
		} else {
			sc_error_errno("WRITE-FAILED", "'%s': %s", shown,
				       sc_replace_step_text(step));
			ret = SC_TASKS_IO;
		}
	}
	sc_buf_release(&data);
	return ret;
}

/* The item N of TF when it is open and reads TEXT; else TASK-CHANGED. */
static int expected_item(const struct sc_taskfile *tf, const char *shown,
			 size_t n, const char *text, const struct sc_task **out)
{
	const struct sc_task *t;

	if (n < 1 || n > tf->items.nr) {
		sc_error("TASK-CHANGED", "'%s' has no item %zu", shown, n);
		return SC_TASKS_CHANGED;
	}
	t = &tf->items.v[n - 1];
	if (t->done) {
		sc_error("TASK-CHANGED", "item %zu of '%s' is already done",
			 n, shown);
		return SC_TASKS_CHANGED;
	}
	if (t->text_len != strlen(text) ||
	    memcmp(tf->data.data + t->text, text, t->text_len)) {
		sc_error("TASK-CHANGED", "item %zu of '%s' has another text",
			 n, shown);
		return SC_TASKS_CHANGED;
	}
	*out = t;
	return SC_TASKS_OK;
}

int sc_tasks_tick(const char *dir, const char *file, size_t n,
		  const char *text, struct sc_taskfile *tf,
		  struct sc_task *ticked)
{
	const struct sc_task *t = NULL;
	const char *base;
	int dirfd, ret;

	ret = load_at(dir, file, tf, &dirfd, &base);
	if (ret)
		return ret;
	ret = expected_item(tf, file, n, text, &t);
	if (!ret)
		ret = replace_ticked(dirfd, base, file, tf, t->mark);
	close(dirfd);
	if (!ret) {
		*ticked = *t;
		ticked->done = 1;
	}
	return ret;
}

/* ---- sc-tasks ---- */

static int tasks_exit(int status)
{
	switch (status) {
	case SC_TASKS_OK:
		return SC_EXIT_OK;
	case SC_TASKS_NONE:
	case SC_TASKS_AMBIGUOUS:
	case SC_TASKS_UNSAFE:
	case SC_TASKS_CHANGED:
		return SC_EXIT_NO;
	case SC_TASKS_BAD_NAME:
		return SC_EXIT_USAGE;
	case SC_TASKS_MALFORMED:
		return SC_EXIT_MALFORMED;
	default:
		return SC_EXIT_INTERNAL;
	}
}

static void put_task(struct sc_output *out, const struct sc_buf *data,
		     const struct sc_task *t)
{
	struct sc_record rec;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "task");
	sc_record_addu(&rec, "n", t->n);
	sc_record_addu(&rec, "line", t->line);
	sc_record_adds(&rec, "state", t->done ? "done" : "open");
	sc_record_add(&rec, "text", data->data + t->text, t->text_len);
	sc_record_queue(out, &rec);
	sc_record_release(&rec);
}

static void put_feature(struct sc_output *out, const char *name,
			const struct sc_feature *f)
{
	struct sc_record rec;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "feature");
	sc_record_adds(&rec, "name", name);
	sc_record_adds(&rec, "layout", f->layout);
	sc_record_adds(&rec, "dir", f->dir);
	sc_record_adds(&rec, "tasks", f->tasks);
	if (f->spec)
		sc_record_adds(&rec, "spec", f->spec);
	if (f->plan)
		sc_record_adds(&rec, "plan", f->plan);
	sc_record_queue(out, &rec);
	sc_record_release(&rec);
}

/* Run the command; records are queued on OUT only once it succeeded. */
static int tasks_cmd(const struct sc_tasks_opts *o, struct sc_output *out)
{
	struct sc_taskfile tf;
	struct sc_feature f;
	struct sc_task t;
	int ret;
	size_t i;

	if (o->cmd == SC_TASKS_CMD_FIND) {
		ret = sc_tasks_find(o->dir ? o->dir : ".", o->target, &f);
		if (!ret) {
			put_feature(out, o->target, &f);
			sc_feature_release(&f);
		}
		return ret;
	}
	sc_taskfile_init(&tf);
	if (o->cmd == SC_TASKS_CMD_LIST) {
		ret = sc_tasks_load(o->dir, o->target, &tf);
		for (i = 0; !ret && i < tf.items.nr; i++)
			put_task(out, &tf.data, &tf.items.v[i]);
	} else {
		ret = sc_tasks_tick(o->dir, o->target, o->n, o->text, &tf, &t);
		if (!ret)
			put_task(out, &tf.data, &t);
	}
	sc_taskfile_release(&tf);
	return ret;
}

int sc_tasks_run(const struct sc_tasks_opts *o)
{
	struct sc_output out;
	int ret;

	sc_output_init_records(&out, STDOUT_FILENO, o->force_records);
	ret = tasks_exit(tasks_cmd(o, &out));
	if (ret == SC_EXIT_OK && sc_output_flush(&out) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = SC_EXIT_INTERNAL;
	}
	sc_output_release(&out);
	return ret;
}
