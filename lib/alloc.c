#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"

static void *check(void *p)
{
	if (!p)
		sc_die(SC_EXIT_INTERNAL, "OUT-OF-MEMORY", "out of memory");
	return p;
}

void *sc_xmalloc(size_t size)
{
	return check(malloc(size ? size : 1));
}

void *sc_xcalloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *sc_xrealloc(void *ptr, size_t size)
{
	return check(realloc(ptr, size ? size : 1));
}

char *sc_xstrdup(const char *s)
{
	return sc_xmemdup(s, strlen(s));
}

char *sc_xmemdup(const void *p, size_t len)
{
	char *copy = sc_xmalloc(sc_st_add(len, 1));

	if (len)
		memcpy(copy, p, len);
	copy[len] = '\0';
	return copy;
}

size_t sc_st_add(size_t a, size_t b)
{
	if (SIZE_MAX - a < b)
		sc_die(SC_EXIT_INTERNAL, "SIZE-OVERFLOW",
		       "size overflow: %zu + %zu", a, b);
	return a + b;
}

size_t sc_st_mult(size_t a, size_t b)
{
	if (a && SIZE_MAX / a < b)
		sc_die(SC_EXIT_INTERNAL, "SIZE-OVERFLOW",
		       "size overflow: %zu * %zu", a, b);
	return a * b;
}

void sc_grow_array(void **array, size_t *alloc, size_t need, size_t elemsz)
{
	size_t n;

	if (need <= *alloc)
		return;
	n = sc_st_add(*alloc, *alloc / 2);
	if (n < need)
		n = need;
	if (n < 16)
		n = 16;
	*array = sc_xrealloc(*array, sc_st_mult(n, elemsz));
	*alloc = n;
}
