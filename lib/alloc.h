#ifndef SC_ALLOC_H
#define SC_ALLOC_H

/*
 * Allocation that cannot fail: out of memory ends the process with exit 5
 * and error[OUT-OF-MEMORY], so callers stay straight-line.  Size arithmetic
 * goes through sc_st_add/sc_st_mult, which die on overflow instead of
 * wrapping into a small allocation.
 */

#include <stddef.h>

void *sc_xmalloc(size_t size);
void *sc_xcalloc(size_t nmemb, size_t size);
void *sc_xrealloc(void *ptr, size_t size);
char *sc_xstrdup(const char *s);
char *sc_xmemdup(const void *p, size_t len); /* NUL-terminated copy */

size_t sc_st_add(size_t a, size_t b);
size_t sc_st_mult(size_t a, size_t b);

/* Grow *ARRAY (of *ALLOC elements of ELEMSZ) so it holds at least NEED. */
void sc_grow_array(void **array, size_t *alloc, size_t need, size_t elemsz);
#define SC_ALLOC_GROW(array, need, alloc) \
	sc_grow_array((void **)&(array), &(alloc), (need), sizeof(*(array)))

#endif
