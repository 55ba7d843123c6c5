#ifndef SC_SSE_H
#define SC_SSE_H

/*
 * An incremental reader of Server-Sent Events (the WHATWG "event stream"
 * format), as the Anthropic and OpenAI APIs stream a reply: bytes go in as
 * they arrive, in pieces of any size; each complete event comes out once
 * through a callback with its "event" name and its "data" lines joined by
 * '\n'.  Comments (':' lines), "id" and "retry" fields are dropped.
 *
 * An event is held whole until its blank line, so its size is capped: a
 * server that never ends one cannot grow the reader without bound.
 */

#include <stddef.h>

#include "buf.h"

/* The largest event (its data and its name) a reader holds. */
#define SC_SSE_EVENT_MAX ((size_t)1 << 20)

/*
 * Called for each event: EVENT is "" when the stream named none.  Returns
 * 0 to go on; anything else stops the reader and is returned by
 * sc_sse_feed.
 */
typedef int (*sc_sse_event_fn)(void *ctx, const char *event,
			       const char *data, size_t len);

struct sc_sse {
	struct sc_buf line;     /* the line being read */
	struct sc_buf event;    /* the current event's name */
	struct sc_buf data;     /* its data lines */
	int has_data;
	int cr;                 /* the last byte was a CR (CRLF is one end) */
	sc_sse_event_fn fn;
	void *ctx;
};

void sc_sse_init(struct sc_sse *s, sc_sse_event_fn fn, void *ctx);
void sc_sse_release(struct sc_sse *s);
/* Forget a half-read event: a retried stream starts from nothing. */
void sc_sse_reset(struct sc_sse *s);

/*
 * Feed LEN bytes.  0; -1 when an event passes SC_SSE_EVENT_MAX or holds a
 * NUL; or the callback's non-zero return.
 */
int sc_sse_feed(struct sc_sse *s, const char *data, size_t len);

/* 1 when nothing is half-read: the stream ended between events. */
int sc_sse_idle(const struct sc_sse *s);

#endif
