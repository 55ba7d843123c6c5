#ifndef SC_PATTERN_H
#define SC_PATTERN_H

/*
 * gitignore-style patterns, for the files sc-hash-git --protect names.
 *
 * A list is read one pattern a line, as gitignore(5) reads it:
 *   - blank lines and lines starting with '#' are skipped ("\#" is a '#');
 *   - trailing spaces are dropped unless escaped with '\';
 *   - a leading '!' negates the pattern ("\!" is a literal '!');
 *   - a trailing '/' makes the pattern match directories only;
 *   - a pattern holding a '/' (other than a trailing one) is matched against
 *     the whole root-relative path (a leading '/' is dropped); otherwise
 *     against the last component, at any depth;
 *   - '*' and '?' never match '/', "[...]" is a set (with "[:alpha:]"
 *     classes), '\' escapes, and "**" between slashes (or at either end)
 *     matches any number of directories.
 *
 * Unlike gitignore, a line that could never match anything (a lone "!" or
 * "/", an unterminated "[", a trailing lone '\', an unknown "[:class:]", a
 * NUL byte) is an error: a typo in a list of files to protect must not
 * silently protect nothing.
 *
 * Matching: a path matches when the last pattern that matches it (or, when
 * none does, the last pattern that matches its nearest ancestor directory)
 * is not negated.  So "specs/" protects everything under specs/, and a later
 * "!specs/scratch.md" takes one file back out.
 */

#include <stddef.h>

struct sc_pattern {
	char *text;      /* the glob, without '!', leading '/' or trailing '/' */
	int negate;      /* "!pattern" */
	int dir_only;    /* "pattern/" */
	int anchored;    /* matched against the whole path */
	unsigned line;   /* where it was written, for messages */
};

struct sc_patterns {
	struct sc_pattern *v;
	size_t nr, alloc;
};

struct sc_pattern_error {
	unsigned line;    /* 1-based line of the bad pattern */
	const char *what; /* a fixed text, never input bytes */
};

void sc_patterns_init(struct sc_patterns *list);
void sc_patterns_release(struct sc_patterns *list);

/*
 * Append the patterns of TEXT (LEN bytes, lines ending in '\n').  Returns 0,
 * or -1 with *ERR filled (patterns before the bad line stay added).
 */
int sc_patterns_parse(struct sc_patterns *list, const char *text, size_t len,
		      struct sc_pattern_error *err);

/*
 * Lower every ASCII letter of LIST's patterns, to match paths folded by
 * sc_path_fold_rel (paths.h): "Makefile" then selects "MAKEFILE" too.
 */
void sc_patterns_fold(struct sc_patterns *list);

/* The most patterns and the longest line a list may hold (a hostile or
 * mistaken file must not make every path cost millions of comparisons). */
#define SC_PATTERNS_MAX 10000
#define SC_PATTERN_LINE_MAX 4096

/*
 * wildmatch: 1 when TEXT matches the glob PATTERN.  With PATHNAME, '*', '?'
 * and sets never match '/', and "**" behaves as described above; without it
 * '/' is an ordinary character.
 */
int sc_wildmatch(const char *pattern, const char *text, int pathname);

/* 0 when PATTERN is a well-formed glob, -1 (with *WHAT set) otherwise. */
int sc_glob_check(const char *pattern, const char **what);

/*
 * Decide a root-relative PATH ('/'-separated, no leading '/', no "." or ".."
 * components).  IS_DIR says whether PATH itself is a directory.  Returns 1
 * when the list selects it, 0 when not.
 */
int sc_patterns_match(const struct sc_patterns *list, const char *path,
		      int is_dir);

/*
 * The verdict of the patterns that match PATH itself: 1 selected, 0 taken
 * back out by a negated pattern, -1 when no pattern matches it (the nearest
 * ancestor's verdict then applies).  For walkers that carry the ancestor's
 * verdict down instead of recomputing it for every file.
 */
int sc_patterns_decide(const struct sc_patterns *list, const char *path,
		       int is_dir);

#endif
