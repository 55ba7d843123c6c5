#ifndef SC_MODELSTREAM_H
#define SC_MODELSTREAM_H

/*
 * A streamed reply, read as it arrives and rebuilt into the response the
 * provider would have sent whole, so that one parser (and its checks)
 * reads both.  The answer's Content-Type picks the framing:
 *
 *   text/event-stream                    Server-Sent Events (sse.h)
 *   application/vnd.amazon.eventstream   AWS event stream (eventstream.h),
 *                                        each chunk's "bytes" base64
 *   anything else                        one JSON response, kept whole
 *
 * and the dialect the events: Anthropic's (message_start, content_block_*,
 * message_delta, message_stop, ping, error; Bedrock streams the same
 * events) or OpenAI's (chat.completion.chunk objects, then [DONE]).
 *
 * A stream is whole only when its last event came (message_stop, [DONE]);
 * one that ends before is a dropped connection, retried from the start by
 * the caller, and nothing of it is ever given out as a reply.  An error
 * event the provider sends mid-stream (overloaded, throttled) asks for a
 * retry; a malformed or unknown event, or one past the caps, is final.
 *
 * While it runs, a type=progress record goes to PROGRESS_FD at most once a
 * second (none in the first second).
 */

#include <jansson.h>
#include <stddef.h>
#include <time.h>

#include "buf.h"
#include "eventstream.h"
#include "model.h"
#include "sse.h"

enum sc_stream_dialect {
	SC_STREAM_ANTHROPIC,
	SC_STREAM_OPENAI,
};

enum {
	SC_STREAM_GO = 0,
	SC_STREAM_BAD = -1,      /* malformed: final, reason in why */
	SC_STREAM_RETRY = -2,    /* the provider's error event: retry */
};

/* The most a streamed answer may hold, as a whole one (http.h). */
#define SC_STREAM_MAX ((size_t)16 << 20)

struct sc_stream_acc {
	struct sc_buf text;      /* a block's text or its partial JSON */
};

struct sc_stream {
	enum sc_stream_dialect dialect;
	int framing;             /* per attempt: 0 until the first bytes */
	struct sc_sse sse;
	struct sc_es es;
	struct sc_buf whole;     /* a JSON answer to a streamed request */
	struct sc_buf scratch;
	/* The response being rebuilt. */
	json_t *msg;             /* Anthropic: the message */
	json_t *calls;           /* OpenAI: the tool calls */
	json_t *usage;           /* OpenAI: the usage chunk's */
	char finish[32];         /* OpenAI: finish_reason */
	struct sc_stream_acc *acc;
	size_t acc_nr, acc_alloc;
	struct sc_buf text;      /* OpenAI: the content */
	int has_text;
	int stopped;             /* the last event came */
	int too_large;           /* the answer passed SC_STREAM_MAX */
	size_t received;         /* bytes of the answer so far */
	size_t delta_bytes;      /* bytes of text and arguments so far */
	const char *why;
	char why_buf[128];
	char error_type[64];
	/* Progress. */
	int progress_fd;
	const char *provider;
	struct timespec start, last;
};

void sc_stream_init(struct sc_stream *s, enum sc_stream_dialect dialect,
		    int progress_fd, const char *provider);
void sc_stream_release(struct sc_stream *s);
/* Start an attempt: everything read before is forgotten. */
void sc_stream_reset(struct sc_stream *s);

/*
 * Feed LEN bytes of a 2xx answer whose Content-Type is CONTENT_TYPE (NULL
 * when none).  SC_STREAM_GO, _BAD (s->why) or _RETRY (s->error_type).
 */
int sc_stream_feed(struct sc_stream *s, const char *content_type,
		   const char *data, size_t len);

/* After a clean end of the answer: 1 when it was whole. */
int sc_stream_done(struct sc_stream *s);

/*
 * The reply, from a whole stream.  0, or -1 with a fixed reason in *WHY
 * (REPLY must then not be written).
 */
int sc_stream_reply(struct sc_stream *s, struct sc_reply *reply,
		    const char **why);

#endif
