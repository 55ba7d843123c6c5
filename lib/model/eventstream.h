#ifndef SC_EVENTSTREAM_H
#define SC_EVENTSTREAM_H

/*
 * An incremental reader of the AWS event stream encoding
 * (application/vnd.amazon.eventstream), as Bedrock's
 * InvokeModelWithResponseStream sends a reply.  Each message:
 *
 *   total length (4, big-endian) | headers length (4) | prelude CRC32 (4)
 *   headers | payload | message CRC32 (4)
 *
 * A header is: name length (1), name, value type (1), value (strings and
 * byte arrays: length (2), bytes; fixed-size types by their size).  Both
 * CRCs are checked; a message is held whole until complete, so its length
 * is capped.  The headers sc-model reads (:message-type, :event-type,
 * :exception-type) come out with the payload through a callback.
 */

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* The largest message held (Bedrock's chunks are a few KiB). */
#define SC_EVENTSTREAM_MESSAGE_MAX ((size_t)1 << 20)

struct sc_es_message {
	char message_type[32];     /* "event", "exception", "error" */
	char event_type[64];       /* "chunk", or the exception's name */
	const unsigned char *payload;
	size_t payload_len;
};

/* Returns 0 to go on; anything else stops the reader and is returned. */
typedef int (*sc_es_message_fn)(void *ctx, const struct sc_es_message *m);

struct sc_es {
	struct sc_buf buf;         /* the message being read */
	sc_es_message_fn fn;
	void *ctx;
	const char *why;           /* why the last feed failed */
};

void sc_es_init(struct sc_es *e, sc_es_message_fn fn, void *ctx);
void sc_es_release(struct sc_es *e);
void sc_es_reset(struct sc_es *e);

/*
 * Feed LEN bytes.  0; -1 with e->why set when a message is malformed (a
 * length out of bounds, a CRC that does not match, a header that runs
 * past its block); or the callback's non-zero return.
 */
int sc_es_feed(struct sc_es *e, const void *data, size_t len);

/* 1 when nothing is half-read. */
int sc_es_idle(const struct sc_es *e);

/* CRC-32 (IEEE 802.3, as zlib's crc32), continuing from CRC. */
uint32_t sc_crc32(uint32_t crc, const void *data, size_t len);

#endif
