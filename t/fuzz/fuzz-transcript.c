/*
 * The transcript reader (sc-model-transcript(5)) on any bytes, then a
 * replay of its first turn against a one-message conversation.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model.h"
#include "replay.h"

static int add_message(struct sc_conversation *c)
{
	struct sc_record rec;
	int ret;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "message");
	sc_record_adds(&rec, "role", "user");
	sc_record_adds(&rec, "text", "hello");
	sc_record_adds(&rec, "label", "trusted");
	sc_record_adds(&rec, "source", "person");
	ret = sc_conversation_add(c, &rec, 1);
	sc_record_release(&rec);
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_transcript t;
	struct sc_conversation c;
	struct sc_reply reply;
	struct sc_buf out = SC_BUF_INIT;
	const char *why = NULL;
	unsigned long line;

	sc_transcript_init(&t);
	sc_conversation_init(&c);
	sc_reply_init(&reply);
	if (sc_transcript_parse((const char *)data, size, &t, &line, &why) == 0 &&
	    add_message(&c) == 0 && sc_replay_answer(&t, &c, &reply) == 0)
		(void)sc_reply_encode(&reply, c.labels, "replay", "replay", &out, &why);
	sc_buf_release(&out);
	sc_reply_release(&reply);
	sc_conversation_release(&c);
	sc_transcript_release(&t);
	return 0;
}
