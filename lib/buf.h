#ifndef SC_BUF_H
#define SC_BUF_H

/*
 * A growable byte buffer.  Invariant: data is NULL when cap is 0, otherwise
 * data[len] == '\0', so the contents can be used as a C string when they
 * hold no NUL.  Initialise with SC_BUF_INIT or sc_buf_init; release with
 * sc_buf_release (or sc_buf_wipe when it held a secret).
 */

#include <stdarg.h>
#include <stddef.h>

struct sc_buf {
	char *data;
	size_t len;
	size_t cap;
};

#define SC_BUF_INIT { NULL, 0, 0 }

void sc_buf_init(struct sc_buf *b);
void sc_buf_release(struct sc_buf *b);
/* Zero the bytes before freeing them: for buffers that held secrets. */
void sc_buf_wipe(struct sc_buf *b);
/* Make room for EXTRA more bytes (plus the terminating NUL). */
void sc_buf_grow(struct sc_buf *b, size_t extra);
void sc_buf_reset(struct sc_buf *b);
void sc_buf_setlen(struct sc_buf *b, size_t len);
void sc_buf_add(struct sc_buf *b, const void *data, size_t len);
void sc_buf_addch(struct sc_buf *b, int c);
void sc_buf_adds(struct sc_buf *b, const char *s);
void sc_buf_addf(struct sc_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Drop the first N bytes, keeping the rest. */
void sc_buf_consume(struct sc_buf *b, size_t n);
/* Hand the storage to the caller (never NULL) and reset B. */
char *sc_buf_detach(struct sc_buf *b, size_t *len);

#endif
