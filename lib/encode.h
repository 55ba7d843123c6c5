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

/* The LEN bytes at DATA as 2 * LEN lower-case hex digits and a NUL. */
void sc_hex_into(char *hex, const void *data, size_t len);

/* The 32 bytes of a SHA-256 digest MD as 64 lower-case hex digits and a NUL. */
void sc_sha256_hex(const unsigned char md[32], char hex[65]);

/*
 * The base64 characters that depend only on DATA when DATA starts OFFSET
 * (0, 1 or 2) bytes into the encoded stream: the characters that also carry
 * bits of the bytes before or after are left out, so the result appears in
 * the base64 of any text holding DATA at that offset, padded or not.
 */
void sc_base64_window(struct sc_buf *out, const void *data, size_t len,
		      unsigned offset, int flags);

/*
 * Percent-encoding (RFC 3986): every byte but the unreserved ones
 * (A-Z a-z 0-9 - . _ ~) becomes %XX, in upper or lower case hex.  With
 * SC_PCT_FORM a space becomes '+' (application/x-www-form-urlencoded);
 * SC_PCT_SLASH keeps '/' (Python's quote()), SC_PCT_JS keeps ! ' ( ) *
 * (JavaScript's encodeURIComponent).
 */
enum { SC_PCT_UPPER = 1, SC_PCT_FORM = 2, SC_PCT_SLASH = 4, SC_PCT_JS = 8 };
void sc_percent_encode(struct sc_buf *out, const void *data, size_t len,
		       int flags);

/*
 * The inside of a JSON string holding DATA (no quotes).  By default only
 * what RFC 8259 requires is escaped: '"', '\\' and control bytes, as the
 * short escapes \b \f \n \r \t where they exist and \u00xx otherwise.
 * The flags give the spellings common encoders choose instead.
 */
enum {
	SC_JSON_SLASH = 1,  /* '/' as "\/" (PHP, some Java) */
	SC_JSON_ASCII = 2,  /* non-ASCII UTF-8 as \uXXXX (Python's default) */
	SC_JSON_HTML = 4,   /* '<' '>' '&' as \u003c... (Go's default) */
	SC_JSON_UPPER = 8,  /* \u00XX hex digits in upper case */
};
void sc_json_escape(struct sc_buf *out, const void *data, size_t len,
		    int flags);

/*
 * Decode one multi-byte UTF-8 sequence at P (N > 0 bytes available, P[0]
 * at least 0x80) into *CP.  Returns its length, or 0 when the bytes are not
 * well-formed UTF-8 (overlong forms, surrogates and values past U+10FFFF
 * included).
 */
size_t sc_utf8_decode(const unsigned char *p, size_t n, unsigned *cp);

#endif
