#ifndef SC_MODEL_H
#define SC_MODEL_H

/*
 * sc-model's provider-neutral core: a conversation read from records, the
 * provenance labels it carries, a reply, and the reply written as records.
 *
 * Conversation records (sc-model(1)):
 *   type=system      text=                       the system prompt
 *   type=tool        name= description= schema=  a tool (schema: JSON object)
 *   type=message     role=user|assistant text=
 *   type=text        text=                       the model's earlier words
 *   type=call        id= tool= ARG...            the model's earlier calls
 *   type=tool-result id= text=                   a call's result
 * Every one of them carries label= (repeated: trusted or untrusted, plus
 * held-out) and source=.  Labels are never inferred: a record without one
 * is refused.  Other record types are ignored.
 *
 * Reply records: type=text text=; type=call id= tool= source=model ARG...;
 * type=usage; type=end reason=.  A call's JSON arguments become fields:
 * a string -> one field, an array of strings -> a repeated field, anything
 * else -> one field holding its JSON text.
 */

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "io.h"
#include "record.h"

/*
 * The most input sc-model holds: a conversation is kept whole to be sent
 * whole, so it is capped (far past any provider's context window) to keep
 * a runaway driver from growing sc-model without bound.
 */
#define SC_CONVERSATION_MAX ((uint64_t)64 << 20)

enum sc_label {
	SC_LABEL_TRUSTED = 1,
	SC_LABEL_UNTRUSTED = 2,
	SC_LABEL_HELD_OUT = 4,
};
#define SC_LABEL_ALL (SC_LABEL_TRUSTED | SC_LABEL_UNTRUSTED | SC_LABEL_HELD_OUT)

/* The label bit for NAME, or 0 when NAME is not a label. */
unsigned sc_label_parse(const char *name);

enum sc_item_kind {
	SC_ITEM_USER,        /* type=message role=user */
	SC_ITEM_ASSISTANT,   /* type=message role=assistant, or type=text */
	SC_ITEM_CALL,        /* type=call: the model asked for a tool */
	SC_ITEM_RESULT,      /* type=tool-result */
};

/*
 * One turn element.  The record is kept whole (replay compares against
 * it); the string pointers point into it.
 */
struct sc_item {
	enum sc_item_kind kind;
	struct sc_record rec;
	const char *text;    /* message, text, tool-result */
	size_t text_len;
	const char *id;      /* call, tool-result */
	const char *name;    /* call: the tool's name */
	json_t *args;        /* call: the arguments, a JSON object */
	unsigned labels;
	char *elided;        /* the one-line summary text points to, if elided */
};

struct sc_tooldef {
	char *name;
	char *description;   /* may be NULL */
	json_t *schema;      /* a JSON object */
};

struct sc_conversation {
	struct sc_buf system;    /* system records, joined by blank lines */
	int has_system;
	struct sc_tooldef *tools;
	size_t tools_nr, tools_alloc;
	struct sc_item *items;
	size_t items_nr, items_alloc;
	unsigned labels;         /* the union of every record's labels */
};

void sc_conversation_init(struct sc_conversation *c);
void sc_conversation_release(struct sc_conversation *c);

enum sc_conv_status {
	SC_CONV_OK = 0,
	SC_CONV_BAD = -1,        /* error printed; input malformed: exit 3 */
};

/*
 * Add one input record.  Prints error[MISSING-LABEL], error[BAD-LABEL] or
 * error[BAD-CONVERSATION] and returns -1 when it is not acceptable.  NR is
 * the record's number (from 1), for the message.
 */
int sc_conversation_add(struct sc_conversation *c, const struct sc_record *rec,
			unsigned long nr);
/*
 * Read every record from FD into C, then finish it: 0, or with the error
 * printed SC_CONVERSATION_MALFORMED (malformed records, labels, a
 * conversation past SC_CONVERSATION_MAX) or SC_CONVERSATION_UNREADABLE
 * (a read error).
 */
enum sc_conversation_status {
	SC_CONVERSATION_OK = 0,
	SC_CONVERSATION_MALFORMED = -1,
	SC_CONVERSATION_UNREADABLE = -2,
};
enum sc_conversation_status sc_conversation_read(struct sc_conversation *c,
						 int fd);

/* After the last record: -1 (error printed) when nothing can be asked. */
int sc_conversation_finish(const struct sc_conversation *c);

/*
 * The provenance check, before anything is sent: a conversation carrying a
 * label outside ALLOWED (the sealed labels not lifted by --allow-label) is
 * refused with error[HELD-OUT-LEAK].  Returns -1 then.
 */
int sc_conversation_check_labels(const struct sc_conversation *c,
				 unsigned allowed);

/*
 * The context window of MODEL, in tokens, from the providers' documents
 * (Claude 200000, GPT-4o 128000, GPT-4.1 1047576, o-series 200000); 0 when
 * it is not known (a local model: set it).
 */
unsigned long long sc_model_context_tokens(const char *model);

/* A rough token count of what C sends: its bytes over four. */
unsigned long long sc_conversation_tokens(const struct sc_conversation *c);

/*
 * Keep C within BUDGET tokens (the context window less the reply's room):
 * while it is over, replace the oldest tool result's text by a one-line
 * summary (its size and its first line), oldest first.  Never the system
 * prompt, the tools, a message (the trusted task context included), a
 * call, nor the results the model has not yet seen (those after its last
 * turn).  Returns the number elided into *ELIDED; -1 with
 * error[CONTEXT-FULL] printed when eliding every older result is not
 * enough.  BUDGET 0: no bound.
 */
int sc_conversation_fit(struct sc_conversation *c,
			unsigned long long budget, size_t *elided);

/*
 * The C string S as a JSON string for a provider (new reference): bytes
 * that are not UTF-8 become '?' (sc_json_string), as every provider takes
 * UTF-8 only.
 */
json_t *sc_model_str(const char *s);

/*
 * 1 when TOOL names an MCP server's tool (mcp__SERVER__TOOL): its call
 * record carries the arguments as one field, arguments=, a JSON object.
 */
int sc_call_is_mcp(const char *tool);
/* Turn a call record's argument fields into a JSON object (new reference). */
json_t *sc_call_args_from_record(const struct sc_record *rec);
/* 1 when NAME is a structural call field (type, id, tool, source, label). */
int sc_call_field_reserved(const char *name);

struct sc_reply_item {
	int is_call;
	char *text;          /* text item */
	size_t text_len;
	char *id, *name;     /* call item */
	json_t *args;        /* call item: a JSON object */
};

struct sc_reply {
	struct sc_reply_item *items;
	size_t nr, alloc;
	size_t elided;       /* tool results elided to fit the context */
	unsigned long long input_tokens, output_tokens;
	/*
	 * Prompt caching, when the provider reported it: input read from its
	 * cache, and input written to it (billed above the plain rate).
	 */
	unsigned long long cache_read_tokens, cache_write_tokens;
	int has_cache;
	char reason[32];     /* end-turn, tool-use, max-tokens, ... */
};

void sc_reply_init(struct sc_reply *r);
void sc_reply_release(struct sc_reply *r);
void sc_reply_add_text(struct sc_reply *r, const char *text, size_t len);
/* Takes over ARGS (a JSON object). */
void sc_reply_add_call(struct sc_reply *r, const char *id, const char *name,
		       json_t *args);

/*
 * Set the end reason from a provider's word (end_turn, tool_calls...):
 * the names both providers share become end-turn, tool-use, max-tokens,
 * stop-sequence, content-filter; other words in [a-z_-] keep their spelling
 * with '-' for '_'; anything else becomes "other".  NULL leaves end-turn,
 * or tool-use when the reply holds a call.
 */
void sc_reply_set_reason(struct sc_reply *r, const char *word);

/*
 * The end of every provider's parse: the usage counts IN_KEY and OUT_KEY
 * of USAGE, then the end reason REASON (a string, null or absent).  0, or
 * -1 with *WHY set.
 */
int sc_reply_finish(struct sc_reply *r, json_t *usage, const char *in_key,
		    const char *out_key, json_t *reason, const char **why);

/* Append REQ to BODY as compact JSON (a request body) and drop REQ. */
void sc_json_append(struct sc_buf *body, json_t *req);

/*
 * A provider's parse of a response body: BODY read as JSON (NULL when it
 * is not) and given to PARSE, the provider's *_parse_json.
 */
int sc_reply_parse(const char *body, size_t len,
		   int (*parse)(json_t *, struct sc_reply *, const char **),
		   struct sc_reply *reply, const char **why);

/*
 * The provider's cache counts: READ_KEY and WRITE_KEY (NULL when it has
 * none) of USAGE; has_cache is set when either is there.  -1 with *WHY set
 * when one is not a count.
 */
int sc_reply_cache(struct sc_reply *r, json_t *usage, const char *read_key,
		   const char *write_key, const char **why);

/*
 * Read the non-negative integer member KEY of OBJ into *OUT (left alone
 * when absent or null).  -1 when it is there but not one.
 */
int sc_json_count(json_t *obj, const char *key, unsigned long long *out);

/*
 * The provider's error type from an error body ({"error": {"type": ...}},
 * or its "code"), when it is a short word of [A-Za-z0-9_.-]; otherwise
 * "unknown".  Nothing else of the body is ever printed: it may echo the
 * request.
 */
void sc_provider_error_type(const char *body, size_t len, char *out,
			    size_t outsz);

/*
 * Encode the whole reply as records into OUT: text and calls in order, then
 * usage (with the conversation's LABELS, PROVIDER and MODEL) and end.
 * Returns -1 with a fixed reason in *WHY (nothing encoded) when a call
 * cannot become a record: an argument name that is not a field name or is
 * reserved (an answer forging source= or id= is refused, not renamed).
 */
int sc_reply_encode(const struct sc_reply *r, unsigned labels,
		    const char *provider, const char *model, struct sc_buf *out,
		    const char **why);

#endif
