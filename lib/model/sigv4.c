/*
 * AWS Signature Version 4: canonical request, string to sign, the derived
 * key, the signature.  The steps follow AWS's "Create a signed AWS API
 * request" in order; each function is one of them.
 */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <string.h>
#include <time.h>

#include "encode.h"
#include "sigv4.h"

void sc_sigv4_encode(struct sc_buf *out, const char *s, size_t len,
		     int keep_slash)
{
	static const char upper[] = "0123456789ABCDEF";
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		    c == '.' || c == '~' || (keep_slash && c == '/')) {
			sc_buf_addch(out, c);
		} else {
			sc_buf_addch(out, '%');
			sc_buf_addch(out, upper[c >> 4]);
			sc_buf_addch(out, upper[c & 15]);
		}
	}
}

static void signed_headers(const struct sc_sigv4_request *r,
			   struct sc_buf *out)
{
	size_t i;

	for (i = 0; i < r->headers_nr; i++) {
		if (i)
			sc_buf_addch(out, ';');
		sc_buf_adds(out, r->headers[i].name);
	}
}

/*
 * Step 1.  The path is encoded again over its sent form (every service but
 * S3); the payload is hashed whole.
 */
void sc_sigv4_canonical(const struct sc_sigv4_request *r, struct sc_buf *out)
{
	unsigned char md[SHA256_DIGEST_LENGTH];
	size_t i;

	sc_buf_adds(out, r->method);
	sc_buf_addch(out, '\n');
	sc_sigv4_encode(out, r->path, strlen(r->path), 1);
	sc_buf_addch(out, '\n');
	sc_buf_adds(out, r->query ? r->query : "");
	sc_buf_addch(out, '\n');
	for (i = 0; i < r->headers_nr; i++)
		sc_buf_addf(out, "%s:%s\n", r->headers[i].name,
			    r->headers[i].value);
	sc_buf_addch(out, '\n');
	signed_headers(r, out);
	sc_buf_addch(out, '\n');
	SHA256(r->payload ? r->payload : (const void *)"", r->payload_len, md);
	sc_hex_encode(out, md, sizeof(md), 0);
}

static int hmac(const void *key, size_t keylen, const char *data,
		unsigned char out[SHA256_DIGEST_LENGTH])
{
	unsigned int n = 0;

	return HMAC(EVP_sha256(), key, (int)keylen, (const unsigned char *)data,
		    strlen(data), out, &n) && n == SHA256_DIGEST_LENGTH ? 0 : -1;
}

/* Step 3: kSigning = HMAC chain from "AWS4" + secret over the scope. */
static int signing_key(const struct sc_sigv4_request *r, const char *date,
		       unsigned char key[SHA256_DIGEST_LENGTH])
{
	struct sc_buf k0 = SC_BUF_INIT;
	unsigned char a[SHA256_DIGEST_LENGTH];
	int ret;

	sc_buf_adds(&k0, "AWS4");
	sc_buf_adds(&k0, r->secret);
	ret = hmac(k0.data, k0.len, date, a);
	ret = ret ? ret : hmac(a, sizeof(a), r->region, key);
	ret = ret ? ret : hmac(key, SHA256_DIGEST_LENGTH, r->service, a);
	ret = ret ? ret : hmac(a, sizeof(a), "aws4_request", key);
	explicit_bzero(a, sizeof(a));
	sc_buf_wipe(&k0);
	return ret;
}

int sc_sigv4_authorization(const struct sc_sigv4_request *r,
			   struct sc_buf *out)
{
	struct sc_buf canon = SC_BUF_INIT, sts = SC_BUF_INIT;
	unsigned char md[SHA256_DIGEST_LENGTH], key[SHA256_DIGEST_LENGTH];
	char date[9];
	int ret;

	if (strlen(r->amz_date) != 16)
		return -1;
	memcpy(date, r->amz_date, 8);
	date[8] = '\0';
	/* Step 2: the string to sign. */
	sc_sigv4_canonical(r, &canon);
	SHA256((const unsigned char *)canon.data, canon.len, md);
	sc_buf_addf(&sts, "AWS4-HMAC-SHA256\n%s\n%s/%s/%s/aws4_request\n",
		    r->amz_date, date, r->region, r->service);
	sc_hex_encode(&sts, md, sizeof(md), 0);
	ret = signing_key(r, date, key);
	/* Step 4: the signature, and the header that carries it. */
	if (!ret)
		ret = hmac(key, sizeof(key), sts.data, md);
	if (!ret) {
		sc_buf_addf(out, "AWS4-HMAC-SHA256 Credential=%s/%s/%s/%s/"
			    "aws4_request, SignedHeaders=", r->key_id, date,
			    r->region, r->service);
		signed_headers(r, out);
		sc_buf_adds(out, ", Signature=");
		sc_hex_encode(out, md, sizeof(md), 0);
	}
	explicit_bzero(key, sizeof(key));
	sc_buf_release(&canon);
	sc_buf_release(&sts);
	return ret;
}

void sc_sigv4_date(long long when, char out[17])
{
	time_t t = (time_t)when;
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(out, 17, "%Y%m%dT%H%M%SZ", &tm))
		strcpy(out, "19700101T000000Z");
}
