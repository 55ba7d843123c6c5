#ifndef SC_PATHS_H
#define SC_PATHS_H

/*
 * Paths as sc-classify judges them: every path is resolved against one root
 * (the worktree) into the canonical root-relative name of the file it
 * reaches.
 *
 * - Lexical checks first: a path may not be empty, hold a NUL, climb above
 *   the root with "..", or be absolute outside the root.
 * - Then the file system: existing components are resolved one by one
 *   (symlinks followed, at most 40), and the result must stay inside the
 *   root.  For a write the last component itself must not be a symlink, and
 *   the canonical name must equal the spelling given, letter case included:
 *   a spelling that reaches another file (through a symlinked directory, or
 *   in another case on a case-insensitive volume) is refused.
 * - A regular file with more than one hard link is looked up across the
 *   root; its other names come back as aliases, so a link to a protected
 *   file is judged as that file, and a file with links the root does not
 *   hold is refused.
 *
 * A race between this check and the later open remains; the OS sandbox is
 * what closes it.
 */

#include <stddef.h>
#include <sys/stat.h>

#include "buf.h"

struct sc_root {
	char *path;      /* realpath of the root, no trailing slash */
	size_t len;
	char *given;     /* the root as spelled, made absolute, normalised */
	size_t given_len;
};

/* -1 (with errno) when DIR cannot be resolved or is not a directory. */
int sc_root_init(struct sc_root *root, const char *dir);
void sc_root_release(struct sc_root *root);

enum sc_path_status {
	SC_PATH_OK = 0,
	SC_PATH_INVALID,         /* empty, or holds a NUL */
	SC_PATH_OUTSIDE,         /* outside the root as written */
	SC_PATH_ESCAPE,          /* a symlink leads outside the root */
	SC_PATH_TARGET_SYMLINK,  /* a write whose target is a symlink */
	SC_PATH_SPELLING,        /* a write spelled other than the file it reaches */
	SC_PATH_HARDLINK,        /* links outside the root, or too many to look */
	SC_PATH_ERROR,           /* a symlink loop, a file used as a directory, I/O */
};

#define SC_PATH_WRITE 1u

struct sc_path {
	char *rel;          /* canonical, root-relative; "" is the root itself */
	char *lexical;      /* root-relative as spelled, normalised */
	int exists;
	struct stat st;     /* lstat of the target when it exists */
	char **aliases;     /* other names of the same inode inside the root */
	size_t nr_aliases;
};

void sc_path_init(struct sc_path *p);
void sc_path_release(struct sc_path *p);

/*
 * Resolve PATH (LEN bytes), relative to CWD (root-relative, "" for the root)
 * unless absolute.  Returns an sc_path_status; OUT is filled as far as the
 * resolution got.
 */
int sc_path_resolve(const struct sc_root *root, const char *cwd,
		    const char *path, size_t len, unsigned flags,
		    struct sc_path *out);

/*
 * Normalise a relative PATH lexically ("." and empty components dropped,
 * ".." applied) into OUT.  -1 when ".." climbs above the start.
 */
int sc_path_normalize(const char *path, size_t len, struct sc_buf *out);

/*
 * Fold one path component (LEN bytes) for comparing protected names:
 * ASCII letters lowered; zero-width and other characters that file systems
 * ignore (HFS+, NTFS) dropped; fullwidth forms and Kelvin/long-s mapped to
 * ASCII; trailing dots and spaces dropped (NTFS); the 8.3 name "git~1"
 * read as ".git".
 */
void sc_path_fold(const char *comp, size_t len, struct sc_buf *out);

/* Every component of root-relative REL folded, into OUT (reset first). */
void sc_path_fold_rel(const char *rel, struct sc_buf *out);

/*
 * 1 when absolute PATH is DIR itself or lies beneath it, compared
 * lexically and component by component (neither is resolved: give
 * realpaths or normalised paths).  Equal counts as beneath: a caller
 * that wants strictly below tests strcmp as well.  A trailing slash on
 * either side is ignored; DIR "/" holds every absolute path; a sibling
 * sharing a prefix ("/a/bc" for DIR "/a/b") is never beneath.
 */
int sc_path_is_beneath(const char *path, const char *dir);

/*
 * The same test, giving what PATH holds below DIR with its leading
 * slashes skipped ("" when PATH is DIR), or NULL when it is not beneath.
 */
const char *sc_path_below(const char *path, const char *dir);

/*
 * 1 when REL (LEN bytes) is a plain relative path as written: not empty,
 * and no component empty, "." or "..", so no leading, trailing or doubled
 * slash either.  Lexical only; nothing is resolved.
 */
int sc_path_plain(const char *rel, size_t len);

/* A short name for STATUS, for reasons. */
const char *sc_path_status_text(int status);

#endif
