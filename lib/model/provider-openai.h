#ifndef SC_PROVIDER_OPENAI_H
#define SC_PROVIDER_OPENAI_H

/*
 * OpenAI Chat Completions, and any server that speaks it (local ones
 * included): POST ENDPOINT/chat/completions with "Authorization: Bearer".
 * Tools are functions; a call's arguments travel as a JSON string; a
 * result is a "tool" message naming its tool_call_id.
 */

#include <stddef.h>

#include "buf.h"
#include "model.h"

#define SC_OPENAI_ENDPOINT "https://api.openai.com/v1"
#define SC_OPENAI_PATH "/chat/completions"
#define SC_OPENAI_MODEL "gpt-4o"
#define SC_OPENAI_KEY_ENV "OPENAI_API_KEY"

/*
 * Append the request body for C to BODY (compact JSON).  With STREAM, the
 * answer is asked as a stream, its usage in a last chunk.
 */
void sc_openai_request(const struct sc_conversation *c, const char *model,
		       unsigned long max_tokens, int stream,
		       struct sc_buf *body);

/*
 * Parse a successful response (the first choice) into REPLY: its text
 * first, then its tool calls in order.  -1 with a fixed reason in *WHY when
 * it is not well formed; REPLY must then not be written.
 */
int sc_openai_parse(const char *body, size_t len, struct sc_reply *reply,
		    const char **why);
/* The same, from the response already parsed (a streamed one rebuilt). */
int sc_openai_parse_json(json_t *root, struct sc_reply *reply,
			 const char **why);

#endif
