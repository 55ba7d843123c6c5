#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "alloc.h"
#include "diag.h"
#include "encode.h"
#include "gitconfig.h"
#include "io.h"
#include "pin.h"
#include "policy.h"
#include "scan.h"
#include "skillconf.h"
#include "strlist.h"

/* ---- reading a tree ---- */

void sc_pin_tree_init(struct sc_pin_tree *t)
{
	memset(t, 0, sizeof(*t));
}

void sc_pin_tree_release(struct sc_pin_tree *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		free(t->entries[i].path);
		/* A package may hold a credential the scan is about to find. */
		sc_buf_wipe(&t->entries[i].data);
	}
	free(t->entries);
	sc_pin_tree_init(t);
}

struct load {
	struct sc_pin_tree *t;
	struct sc_scanner **show;  /* made on the first message, see pin.h */
	const char *top;           /* the path as given, for messages */
};

/* TOP/REL as a person may see it: credential-looking names hidden. */
static void shown_path(const struct load *ld, const char *rel,
		       char *msg, size_t size)
{
	struct sc_buf full = SC_BUF_INIT, shown = SC_BUF_INIT;

	sc_buf_adds(&full, ld->top);
	if (*rel)
		sc_buf_addf(&full, "/%s", rel);
	/* Compiling the rules costs more than digesting a skill: only a
	 * message pays for it. */
	if (ld->show && !*ld->show)
		*ld->show = sc_scanner_new();
	if (ld->show && *ld->show)
		sc_scan_show_path(*ld->show, full.data, &shown);
	else if (ld->show)
		sc_buf_adds(&shown, "(path not shown)");
	else
		sc_buf_add(&shown, full.data, full.len);
	sc_sanitize(msg, size, shown.data, shown.len);
	sc_buf_release(&full);
	sc_buf_release(&shown);
}

/* Report CODE about REL and keep the text as the tree's reason. */
static int load_error(const struct load *ld, const char *code,
		      const char *rel, const char *what)
{
	char msg[1024];

	shown_path(ld, rel, msg, sizeof(msg));
	if (!strcmp(code, "INPUT"))
		snprintf(ld->t->why, sizeof(ld->t->why), "cannot read '%s': %s",
			 msg, strerror(errno));
	else
		snprintf(ld->t->why, sizeof(ld->t->why), "'%s' %s", msg, what);
	return sc_error(code, "%s", ld->t->why);
}

static struct sc_pin_entry *add_entry(struct sc_pin_tree *t, const char *rel)
{
	struct sc_pin_entry *e;

	SC_ALLOC_GROW(t->entries, t->nr + 1, t->alloc);
	e = &t->entries[t->nr++];
	memset(e, 0, sizeof(*e));
	e->path = sc_xstrdup(rel);
	return e;
}

/*
 * The content of regular file FD (SIZE bytes by fstat) into E, within the
 * package's limits, read straight into one buffer: a credential the scan
 * is about to find leaves no copy behind in freed memory or on the stack.
 */
static int read_content(struct load *ld, int fd, off_t size,
			struct sc_pin_entry *e)
{
	static const char *too_large = "makes the package larger than a "
				       "package can be";
	size_t max = SC_PIN_TREE_MAX - ld->t->total;
	int st;

	if (max > SC_PIN_FILE_MAX)
		max = SC_PIN_FILE_MAX;
	/* The size is checked first so a huge file is refused unread; the
	 * file may still grow while it is read, and the cap holds then. */
	if ((size_t)size > max)
		return load_error(ld, "TOO-LARGE", e->path, too_large);
	st = sc_read_fd_max(fd, max, 0, &e->data);
	if (st == -2)
		return load_error(ld, "TOO-LARGE", e->path, too_large);
	if (st < 0)
		return load_error(ld, "INPUT", e->path, NULL);
	ld->t->total += e->data.len;
	return 0;
}

/*
 * Open NAME in directory DFD as what lstat said it was, never following a
 * symlink, and check that the open file is the one looked at: a name
 * swapped for another between the two calls is refused, not read.
 */
static int open_checked(struct load *ld, int dfd, const char *name,
			const char *rel, const struct stat *was)
{
	int dir = S_ISDIR(was->st_mode);
	int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
		    (dir ? O_DIRECTORY : O_NONBLOCK);
	struct stat st;
	int fd = openat(dfd, name, flags);

	if (fd < 0) {
		if (errno == ELOOP)
			return load_error(ld, "SYMLINK", rel, "is a symlink: "
					  "a package holds files and "
					  "directories only");
		return load_error(ld, "INPUT", rel, NULL);
	}
	if (fstat(fd, &st) < 0 || st.st_dev != was->st_dev ||
	    st.st_ino != was->st_ino ||
	    (st.st_mode & S_IFMT) != (was->st_mode & S_IFMT)) {
		close(fd);
		errno = ESTALE;
		return load_error(ld, "INPUT", rel, NULL);
	}
	return fd;
}

static int load_dir(struct load *ld, int dfd, const char *rel, int depth);

static int load_child(struct load *ld, int dfd, const char *name,
		      const char *rel, int depth)
{
	struct sc_pin_entry *e;
	struct stat st;
	int fd, ret;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return load_error(ld, "INPUT", rel, NULL);
	if (S_ISLNK(st.st_mode))
		return load_error(ld, "SYMLINK", rel, "is a symlink: a package "
				  "holds files and directories only");
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
		return load_error(ld, "SPECIAL-FILE", rel, "is a device, FIFO "
				  "or socket: a package holds files and "
				  "directories only");
	if (ld->t->nr >= SC_PIN_FILES_MAX)
		return load_error(ld, "TOO-LARGE", rel, "is past the number "
				  "of entries a package can hold");
	fd = open_checked(ld, dfd, name, rel, &st);
	if (fd < 0)
		return -1;
	e = add_entry(ld->t, rel);
	if (S_ISDIR(st.st_mode)) {
		e->is_dir = 1;
		ret = load_dir(ld, fd, rel, depth + 1);
	} else {
		e->exec = (st.st_mode & S_IXUSR) != 0;
		ret = read_content(ld, fd, st.st_size, e);
	}
	close(fd);
	return ret;
}

static int load_dir(struct load *ld, int dfd, const char *rel, int depth)
{
	struct sc_strlist names = { 0 };
	size_t i;
	int ret = 0;

	if (depth > SC_PIN_DEPTH_MAX)
		return load_error(ld, "TOO-LARGE", rel, "is nested deeper "
				  "than a package can be");
	if (sc_dir_list(dfd, SIZE_MAX, &names) < 0)
		return load_error(ld, "INPUT", rel, NULL);
	for (i = 0; i < names.nr && !ret; i++) {
		struct sc_buf child = SC_BUF_INIT;

		if (*rel)
			sc_buf_addf(&child, "%s/", rel);
		sc_buf_adds(&child, names.v[i]);
		ret = load_child(ld, dfd, names.v[i], child.data, depth);
		sc_buf_release(&child);
	}
	sc_strlist_release(&names);
	return ret;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct sc_pin_entry *x = a, *y = b;

	return strcmp(x->path, y->path);
}

int sc_pin_tree_load(struct sc_pin_tree *t, const char *path,
		     struct sc_scanner **show)
{
	struct load ld = { t, show, path };
	struct stat st;
	int fd, ret;

	if (lstat(path, &st) < 0)
		return load_error(&ld, "INPUT", "", NULL);
	if (S_ISLNK(st.st_mode))
		return load_error(&ld, "SYMLINK", "", "is a symlink: name the "
				  "package's own directory");
	if (!S_ISDIR(st.st_mode))
		return load_error(&ld, "NOT-A-DIRECTORY", "", "is not a "
				  "directory");
	fd = open_checked(&ld, AT_FDCWD, path, "", &st);
	if (fd < 0)
		return -1;
	ret = load_dir(&ld, fd, "", 0);
	close(fd);
	/* strcmp orders as unsigned char: byte order, the documented one. */
	if (!ret && t->nr)
		qsort(t->entries, t->nr, sizeof(*t->entries), entry_cmp);
	return ret;
}

/* ---- the digest ---- */

static void put_u64(EVP_MD_CTX *ctx, uint64_t v)
{
	unsigned char b[8];
	int i;

	for (i = 7; i >= 0; i--) {
		b[i] = (unsigned char)(v & 0xff);
		v >>= 8;
	}
	EVP_DigestUpdate(ctx, b, sizeof(b));
}

int sc_pin_tree_digest(const struct sc_pin_tree *t,
		       char out[SC_PIN_DIGEST_LEN + 1])
{
	static const char tag[] = "sc-pin-tree-v1\n";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned len = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	size_t k;

	out[0] = '\0';
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		EVP_MD_CTX_free(ctx);
		return sc_error("CRYPTO", "cannot start SHA-256");
	}
	EVP_DigestUpdate(ctx, tag, sizeof(tag) - 1);
	for (k = 0; k < t->nr; k++) {
		const struct sc_pin_entry *e = &t->entries[k];
		unsigned char mode = e->exec ? 1 : 0;

		if (e->is_dir)
			continue;
		put_u64(ctx, strlen(e->path));
		EVP_DigestUpdate(ctx, e->path, strlen(e->path));
		EVP_DigestUpdate(ctx, &mode, 1);
		put_u64(ctx, e->data.len);
		if (e->data.len)
			EVP_DigestUpdate(ctx, e->data.data, e->data.len);
	}
	if (!EVP_DigestFinal_ex(ctx, md, &len) || len != 32) {
		EVP_MD_CTX_free(ctx);
		return sc_error("CRYPTO", "cannot finish SHA-256");
	}
	EVP_MD_CTX_free(ctx);
	memcpy(out, "sha256:", 7);
	sc_sha256_hex(md, out + 7);
	return 0;
}

/* ---- the scan ---- */

void sc_pin_findings_release(struct sc_pin_findings *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		free(f->items[i].file);
	free(f->items);
	memset(f, 0, sizeof(*f));
}

struct scan_ctx {
	struct sc_pin_findings *out;
	const char *shown;
	int first_only;   /* 1: a name, one finding is enough; 2: found */
};

static void add_finding(void *ctx, const struct sc_scan_finding *sf)
{
	struct scan_ctx *c = ctx;
	struct sc_pin_finding *f;

	if (c->first_only > 1)
		return;
	if (c->first_only && !sf->allowed)
		c->first_only = 2;
	SC_ALLOC_GROW(c->out->items, c->out->nr + 1, c->out->alloc);
	f = &c->out->items[c->out->nr++];
	f->rule = sf->rule;
	f->file = sc_xstrdup(c->shown);
	f->line = c->first_only ? 0 : sf->line;  /* a name has no line */
	memcpy(f->fingerprint, sf->fingerprint, sizeof(f->fingerprint));
	f->allowed = sf->allowed;
	c->out->failing += !sf->allowed;
}

/* A name sc-classify calls a secret file's: no value, no fingerprint. */
static void add_secret_file(struct scan_ctx *c)
{
	struct sc_scan_finding sf = { "credential-file", 0, "", 0 };

	add_finding(c, &sf);
}

/* The findings of one entry: its own name, a secret file's name, content. */
static int scan_entry(const struct sc_pin_entry *e, struct sc_scanner *sc,
		      struct sc_pin_findings *out)
{
	const char *slash = strrchr(e->path, '/');
	const char *name = slash ? slash + 1 : e->path;
	struct sc_buf shown = SC_BUF_INIT;
	struct scan_ctx c = { out, NULL, 1 };
	int ret = 0;

	sc_scan_show_path(sc, e->path, &shown);
	c.shown = shown.data;
	if (sc_scan_buffer_ex(sc, name, strlen(name), add_finding, &c) < 0)
		ret = -1;
	c.first_only = 0;
	if (!e->is_dir && sc_policy_secret_name(e->path))
		add_secret_file(&c);
	if (!ret && !e->is_dir &&
	    sc_scan_buffer_ex(sc, e->data.data ? e->data.data : "", e->data.len,
			      add_finding, &c) < 0)
		ret = -1;
	sc_buf_release(&shown);
	return ret;
}

long sc_pin_tree_scan(const struct sc_pin_tree *t, struct sc_scanner *sc,
		      struct sc_pin_findings *out)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (scan_entry(&t->entries[i], sc, out) < 0)
			return -1;
	return (long)out->failing;
}

/* ---- ID@VERSION ---- */

int sc_pin_split(const char *spec, struct sc_buf *id, struct sc_buf *version)
{
	const char *at = strchr(spec, '@');

	if (!at || strchr(at + 1, '@') ||
	    !sc_skill_valid_id(spec, (size_t)(at - spec)) ||
	    !sc_skill_valid_version(at + 1, strlen(at + 1)))
		return -1;
	sc_buf_reset(id);
	sc_buf_add(id, spec, (size_t)(at - spec));
	sc_buf_reset(version);
	sc_buf_adds(version, at + 1);
	return 0;
}

/* ---- the lock ---- */

/* The largest lock read: a pin is under 400 bytes. */
#define LOCK_MAX ((off_t)4 << 20)

void sc_pin_lock_init(struct sc_pin_lock *l)
{
	memset(l, 0, sizeof(*l));
}

void sc_pin_lock_release(struct sc_pin_lock *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->pins[i].key);
		free(l->pins[i].digest);
		free(l->pins[i].why);
	}
	free(l->pins);
	sc_pin_lock_init(l);
}

static struct sc_pin_lock_entry *find_pin(const struct sc_pin_lock *l,
					  const char *key)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->pins[i].key, key))
			return &l->pins[i];
	return NULL;
}

const struct sc_pin_lock_entry *sc_pin_lock_find(const struct sc_pin_lock *l,
						 const char *key)
{
	return find_pin(l, key);
}

static int valid_digest(const char *d)
{
	size_t i;

	if (!d || strncmp(d, "sha256:", 7) || strlen(d) != SC_PIN_DIGEST_LEN)
		return 0;
	for (i = 7; d[i]; i++)
		if (!((d[i] >= '0' && d[i] <= '9') || (d[i] >= 'a' && d[i] <= 'f')))
			return 0;
	return 1;
}

/* Why pin KEY with DIGEST does not parse, or NULL when it does. */
static const char *pin_problem(const char *key, const char *digest)
{
	struct sc_buf id = SC_BUF_INIT, version = SC_BUF_INIT;
	int bad_key = sc_pin_split(key, &id, &version) < 0;

	sc_buf_release(&id);
	sc_buf_release(&version);
	if (bad_key)
		return "the name is not ID@VERSION";
	if (!valid_digest(digest))
		return "the digest is not sha256: and 64 lower-case hex digits";
	return NULL;
}

struct lock_read {
	struct sc_pin_lock *l;
	const char *path;   /* for messages */
};

static void mark_bad(struct sc_pin_lock_entry *p, const char *why)
{
	free(p->digest);
	p->digest = NULL;
	free(p->why);
	p->why = sc_xstrdup(why);
}

/*
 * The line (from 1) of the TIMES-th section header naming KEY in the
 * LEN bytes at TEXT, or 0.  libgit2 gives no line for an entry, and a
 * person fixing a lock wants one.
 */
static unsigned long header_line(const char *text, size_t len,
				 const char *key, unsigned times)
{
	struct sc_buf quoted = SC_BUF_INIT;
	const char *p = text, *end = text + len, *nl;
	unsigned long line = 1, found = 0;

	sc_buf_addf(&quoted, "\"%s\"", key);
	for (; p < end; p = nl + 1, line++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (memchr(p, '[', (size_t)(nl - p)) &&
		    memmem(p, (size_t)(nl - p), quoted.data, quoted.len) &&
		    ++found == times)
			break;
		if (nl == end)
			break;
	}
	sc_buf_release(&quoted);
	return found == times ? line : 0;
}

/* One error[BAD-LOCK] for each entry that does not parse, with its line
 * when TEXT (the lock as read, may be NULL) shows it. */
static void report_bad(const struct sc_pin_lock *l, const char *shown,
		       const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		const struct sc_pin_lock_entry *p = &l->pins[i];
		unsigned long line;
		char key[512];

		if (!p->why)
			continue;
		sc_sanitize(key, sizeof(key), p->key, strlen(p->key));
		line = text && len ? header_line(text, len, p->key, p->times) :
		       0;
		if (line)
			sc_error("BAD-LOCK", "%s:%lu: [pin \"%s\"]: %s", shown,
				 line, key, p->why);
		else
			sc_error("BAD-LOCK", "%s: [pin \"%s\"]: %s", shown, key,
				 p->why);
	}
}

/* One libgit2 entry: only pin.ID@VERSION.digest is known. */
static int lock_entry(const char *name, const char *value, void *ctx)
{
	const struct lock_read *r = ctx;
	size_t len = strlen(name);
	struct sc_pin_lock_entry *p;
	const char *why;
	char *key;
	char msg[512];

	if (strncmp(name, "pin.", 4) || len < 4 + 1 + 7 ||
	    strcmp(name + len - 7, ".digest")) {
		sc_sanitize(msg, sizeof(msg), name, len);
		sc_error("BAD-LOCK", "%s: unknown key '%s': a lock holds "
			 "[pin \"ID@VERSION\"] digest = ... only", r->path, msg);
		r->l->status = SC_PIN_LOCK_MALFORMED;
		return -1;
	}
	key = sc_xmemdup(name + 4, len - 4 - 7);
	if ((p = find_pin(r->l, key))) {
		free(key);
		p->times++;
		mark_bad(p, "pinned twice");
		return 0;
	}
	SC_ALLOC_GROW(r->l->pins, r->l->nr + 1, r->l->alloc);
	p = &r->l->pins[r->l->nr++];
	p->key = key;
	p->digest = value ? sc_xstrdup(value) : NULL;
	p->why = NULL;
	p->times = 1;
	if ((why = pin_problem(key, value)))
		mark_bad(p, why);
	return 0;
}

/* The lock's status from the reader's ST. */
static int lock_status(struct sc_pin_lock *l, int st)
{
	if (l->status == SC_PIN_LOCK_MALFORMED || st == SC_GITCONFIG_BAD ||
	    st == SC_GITCONFIG_STOPPED)
		return l->status = SC_PIN_LOCK_MALFORMED;
	if (st != SC_GITCONFIG_OK)
		return l->status = SC_PIN_LOCK_UNREADABLE;
	return l->status = SC_PIN_LOCK_OK;
}

/* report_bad with the text of the lock at PATH, read again for lines:
 * never through a symlink, never waiting on a FIFO swapped in since. */
static void report_file(const struct sc_pin_lock *l, const char *path,
			const char *shown)
{
	struct sc_buf text = SC_BUF_INIT;
	size_t i;
	int st = -1;

	for (i = 0; i < l->nr && !l->pins[i].why; i++)
		;
	if (i < l->nr)
		st = sc_read_file_at(AT_FDCWD, path, (size_t)LOCK_MAX,
				     SC_OPEN_NOFOLLOW | SC_OPEN_NONBLOCK,
				     &text);
	report_bad(l, shown, st == 0 ? text.data : NULL, text.len);
	sc_buf_release(&text);
}

int sc_pin_lock_read(struct sc_pin_lock *l, const char *path)
{
	struct stat st;
	char msg[512];
	struct lock_read r = { l, msg };

	sc_pin_lock_release(l);
	sc_sanitize(msg, sizeof(msg), path, strlen(path));
	if (lstat(path, &st) < 0) {
		if (errno == ENOENT) {
			sc_error("NO-LOCK", "'%s' does not exist: nothing is "
				 "pinned", msg);
			return l->status = SC_PIN_LOCK_MISSING;
		}
		sc_error_errno("LOCK-UNREADABLE", "cannot read '%s'", msg);
		return l->status = SC_PIN_LOCK_UNREADABLE;
	}
	/* A lock is a file of its own: never a link to one, never a FIFO. */
	if (S_ISLNK(st.st_mode)) {
		sc_error("LOCK-SYMLINK", "'%s' is a symlink: a lock is never "
			 "read or written through one", msg);
		return l->status = SC_PIN_LOCK_UNREADABLE;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > LOCK_MAX) {
		sc_error("LOCK-UNREADABLE", "'%s' is not a regular file of at "
			 "most 4 MiB", msg);
		return l->status = SC_PIN_LOCK_UNREADABLE;
	}
	/* libgit2 opens PATH again: the checks above narrow, and the
	 * directory holding a lock is the person's, out of a run's reach. */
	if (lock_status(l, sc_gitconfig_foreach(path, "BAD-LOCK", lock_entry,
						&r)) == SC_PIN_LOCK_OK)
		report_file(l, path, msg);
	return l->status;
}

int sc_pin_lock_read_mem(struct sc_pin_lock *l, const char *data, size_t len)
{
	struct lock_read r = { l, "lock" };

	sc_pin_lock_release(l);
	if (lock_status(l, sc_gitconfig_foreach_mem(data, len, "BAD-LOCK",
						    lock_entry, &r)) ==
	    SC_PIN_LOCK_OK)
		report_bad(l, "lock", data, len);
	return l->status;
}

void sc_pin_lock_set(struct sc_pin_lock *l, const char *key,
		     const char *digest)
{
	struct sc_pin_lock_entry *p = find_pin(l, key);

	if (!p) {
		SC_ALLOC_GROW(l->pins, l->nr + 1, l->alloc);
		p = &l->pins[l->nr++];
		p->key = sc_xstrdup(key);
	} else {
		free(p->digest);
		free(p->why);
	}
	p->digest = sc_xstrdup(digest);
	p->why = NULL;
}

static int pin_cmp(const void *a, const void *b)
{
	const struct sc_pin_lock_entry *x = a, *y = b;

	return strcmp(x->key, y->key);
}

void sc_pin_lock_format(const struct sc_pin_lock *l, struct sc_buf *out)
{
	struct sc_pin_lock_entry *sorted = NULL;
	size_t i;

	sc_buf_adds(out, "# Pinned packages: written by sc-pin(1); the format "
		    "is speccoder-lock(5).\n");
	if (l->nr) {
		sorted = sc_xmalloc(sc_st_mult(l->nr, sizeof(*sorted)));
		memcpy(sorted, l->pins, l->nr * sizeof(*sorted));
		qsort(sorted, l->nr, sizeof(*sorted), pin_cmp);
	}
	/* Keys and digests were validated: nothing in them needs quoting. */
	for (i = 0; i < l->nr; i++)
		if (sorted[i].digest && !sorted[i].why)
			sc_buf_addf(out, "[pin \"%s\"]\n\tdigest = %s\n",
				    sorted[i].key, sorted[i].digest);
	free(sorted);
}

/* ---- writing a file in place of another ---- */

int sc_pin_write_file(const char *path, const char *data, size_t len)
{
	enum sc_replace_step step = SC_REPLACE_CREATE;
	struct stat st;
	char msg[512];
	int ret = 0;

	sc_sanitize(msg, sizeof(msg), path, strlen(path));
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return sc_error("LOCK-SYMLINK", "'%s' is a symlink: a lock is "
				"never written through one", msg);
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return sc_error("LOCK-UNREADABLE", "'%s' is not a regular "
				"file", msg);
	/* rename(2) replaces the name itself: a symlink put there after the
	 * check above is replaced, never followed. */
	if (sc_replace_file(path, data, len, 0600, &step) < 0)
		ret = sc_error_errno("WRITE-FAILED", "'%s': %s", msg,
				     sc_replace_step_text(step));
	return ret;
}

/* ---- checking one package ---- */

void sc_pin_result_init(struct sc_pin_result *r)
{
	memset(r, 0, sizeof(*r));
	sc_buf_init(&r->reason);
}

void sc_pin_result_release(struct sc_pin_result *r)
{
	sc_buf_release(&r->reason);
}

/* The reason a package is unverified by its lock alone, or NULL. */
static const char *lock_reason(const struct sc_pin_lock *lock)
{
	switch (lock->status) {
	case SC_PIN_LOCK_OK:
		return NULL;
	case SC_PIN_LOCK_MISSING:
		return "there is no lock: nothing is pinned";
	case SC_PIN_LOCK_UNREADABLE:
		return "the lock cannot be read";
	default:
		return "the lock does not parse";
	}
}

static void hit_reason(const struct sc_pin_findings *f, struct sc_buf *out)
{
	const struct sc_pin_finding *x = f->items;
	char msg[1024];

	while (x->allowed)   /* f->failing > 0: one is not allowed */
		x++;
	sc_sanitize(msg, sizeof(msg), x->file, strlen(x->file));
	if (x->line)
		sc_buf_addf(out, "credential (rule %s) in '%s' line %lu",
			    x->rule, msg, x->line);
	else
		sc_buf_addf(out, "credential-looking name (rule %s): '%s'",
			    x->rule, msg);
	if (f->failing > 1)
		sc_buf_addf(out, ", and %zu more", f->failing - 1);
}

/* The pin's verdict on a tree already read and scanned clean. */
static void compare(const struct sc_pin_lock *lock, const char *key,
		    struct sc_pin_result *res)
{
	const struct sc_pin_lock_entry *pin = sc_pin_lock_find(lock, key);
	const char *why = lock_reason(lock);

	res->status = SC_PIN_UNVERIFIED;
	if (why)
		sc_buf_adds(&res->reason, why);
	else if (!pin)
		sc_buf_addf(&res->reason, "no pin for %s", key);
	else if (pin->why)
		sc_buf_addf(&res->reason, "the pin for %s does not parse: %s",
			    key, pin->why);
	else if (strcmp(pin->digest, res->digest))
		sc_buf_addf(&res->reason, "the digest differs from the pin "
			    "for %s", key);
	else {
		res->status = SC_PIN_VERIFIED;
		sc_buf_addf(&res->reason, "the digest matches the pin for %s",
			    key);
	}
}

/* Findings in the components of ID, as names, into OUT. */
static int scan_id(struct sc_scanner *sc, const char *id,
		   struct sc_pin_findings *out)
{
	struct sc_buf shown = SC_BUF_INIT;
	struct scan_ctx c = { out, NULL, 1 };
	const char *p = id;
	int ret = 0;

	sc_scan_show_path(sc, id, &shown);
	c.shown = shown.data;
	while (*p && !ret) {
		size_t n = strcspn(p, "/");

		if (sc_scan_buffer_ex(sc, p, n, add_finding, &c) < 0)
			ret = -1;
		p += n + (p[n] == '/');
	}
	sc_buf_release(&shown);
	return ret;
}

int sc_pin_check(struct sc_scanner *sc, const struct sc_pin_lock *lock,
		 const char *id, const char *version, const char *path,
		 struct sc_pin_result *res)
{
	struct sc_pin_tree t;
	struct sc_pin_findings f = { NULL, 0, 0, 0 };
	struct sc_buf key = SC_BUF_INIT;
	int ret = 0;

	sc_buf_reset(&res->reason);
	res->digest[0] = '\0';
	res->status = SC_PIN_UNVERIFIED;
	sc_pin_tree_init(&t);
	sc_buf_addf(&key, "%s@%s", id, version);
	/* A repository skill's id is its folder's name: a name that looks
	 * like a credential holds one, whatever the folder holds. */
	if (scan_id(sc, id, &f) < 0) {
		ret = -1;
	} else if (f.failing) {
		res->status = SC_PIN_SCAN_HIT;
		hit_reason(&f, &res->reason);
	} else if (sc_pin_tree_load(&t, path, &sc) < 0) {
		sc_buf_adds(&res->reason, t.why);
	} else if (sc_pin_tree_scan(&t, sc, &f) < 0) {
		ret = -1;
	} else if (f.failing) {
		res->status = SC_PIN_SCAN_HIT;
		hit_reason(&f, &res->reason);
	} else if (sc_pin_tree_digest(&t, res->digest) < 0) {
		ret = -1;
	} else {
		compare(lock, key.data, res);
	}
	/* Allowed findings are said, not dropped silently. */
	if (!ret && f.nr > f.failing && res->status != SC_PIN_SCAN_HIT)
		sc_buf_addf(&res->reason, " (%zu credential finding(s) "
			    "allowed by fingerprint)", f.nr - f.failing);
	sc_pin_findings_release(&f);
	sc_pin_tree_release(&t);
	sc_buf_release(&key);
	return ret;
}
