#ifndef SC_PROVIDER_ANTHROPIC_H
#define SC_PROVIDER_ANTHROPIC_H

/*
 * The Anthropic Messages API: POST ENDPOINT/v1/messages with x-api-key and
 * anthropic-version.  System prompt, tools with JSON schemas, and the
 * tool_use / tool_result blocks that tie a result to its call by id.
 */

#include <stddef.h>

#include "buf.h"
#include "model.h"

#define SC_ANTHROPIC_ENDPOINT "https://api.anthropic.com"
#define SC_ANTHROPIC_PATH "/v1/messages"
#define SC_ANTHROPIC_VERSION "2023-06-01"
#define SC_ANTHROPIC_MODEL "claude-sonnet-4-5"
#define SC_ANTHROPIC_KEY_ENV "ANTHROPIC_API_KEY"

/* Amazon Bedrock's InvokeModel takes the same body with this version. */
#define SC_BEDROCK_ANTHROPIC_VERSION "bedrock-2023-05-31"

enum {
	/* Mark the stable prefix and the last turn with cache_control. */
	SC_ANTHROPIC_CACHE = 1,
	/* Bedrock's form: anthropic_version in the body, no model. */
	SC_ANTHROPIC_BEDROCK = 2,
	/* "stream": true (Bedrock streams by its URL instead). */
	SC_ANTHROPIC_STREAM = 4,
};

/*
 * Append the request body for C to BODY (compact JSON).  FLAGS: the
 * SC_ANTHROPIC_* bits.  With SC_ANTHROPIC_CACHE the system prompt (or,
 * without one, the last tool), the trusted task context (the user
 * messages labelled only trusted that open the conversation) and the last
 * block carry cache_control breakpoints.
 */
void sc_anthropic_request(const struct sc_conversation *c, const char *model,
			  unsigned long max_tokens, unsigned flags,
			  struct sc_buf *body);

/*
 * Parse a successful response into REPLY (text and calls in their order,
 * usage, stop reason).  -1 with a fixed reason in *WHY when it is not a
 * well-formed Messages response; REPLY must then not be written.
 */
int sc_anthropic_parse(const char *body, size_t len, struct sc_reply *reply,
		       const char **why);
/* The same, from the response already parsed (a streamed one rebuilt). */
int sc_anthropic_parse_json(json_t *root, struct sc_reply *reply,
			    const char **why);

#endif
