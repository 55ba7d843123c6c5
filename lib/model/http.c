/*
 * HTTP POST with timeouts and retries, over libcurl.  See http.h for the
 * promises; the comments here say why each setting is what it is.
 */
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>

#include "alloc.h"
#include "http.h"

#ifndef SC_VERSION
#define SC_VERSION "0"
#endif

void sc_http_response_init(struct sc_http_response *r)
{
	memset(r, 0, sizeof(*r));
	sc_buf_init(&r->body);
}

void sc_http_response_release(struct sc_http_response *r)
{
	/* A body may hold credentials (IAM Identity Center's answer). */
	sc_buf_wipe(&r->body);
	memset(r, 0, sizeof(*r));
}

struct sink {
	struct sc_buf *body;
	int too_large;
	char *error_type;   /* resp->error_type */
	const struct sc_http_stream *stream;
	CURL *h;
	int decided;        /* this attempt's status is known */
	int streaming;      /* ... and it is a 2xx going to the stream */
	int feed_status;    /* what the stream's reader last said */
	unsigned long idle_ms;          /* streams: the longest silence */
	long long last_ms;              /* when the server last sent bytes */
	int idle;                       /* the silence was too long */
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Streams: libcurl calls this about once a second whatever happens, so a
 * server silent past the timeout (before its headers too) ends the attempt.
 */
static int check_idle(void *ctx, curl_off_t dt, curl_off_t dn, curl_off_t ut,
		      curl_off_t un)
{
	struct sink *s = ctx;

	(void)dt, (void)dn, (void)ut, (void)un;
	if (now_ms() - s->last_ms > (long long)s->idle_ms) {
		s->idle = 1;
		return 1;
	}
	return 0;
}

/*
 * A 2xx answer goes to the stream's reader when there is one; an error
 * answer is kept whole, as without a stream, for its status and type.
 */
static size_t write_body(char *data, size_t size, size_t nmemb, void *ctx)
{
	struct sink *s = ctx;
	size_t n = size * nmemb;  /* libcurl guarantees this cannot overflow */

	s->last_ms = now_ms();
	if (s->stream && !s->decided) {
		long code = 0;

		curl_easy_getinfo(s->h, CURLINFO_RESPONSE_CODE, &code);
		s->streaming = code >= 200 && code < 300;
		s->decided = 1;
	}
	if (s->streaming) {
		char *ct = NULL;

		if (curl_easy_getinfo(s->h, CURLINFO_CONTENT_TYPE, &ct) != CURLE_OK)
			ct = NULL;
		s->feed_status = s->stream->feed(s->stream->ctx, ct, data, n);
		return s->feed_status ? 0 : n;
	}
	if (s->body->len + n > SC_HTTP_BODY_MAX) {
		s->too_large = 1;
		return 0;   /* aborts the transfer with CURLE_WRITE_ERROR */
	}
	sc_buf_add(s->body, data, n);
	return n;
}

/*
 * AWS names its errors in a header (x-amzn-ErrorType: Name:namespace);
 * the body has only a message, which may echo the request.
 */
static size_t read_header(char *data, size_t size, size_t nmemb, void *ctx)
{
	static const char name[] = "x-amzn-errortype:";
	struct sink *s = ctx;
	size_t n = size * nmemb, i, w;

	s->last_ms = now_ms();
	if (n <= sizeof(name) - 1 || strncasecmp(data, name, sizeof(name) - 1))
		return n;
	for (i = sizeof(name) - 1; i < n && data[i] == ' '; i++)
		;
	w = 0;
	while (i + w < n && w < 63 &&
	       strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789_.-", data[i + w]) && data[i + w])
		w++;
	memcpy(s->error_type, data + i, w);
	s->error_type[w] = '\0';
	return n;
}

/* Zero every header string libcurl's list holds before it frees them. */
static void wipe_list(struct curl_slist *list)
{
	for (; list; list = list->next)
		explicit_bzero(list->data, strlen(list->data));
}

static struct curl_slist *append(struct curl_slist *list, const char *h)
{
	struct curl_slist *next = curl_slist_append(list, h);

	if (!next) {
		wipe_list(list);
		curl_slist_free_all(list);
	}
	return next;
}

static struct curl_slist *build_headers(const char *const *headers,
					const struct sc_buf *secrets,
					size_t secrets_nr)
{
	struct curl_slist *list = NULL;
	size_t i;

	/* No "Expect: 100-continue": one round trip, one request to record. */
	list = append(list, "Expect:");
	if (list)
		list = append(list, "Content-Type: application/json");
	for (i = 0; list && headers && headers[i]; i++)
		list = append(list, headers[i]);
	for (i = 0; list && i < secrets_nr; i++)
		if (secrets[i].len)
			list = append(list, secrets[i].data);
	return list;
}

/*
 * Settings that hold for every request.  Verbose output stays off: it
 * would print the key header.  Redirects are refused: following one would
 * send the key to wherever the answer points.
 */
static int setup(CURL *h, const char *url, struct curl_slist *list,
		 const char *body, size_t len, const struct sc_http_opts *o,
		 struct sink *sink, char *errbuf)
{
	int bad = 0;

	bad |= curl_easy_setopt(h, CURLOPT_URL, url) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_VERBOSE, 0L) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_PROXY_SSL_VERIFYPEER, 1L) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_PROXY_SSL_VERIFYHOST, 2L) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_NETRC, (long)CURL_NETRC_IGNORED) != CURLE_OK;
	/* Threads and alarms: signals must not cut a transfer short. */
	bad |= curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L) != CURLE_OK;
	if (!sink->stream) {
		bad |= curl_easy_setopt(h, CURLOPT_TIMEOUT_MS,
					(long)o->timeout_ms) != CURLE_OK;
	} else {
		/*
		 * A streamed answer may rightly take many minutes: the limit is
		 * on silence (the providers send pings), and a day in all.
		 */
		sink->idle_ms = o->timeout_ms;
		bad |= curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, check_idle) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_XFERINFODATA, sink) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 86400000L) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
					(long)o->timeout_ms) != CURLE_OK;
	}
	bad |= curl_easy_setopt(h, CURLOPT_USERAGENT, "speccoder/" SC_VERSION) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_HTTPHEADER, list) != CURLE_OK;
	if (body) {
		bad |= curl_easy_setopt(h, CURLOPT_POSTFIELDS, body) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len) != CURLE_OK;
	} else {
		bad |= curl_easy_setopt(h, CURLOPT_HTTPGET, 1L) != CURLE_OK;
	}
	bad |= curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, write_body) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_WRITEDATA, sink) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, read_header) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_HEADERDATA, sink) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf) != CURLE_OK;
	/*
	 * Plain http is allowed only to loopback; through a proxy it would
	 * carry the key in clear to another host, so loopback goes direct.
	 */
	if (sc_http_url_is_loopback(url))
		bad |= curl_easy_setopt(h, CURLOPT_NOPROXY, "*") != CURLE_OK;
	return bad ? -1 : 0;
}

/* Transport failures that mean "the connection went away": retried. */
static int dropped(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

static void sleep_ms(unsigned long ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

unsigned long sc_http_backoff(const struct sc_http_opts *o,
			      unsigned long attempt, unsigned int r)
{
	unsigned long d = o->backoff_ms;

	while (attempt-- && d < o->backoff_max_ms)
		d *= 2;
	if (d > o->backoff_max_ms)
		d = o->backoff_max_ms;
	return d / 2 + (d / 2 ? r % (d / 2 + 1) : 0);
}

static unsigned long backoff(const struct sc_http_opts *o, unsigned long attempt)
{
	unsigned int r = 0;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		r = (unsigned int)time(NULL);
	return sc_http_backoff(o, attempt, r);
}

/* What one attempt came to, and whether another may follow. */
static int classify(CURLcode rc, long code, const struct sink *sink,
		    int *retry)
{
	*retry = 0;
	if (sink->feed_status == SC_HTTP_FEED_BAD)
		return SC_HTTP_STREAM_BAD;
	if (sink->feed_status == SC_HTTP_FEED_RETRY) {
		*retry = 1;
		return SC_HTTP_STATUS;
	}
	/* A stream that ended before its last event was cut: a drop. */
	if (rc == CURLE_OK && sink->streaming &&
	    !sink->stream->done(sink->stream->ctx)) {
		*retry = 1;
		return SC_HTTP_NETWORK;
	}
	if (rc == CURLE_OK) {
		if (code >= 200 && code < 300)
			return SC_HTTP_OK;
		if (code == 401 || code == 403)
			return SC_HTTP_AUTH;
		*retry = code == 429 || code >= 500;
		return SC_HTTP_STATUS;
	}
	if (sink->too_large)
		return SC_HTTP_TOO_LARGE;
	if (rc == CURLE_OPERATION_TIMEDOUT || sink->idle)
		return SC_HTTP_TIMEOUT;
	*retry = dropped(rc);
	return SC_HTTP_NETWORK;
}

/* libcurl's message, cut to fit. */
static void set_why(struct sc_http_response *resp, const char *text)
{
	size_t n = strnlen(text, sizeof(resp->why) - 1);

	memcpy(resp->why, text, n);
	resp->why[n] = '\0';
}

static int attempt_loop(CURL *h, const struct sc_http_opts *o,
			struct sink *sink, struct sc_http_response *resp,
			const char *errbuf)
{
	unsigned long n;
	int status = SC_HTTP_NETWORK;

	for (n = 0; n <= o->retries; n++) {
		curl_off_t after = 0;
		CURLcode rc;
		int retry;

		sc_buf_reset(sink->body);
		sink->too_large = 0;
		sink->error_type[0] = '\0';
		sink->decided = sink->streaming = sink->feed_status = 0;
		sink->idle = 0;
		sink->last_ms = now_ms();
		if (sink->stream)
			sink->stream->reset(sink->stream->ctx);
		resp->code = 0;
		resp->why[0] = '\0';   /* the reason of this attempt only */
		rc = curl_easy_perform(h);
		resp->attempts = n + 1;
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &resp->code);
		status = classify(rc, resp->code, sink, &retry);
		if (sink->feed_status == SC_HTTP_FEED_RETRY) {
			snprintf(resp->error_type, sizeof(resp->error_type), "%s",
				 sink->stream->error_type(sink->stream->ctx));
			set_why(resp, "the provider reported an error mid-stream");
		} else if (status == SC_HTTP_NETWORK && rc == CURLE_OK) {
			set_why(resp, "the stream ended before its last event");
		} else if (rc != CURLE_OK && !sink->feed_status) {
			set_why(resp, errbuf[0] ? errbuf : curl_easy_strerror(rc));
		}
		if (!retry || n == o->retries)
			break;
		if (curl_easy_getinfo(h, CURLINFO_RETRY_AFTER, &after) != CURLE_OK)
			after = 0;
		if (after > 0) {
			if ((unsigned long long)after * 1000 > o->backoff_max_ms) {
				snprintf(resp->why, sizeof(resp->why),
					 "the server asks to wait %lld s, longer "
					 "than sc-model waits", (long long)after);
				break;
			}
			sleep_ms((unsigned long)after * 1000);
		} else {
			sleep_ms(backoff(o, n));
		}
	}
	return status;
}

int sc_http_post(const char *url, const char *const *headers,
		 const struct sc_buf *secrets, size_t secrets_nr,
		 const char *body, size_t len, const struct sc_http_opts *opts,
		 struct sc_http_response *resp)
{
	return sc_http_post_stream(url, headers, secrets, secrets_nr, body, len,
				   opts, NULL, resp);
}

int sc_http_get(const char *url, const char *const *headers,
		const struct sc_buf *secrets, size_t secrets_nr,
		const struct sc_http_opts *opts, struct sc_http_response *resp)
{
	return sc_http_post_stream(url, headers, secrets, secrets_nr, NULL, 0,
				   opts, NULL, resp);
}

int sc_http_post_stream(const char *url, const char *const *headers,
			const struct sc_buf *secrets, size_t secrets_nr,
			const char *body, size_t len,
			const struct sc_http_opts *opts,
			const struct sc_http_stream *stream,
			struct sc_http_response *resp)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *list;
	struct sink sink = { &resp->body, 0, resp->error_type, stream, NULL,
			     0, 0, 0, 0, 0, 0 };
	CURL *h;
	int status;

	resp->why[0] = '\0';
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(resp->why, sizeof(resp->why), "libcurl cannot start");
		return SC_HTTP_SETUP;
	}
	h = curl_easy_init();
	sink.h = h;
	list = build_headers(headers, secrets, secrets_nr);
	if (!h || !list || setup(h, url, list, body, len, opts, &sink, errbuf) < 0) {
		snprintf(resp->why, sizeof(resp->why),
			 "libcurl cannot be set up for this request");
		status = SC_HTTP_SETUP;
	} else {
		status = attempt_loop(h, opts, &sink, resp, errbuf);
	}
	if (h)
		curl_easy_cleanup(h);
	wipe_list(list);
	curl_slist_free_all(list);
	curl_global_cleanup();
	return status;
}

static char *url_part(const char *url, CURLUPart part)
{
	CURLU *u = curl_url();
	char *value = NULL;

	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, part, &value, 0) != CURLUE_OK)
		value = NULL;
	curl_url_cleanup(u);
	return value;
}

int sc_http_header_value_ok(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x21 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

int sc_http_url_is_https(const char *url)
{
	return !strncasecmp(url, "https://", 8);
}

int sc_http_url_is_loopback(const char *url)
{
	char *scheme = url_part(url, CURLUPART_SCHEME);
	char *host = url_part(url, CURLUPART_HOST);
	int yes = 0;

	if (scheme && host &&
	    (!strcasecmp(scheme, "http") || !strcasecmp(scheme, "https")))
		yes = !strcasecmp(host, "localhost") || !strcmp(host, "[::1]") ||
		      !strncmp(host, "127.", 4);
	/* "127.evil.example" is a name, not an address: digits only. */
	if (yes && !strncmp(host, "127.", 4))
		yes = strspn(host, "0123456789.") == strlen(host);
	curl_free(scheme);
	curl_free(host);
	return yes;
}
