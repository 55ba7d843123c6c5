#ifndef SC_PIN_H
#define SC_PIN_H

/*
 * sc-pin(1): a package (a skill, a set of held-out tests) is a directory
 * tree; it is trusted only when it is free of credentials and its digest
 * equals the one a person pinned for its exact ID@VERSION.
 *
 * The tree is read once, with openat(2) and O_NOFOLLOW from the top
 * down, so no path is resolved twice and no symlink is ever followed; a
 * symlink, device, FIFO or socket anywhere in it refuses the whole tree.
 * The bytes that are scanned are the bytes that are digested.
 *
 * The digest (speccoder-lock(5)) is SHA-256 over
 *   "sc-pin-tree-v1\n"
 * then, for each regular file in byte order of its '/'-joined path
 * relative to the top:
 *   u64 path length, path, u8 mode (1 executable by its owner, else 0),
 *   u64 content length, content
 * with every u64 big-endian.  Directories count only through the files
 * they hold: an empty directory changes nothing.
 */

#include <stddef.h>

#include "buf.h"

/* A package may be at most this large: skills and test suites are small,
 * and everything is held in memory so that scan and digest see one copy. */
#define SC_PIN_FILE_MAX ((size_t)64 << 20)
#define SC_PIN_TREE_MAX ((size_t)256 << 20)
#define SC_PIN_FILES_MAX 100000
#define SC_PIN_DEPTH_MAX 64

struct sc_pin_entry {
	char *path;          /* relative to the top, '/'-joined */
	int is_dir;
	int exec;            /* owner-executable regular file */
	struct sc_buf data;  /* content of a regular file */
};

struct sc_pin_tree {
	struct sc_pin_entry *entries;  /* sorted by path after loading */
	size_t nr, alloc;
	size_t total;                  /* content bytes held */
	char why[1200];                /* why loading failed, for a reason */
};

void sc_pin_tree_init(struct sc_pin_tree *t);
void sc_pin_tree_release(struct sc_pin_tree *t);

/*
 * Read the tree at PATH (which must itself be a directory, not a symlink).
 * -1 after error[SYMLINK], error[SPECIAL-FILE], error[NOT-A-DIRECTORY],
 * error[TOO-LARGE] or error[INPUT]; every message names the path with
 * credential-looking names hidden by the scanner at *SHOW, made there on
 * the first message when *SHOW is NULL (the caller frees it).  SHOW NULL:
 * names shown as they are (tests only).
 */
struct sc_scanner;
int sc_pin_tree_load(struct sc_pin_tree *t, const char *path,
		     struct sc_scanner **show);

/* "sha256:" and 64 lower-case hex digits of T into OUT (72 bytes); -1
 * after error[CRYPTO] when libcrypto fails. */
#define SC_PIN_DIGEST_LEN 71
int sc_pin_tree_digest(const struct sc_pin_tree *t,
		       char out[SC_PIN_DIGEST_LEN + 1]);

/* One credential found in a package; FILE has credential names hidden. */
struct sc_pin_finding {
	const char *rule;    /* a scan rule id, or "credential-file" */
	char *file;
	unsigned long line;  /* 0 for a finding in a name */
	char fingerprint[17];  /* "" for credential-file */
	int allowed;         /* allowed by fingerprint (sc_scanner_allow) */
};

struct sc_pin_findings {
	struct sc_pin_finding *items;
	size_t nr, alloc;
	size_t failing;      /* the items not allowed */
};

void sc_pin_findings_release(struct sc_pin_findings *f);

/*
 * Scan every name and every file of T with SC (lib/mask/scan.h) and the
 * secret-file names of sc-classify, in path order.  Returns the number of
 * findings not allowed (out->failing), or -1 on a matcher error; allowed
 * ones are in OUT too.
 */
long sc_pin_tree_scan(const struct sc_pin_tree *t, struct sc_scanner *sc,
		      struct sc_pin_findings *out);

/* ---- the lock ---- */

/* Split "ID@VERSION" (at its only '@'); -1 when it is not one. */
int sc_pin_split(const char *spec, struct sc_buf *id, struct sc_buf *version);

enum sc_pin_lock_status {
	SC_PIN_LOCK_OK = 0,
	SC_PIN_LOCK_MISSING = -1,    /* no such file */
	SC_PIN_LOCK_UNREADABLE = -2, /* a symlink, not a file, unreadable */
	SC_PIN_LOCK_MALFORMED = -3,  /* libgit2 refused it, or an unknown key */
};

struct sc_pin_lock_entry {
	char *key;      /* "ID@VERSION" */
	char *digest;   /* NULL when the entry does not parse */
	char *why;      /* why it does not parse, NULL when it does */
	unsigned times; /* sections naming it: more than one is an error */
};

struct sc_pin_lock {
	int status;                      /* an sc_pin_lock_status */
	struct sc_pin_lock_entry *pins;  /* in file order */
	size_t nr, alloc;
};

void sc_pin_lock_init(struct sc_pin_lock *l);
void sc_pin_lock_release(struct sc_pin_lock *l);

/*
 * Read the lock at PATH into L and return L->status.  Diagnostics
 * (error[BAD-LOCK] naming the line or the entry) are printed here.
 */
int sc_pin_lock_read(struct sc_pin_lock *l, const char *path);
/* The same from LEN bytes at DATA (the fuzz target's entry). */
int sc_pin_lock_read_mem(struct sc_pin_lock *l, const char *data, size_t len);

/* The entry for KEY, or NULL.  A key pinned twice is one bad entry. */
const struct sc_pin_lock_entry *sc_pin_lock_find(const struct sc_pin_lock *l,
						 const char *key);

/* Add or replace the pin of KEY. */
void sc_pin_lock_set(struct sc_pin_lock *l, const char *key,
		     const char *digest);

/* The lock's text: a header comment and the pins sorted by key. */
void sc_pin_lock_format(const struct sc_pin_lock *l, struct sc_buf *out);

/* ---- checking one package ---- */

enum sc_pin_status { SC_PIN_VERIFIED, SC_PIN_UNVERIFIED, SC_PIN_SCAN_HIT };

struct sc_pin_result {
	int status;                       /* an sc_pin_status */
	struct sc_buf reason;             /* one sentence, names hidden */
	char digest[SC_PIN_DIGEST_LEN + 1]; /* "" unless computed */
};

void sc_pin_result_init(struct sc_pin_result *r);
void sc_pin_result_release(struct sc_pin_result *r);

/*
 * Check the package at PATH against the pin of exactly ID@VERSION in
 * LOCK: read it (no symlink followed), scan it with SC before anything
 * else looks at it (a finding is SC_PIN_SCAN_HIT), then compare digests.
 * A lock that is missing, unreadable or malformed, or an entry that does
 * not parse, leaves the package SC_PIN_UNVERIFIED.  -1 only on a matcher
 * or libcrypto error.
 */
int sc_pin_check(struct sc_scanner *sc, const struct sc_pin_lock *lock,
		 const char *id, const char *version, const char *path,
		 struct sc_pin_result *res);

/*
 * Replace the file PATH with the LEN bytes at DATA: a new file 0600 in the
 * same directory, written, fsync'd and renamed over PATH, then the
 * directory fsync'd.  Refuses (error[LOCK-SYMLINK]) when PATH is a
 * symlink, and leaves PATH as it was on any failure.  -1 on error.
 */
int sc_pin_write_file(const char *path, const char *data, size_t len);

#endif
