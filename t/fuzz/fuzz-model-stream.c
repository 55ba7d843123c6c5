/*
 * The streamed-reply readers on any bytes: the first byte picks the
 * framing (SSE, AWS event stream, whole JSON) and the dialect (Anthropic,
 * OpenAI) and how the rest is cut into pieces, as a network cuts it.  A
 * stream said whole must give a reply or a reason; one that is not must
 * never be read.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "modelstream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const types[] = {
		"text/event-stream", "application/vnd.amazon.eventstream",
		"application/json",
	};
	struct sc_stream s;
	struct sc_reply reply;
	const char *why = NULL;
	size_t piece, off = 1;
	int st = 0;

	if (!size)
		return 0;
	sc_stream_init(&s, (data[0] & 1) ? SC_STREAM_OPENAI : SC_STREAM_ANTHROPIC,
		       -1, "fuzz");
	piece = (size_t)(data[0] >> 3) + 1;
	while (off < size && !st) {
		size_t n = size - off < piece ? size - off : piece;

		st = sc_stream_feed(&s, types[(data[0] >> 1) % 3],
				    (const char *)data + off, n);
		off += n;
	}
	if (st == SC_STREAM_BAD && !s.why)
		__builtin_trap();
	if (!st && sc_stream_done(&s)) {
		sc_reply_init(&reply);
		if (sc_stream_reply(&s, &reply, &why) < 0 && !why)
			__builtin_trap();
		sc_reply_release(&reply);
	}
	/* A retry starts from nothing. */
	sc_stream_reset(&s);
	if (sc_stream_done(&s) && s.framing)
		__builtin_trap();
	sc_stream_release(&s);
	return 0;
}
