#ifndef SC_SIGV4_H
#define SC_SIGV4_H

/*
 * AWS Signature Version 4 (header form), for Amazon Bedrock.
 *
 * Written here over OpenSSL rather than taken from libcurl's
 * CURLOPT_AWS_SIGV4: libcurl (up to at least 7.88) puts the request path
 * into the canonical request as it is sent, while every AWS service but
 * S3 encodes it once more.  Bedrock's model ids hold ':' ("...-v1:0"), sent
 * as %3A and signed as %253A; libcurl's signature is refused for them.
 *
 * The signing key is derived from the secret on each call and wiped; the
 * result holds the signature only, never the secret.
 */

#include <stddef.h>

#include "buf.h"

struct sc_sigv4_header {
	const char *name;     /* lowercase */
	const char *value;    /* trimmed, as sent */
};

struct sc_sigv4_request {
	const char *method;           /* "POST" */
	const char *path;             /* as sent: already percent-encoded */
	const char *query;            /* canonical (sorted, encoded), or "" */
	const struct sc_sigv4_header *headers;   /* sorted by name */
	size_t headers_nr;
	const void *payload;
	size_t payload_len;
	const char *region;
	const char *service;
	const char *amz_date;         /* YYYYMMDDTHHMMSSZ, as in x-amz-date */
	const char *key_id;
	const char *secret;
};

/*
 * Append RFC 3986 percent-encoding of S (LEN bytes) to OUT: every byte but
 * A-Z a-z 0-9 - _ . ~ (and '/' when KEEP_SLASH) becomes %XX, upper case.
 */
void sc_sigv4_encode(struct sc_buf *out, const char *s, size_t len,
		     int keep_slash);

/*
 * Append the canonical request of R to OUT (for tests and diagnostics of
 * the algorithm; it holds no secret).
 */
void sc_sigv4_canonical(const struct sc_sigv4_request *r, struct sc_buf *out);

/*
 * Append the Authorization header's value for R to OUT:
 * "AWS4-HMAC-SHA256 Credential=KEYID/DATE/REGION/SERVICE/aws4_request,
 * SignedHeaders=..., Signature=HEX".  -1 when OpenSSL fails or amz_date is
 * not 16 characters.
 */
int sc_sigv4_authorization(const struct sc_sigv4_request *r,
			   struct sc_buf *out);

/* Write the x-amz-date form of WHEN (UTC) into OUT (17 bytes). */
void sc_sigv4_date(long long when, char out[17]);

#endif
