#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "alloc.h"
#include "buf.h"

void sc_buf_init(struct sc_buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void sc_buf_release(struct sc_buf *b)
{
	free(b->data);
	sc_buf_init(b);
}

void sc_buf_wipe(struct sc_buf *b)
{
	if (b->data) {
		/* explicit_bzero is not in C11; a volatile walk is not elided. */
		volatile char *p = b->data;
		size_t i;

		for (i = 0; i < b->cap; i++)
			p[i] = 0;
	}
	sc_buf_release(b);
}

void sc_buf_grow(struct sc_buf *b, size_t extra)
{
	size_t need = sc_st_add(sc_st_add(b->len, extra), 1);
	size_t n;

	if (need <= b->cap)
		return;
	n = sc_st_add(b->cap, b->cap / 2);
	if (n < need)
		n = need;
	if (n < 64)
		n = 64;
	b->data = sc_xrealloc(b->data, n);
	b->cap = n;
	b->data[b->len] = '\0';
}

void sc_buf_reset(struct sc_buf *b)
{
	sc_buf_setlen(b, 0);
}

void sc_buf_setlen(struct sc_buf *b, size_t len)
{
	if (!b->data) {
		if (len)
			sc_buf_grow(b, len);
		else
			return;
	}
	b->len = len;
	b->data[len] = '\0';
}

void sc_buf_add(struct sc_buf *b, const void *data, size_t len)
{
	sc_buf_grow(b, len);
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void sc_buf_addch(struct sc_buf *b, int c)
{
	char ch = (char)c;

	sc_buf_add(b, &ch, 1);
}

void sc_buf_adds(struct sc_buf *b, const char *s)
{
	sc_buf_add(b, s, strlen(s));
}

void sc_buf_addf(struct sc_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sc_buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sc_buf_consume(struct sc_buf *b, size_t n)
{
	if (n >= b->len) {
		sc_buf_reset(b);
		return;
	}
	memmove(b->data, b->data + n, b->len - n);
	sc_buf_setlen(b, b->len - n);
}

char *sc_buf_detach(struct sc_buf *b, size_t *len)
{
	char *data;

	if (!b->data)
		sc_buf_grow(b, 0);
	data = b->data;
	if (len)
		*len = b->len;
	sc_buf_init(b);
	return data;
}
