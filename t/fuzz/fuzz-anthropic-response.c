/*
 * The Anthropic response parser, then the reply encoder, on any bytes: no
 * crash, no leak, and a parsed reply either encodes whole or not at all.
 */
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "provider-anthropic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_reply reply;
	struct sc_buf out = SC_BUF_INIT;
	const char *why = NULL;

	sc_reply_init(&reply);
	if (sc_anthropic_parse((const char *)data, size, &reply, &why) == 0 &&
	    sc_reply_encode(&reply, SC_LABEL_UNTRUSTED, "anthropic", "m", &out,
			    &why) < 0 && out.len)
		__builtin_trap();
	sc_buf_release(&out);
	sc_reply_release(&reply);
	return 0;
}
