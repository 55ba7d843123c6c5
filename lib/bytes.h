#ifndef SC_BYTES_H
#define SC_BYTES_H

/*
 * Reading a binary wire format front to back without running off its end:
 * the SSH format of keys and signatures (RFC 4251) and a TLS ClientHello
 * (RFC 8446) are both lengths followed by that many bytes.  Every read
 * checks what is left first; nothing is copied.
 */

#include <stddef.h>

struct sc_bytes {
	const unsigned char *p;   /* the next unread byte */
	size_t len;               /* how many are left */
};

/* Take N bytes (*OUT points at them, when OUT is not NULL).  0 or -1. */
int sc_bytes_take(struct sc_bytes *b, size_t n, const unsigned char **out);
/* A big-endian unsigned number of WIDTH bytes (at most sizeof(size_t)). */
int sc_bytes_uint(struct sc_bytes *b, size_t width, size_t *v);
/* A WIDTH-byte big-endian length and that many bytes, as V. */
int sc_bytes_vec(struct sc_bytes *b, size_t width, struct sc_bytes *v);

#endif
