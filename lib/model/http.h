#ifndef SC_HTTP_H
#define SC_HTTP_H

/*
 * One HTTP POST to a model provider (or a GET of credentials), over
 * libcurl, with the network behaviour sc-model(1) promises:
 *
 *  - each attempt is bounded by a timeout; a timed-out attempt is final;
 *  - 429, 5xx and dropped connections (refused, reset, cut short) are
 *    retried up to RETRIES times with exponential backoff and jitter, or
 *    after the server's Retry-After when it sends one;
 *  - 401 and 403 are final (SC_HTTP_AUTH);
 *  - TLS peers are always verified, redirects are never followed, only
 *    http and https are spoken, proxies come from the standard variables
 *    (but a loopback URL never goes through one: it may be plain http);
 *  - the secret header is copied into libcurl's list and wiped from it
 *    after the transfer; verbose output is never switched on, so the key
 *    cannot reach a log.
 *
 * Nothing here prints a URL, a header or a body: diagnostics are the
 * caller's, from the status and the fixed reason this module gives.
 */

#include <stddef.h>

#include "buf.h"

/* The largest response body kept: a reply bigger than this is refused. */
#define SC_HTTP_BODY_MAX ((size_t)16 << 20)

struct sc_http_opts {
	unsigned long timeout_ms;      /* per attempt */
	unsigned long retries;         /* extra attempts after the first */
	unsigned long backoff_ms;      /* first backoff; doubles each time */
	unsigned long backoff_max_ms;  /* cap on one wait, Retry-After too */
};

enum sc_http_status {
	SC_HTTP_OK = 0,          /* a 2xx answer; the body is in resp->body */
	SC_HTTP_AUTH = -1,       /* 401 or 403 */
	SC_HTTP_STATUS = -2,     /* another non-2xx answer (after retries) */
	SC_HTTP_NETWORK = -3,    /* no answer: refused, dropped, cut short */
	SC_HTTP_TIMEOUT = -4,    /* an attempt ran past its timeout */
	SC_HTTP_TOO_LARGE = -5,  /* the body passed SC_HTTP_BODY_MAX */
	SC_HTTP_SETUP = -6,      /* libcurl could not be set up */
	SC_HTTP_STREAM_BAD = -7, /* the stream's reader refused it (final) */
};

/*
 * A 2xx answer read as it arrives: its bytes go to FEED instead of the
 * body.  RESET starts each attempt (a retry reads from nothing); FEED
 * returns 0, SC_HTTP_FEED_BAD (final: SC_HTTP_STREAM_BAD) or
 * SC_HTTP_FEED_RETRY (the provider's error mid-stream, retried like a
 * 5xx, its word in ERROR_TYPE); DONE, after a clean end, says whether the
 * stream was whole (one that was not is a dropped connection, retried).
 */
enum { SC_HTTP_FEED_BAD = -1, SC_HTTP_FEED_RETRY = -2 };

struct sc_http_stream {
	void (*reset)(void *ctx);
	int (*feed)(void *ctx, const char *content_type, const char *data,
		    size_t len);
	int (*done)(void *ctx);
	const char *(*error_type)(void *ctx);
	void *ctx;
};

struct sc_http_response {
	long code;               /* the last HTTP status, 0 when none */
	struct sc_buf body;      /* the last body */
	unsigned long attempts;
	/*
	 * The last answer's x-amzn-ErrorType (AWS's error name, cut at ':'),
	 * when it is a short word of [A-Za-z0-9_.-]; "" otherwise.
	 */
	char error_type[64];
	char why[128];           /* a fixed reason for NETWORK/TIMEOUT/SETUP */
};

void sc_http_response_init(struct sc_http_response *r);
void sc_http_response_release(struct sc_http_response *r);

/*
 * POST BODY (LEN bytes) to URL with the HEADERS (NULL-terminated "Name:
 * value" lines, none secret) and the SECRETS_NR lines of SECRETS ("Name:
 * value" lines holding a key or a signature; empty ones are skipped).
 * Returns an sc_http_status.
 */
int sc_http_post(const char *url, const char *const *headers,
		 const struct sc_buf *secrets, size_t secrets_nr,
		 const char *body, size_t len, const struct sc_http_opts *opts,
		 struct sc_http_response *resp);

/*
 * A GET of URL (BODY NULL below, for a credentials endpoint), with the
 * same headers, secrets and behaviour as sc_http_post.
 */
int sc_http_get(const char *url, const char *const *headers,
		const struct sc_buf *secrets, size_t secrets_nr,
		const struct sc_http_opts *opts, struct sc_http_response *resp);

/* The same, a 2xx answer going to STREAM (see above) instead of the body. */
int sc_http_post_stream(const char *url, const char *const *headers,
			const struct sc_buf *secrets, size_t secrets_nr,
			const char *body, size_t len,
			const struct sc_http_opts *opts,
			const struct sc_http_stream *stream,
			struct sc_http_response *resp);

/*
 * The wait before retry ATTEMPT+1 (ATTEMPT from 0) with random bits R:
 * backoff_ms doubled ATTEMPT times, capped at backoff_max_ms, then a
 * jittered point between half of it and all of it, so clients that failed
 * together do not come back together.
 */
unsigned long sc_http_backoff(const struct sc_http_opts *o,
			      unsigned long attempt, unsigned int r);

/* 1 when URL is http(s) to a loopback host (127.0.0.0/8, ::1, localhost). */
int sc_http_url_is_loopback(const char *url);
/*
 * 1 when S may be a secret header's value: visible ASCII only, so a key
 * cannot smuggle CR/LF (another header) into a request.
 */
int sc_http_header_value_ok(const char *s);

/* 1 when URL starts with https:// (any case). */
int sc_http_url_is_https(const char *url);

#endif
