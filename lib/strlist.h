#ifndef SC_STRLIST_H
#define SC_STRLIST_H

/*
 * A growable list of owned C strings, kept NULL-terminated so that V can
 * be handed to execve(2) or a NULL-ended walk.  The same type serves as a
 * set: sort it once, then ask sc_strlist_has (a binary search).  Zero
 * initialised ({ 0 }) is the empty list.
 */

#include <stddef.h>

struct sc_strlist {
	char **v;   /* NULL-terminated when nr > 0 */
	size_t nr, alloc;
};

/* Append a copy of S (or of LEN bytes at S, which need no NUL). */
void sc_strlist_add(struct sc_strlist *l, const char *s);
void sc_strlist_addn(struct sc_strlist *l, const char *s, size_t len);
/* Sort by strcmp(3), for sc_strlist_has. */
void sc_strlist_sort(struct sc_strlist *l);
/* 1 when the sorted list L holds S. */
int sc_strlist_has(const struct sc_strlist *l, const char *s);
/* 1 when S is one of the strings of LIST, a NULL-ended table (unsorted). */
int sc_str_in_list(const char *s, const char *const *list);
void sc_strlist_release(struct sc_strlist *l);

/*
 * The names in the directory open as DFD into the empty list NAMES, "."
 * and ".." left out, in byte order, so every walk sees a tree in one order
 * whatever the file system returns.  DFD stays open and unmoved.  At most
 * MAX names are read (a directory can hold millions; SIZE_MAX for all):
 * 1 when more were left, 0 when NAMES holds them all, -1 with errno set
 * (NAMES then empty).
 */
int sc_dir_list(int dfd, size_t max, struct sc_strlist *names);

#endif
