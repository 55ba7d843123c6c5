#ifndef SC_WALK_H
#define SC_WALK_H

/*
 * A walk of a directory tree inside the worktree, for judging the files a
 * command's actions could reach (find -exec, fd -x).  Entries come in a
 * fixed order (each directory's names sorted bytewise, a directory before
 * what it holds), so the same tree always gives the same verdict.
 * Symlinks are reported, never followed; the walk never leaves the start
 * directory, which the caller resolved inside the root.  A budget bounds
 * the entries visited: a tree too big to judge one by one is reported as
 * such, never judged in part.
 */

#include <stddef.h>
#include <sys/stat.h>

struct sc_walk_entry {
	const char *rel;    /* root-relative path, "" for the root itself */
	const char *name;   /* its last component, as the directory holds it */
	size_t depth;       /* 0 for the start directory */
	struct stat st;     /* lstat of the entry */
};

/* Return 0 to go on, 1 not to descend into this directory, -1 to stop. */
typedef int (*sc_walk_fn)(const struct sc_walk_entry *e, void *arg);

/* The most entries a walk visits before it gives up. */
#define SC_WALK_BUDGET 100000
/* The deepest a walk descends below its start. */
#define SC_WALK_MAX_DEPTH 64

/*
 * Walk ROOT/START (START root-relative, "" for the root), calling FN for
 * each entry down to MAXDEPTH levels below START.  *BUDGET is decreased
 * per entry.  Returns 0 when done or stopped by FN, 1 when the budget or
 * SC_WALK_MAX_DEPTH ran out (the walk is then incomplete), -1 when START
 * does not exist.  A START that is not a directory is the one entry.
 */
int sc_walk(const char *root, const char *start, size_t maxdepth,
	    size_t *budget, sc_walk_fn fn, void *arg);

#endif
