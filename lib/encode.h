#ifndef SC_ENCODE_H
#define SC_ENCODE_H

/*
 * Byte encodings: base64 (RFC 4648, standard and URL-safe alphabets, with
 * or without padding) and hex.  Decoders are strict: one spelling per byte
 * string, so decode(encode(x)) == x and encode(decode(s)) == s.
 */

#include <stddef.h>

#include "buf.h"

enum {
	SC_B64_URL = 1,    /* '-' and '_' instead of '+' and '/' */
	SC_B64_NOPAD = 2,  /* no trailing '=' */
};

void sc_base64_encode(struct sc_buf *out, const void *data, size_t len,
		      int flags);
/*
 * Decode standard, padded base64.  Returns 0, or -1 when TEXT is not the
 * canonical encoding of some bytes (OUT then holds an unspecified prefix).
 */
int sc_base64_decode(struct sc_buf *out, const char *text, size_t len);

void sc_hex_encode(struct sc_buf *out, const void *data, size_t len,
		   int upper);

#endif
