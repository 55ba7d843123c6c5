#ifndef SC_INCLUDE_H
#define SC_INCLUDE_H

/*
 * Included files: the git-ignored files of the person's checkout an
 * attempt's worktree needs for its checks (.env.test, a test key),
 * selected by gitignore-style patterns (speccoder.conf's worktree.include,
 * and .worktreeinclude of the commit the attempt starts from, never of
 * the worktree) and copied in at the start of each run and task.
 *
 * What is trusted and what is not:
 *   - the patterns come from the person's configuration and from a git
 *     object of HEAD's tree (a regular blob of at most 1 MiB), read with
 *     libgit2; the worktree's own .worktreeinclude is never read;
 *   - a pattern with a ".." component or a leading "~" would reach outside
 *     the checkout (INCLUDE-ESCAPES), and one that selects a file HEAD
 *     tracks names a committed file, not a private one (INCLUDE-TRACKED):
 *     either refuses the whole list, nothing is copied;
 *   - only paths git ignores in the checkout are candidates (the caller's
 *     list, git ls-files -z --others --ignored --exclude-standard), each
 *     opened beneath the checkout with openat2(RESOLVE_BENEATH |
 *     RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV): a symlink anywhere on the
 *     path (INCLUDE-SYMLINK), what is not a regular file
 *     (INCLUDE-NOT-FILE) and a file over 1 MiB (INCLUDE-TOO-LARGE) are
 *     skipped, the others still copied;
 *   - a copy is written beneath the worktree (lib/filetool.h, never
 *     through a symlink the model left), with its owner's permission bits
 *     only (read and write always among them).
 *
 * The secrets each copied file holds (lib/mask/secrets.h,
 * sc_secrets_from_included) are written as type=secret records to the
 * SECRETS file (0600, replaced whole by a rename), for sc-mask --records.
 */

#include <stddef.h>

#include "io.h"

#define SC_INCLUDE_FILE_MAX ((size_t)1 << 20)   /* INCLUDE-TOO-LARGE */
#define SC_INCLUDE_FILES_MAX 1000               /* INCLUDE-TOO-MANY */

struct sc_include_opts {
	const char *dir;         /* the attempt's worktree: HEAD, the target */
	const char *from;        /* the person's checkout */
	const char *candidates;  /* NUL-separated paths git ignores in FROM */
	const char *patterns;    /* worktree.include, one pattern a line */
	size_t patterns_len;
	const char *secrets;     /* where the type=secret records go, or NULL */
	const char *to;          /* copy there instead of DIR's worktree (the
				  * held-out copy), or NULL */
	int dry_run;             /* select and check, copy nothing */
};

/*
 * Copy the selected files; write type=included, type=skipped and
 * type=refused records (sc-tree(1)) to OUT.  0 when every selected file
 * was copied; 1 when something was refused (a type=refused record: a bad
 * pattern or .worktreeinclude, nothing was copied) or skipped (a
 * type=skipped record: the others were copied); 4 and 5 as DESIGN.md
 * says.
 */
int sc_tree_include_run(const struct sc_include_opts *o, struct sc_output *out);

#endif
