/*
 * Anthropic Messages API: conversation -> request, response -> reply.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonstr.h"
#include "provider-anthropic.h"

static json_t *tools_json(const struct sc_conversation *c)
{
	json_t *tools = json_array();
	size_t i;

	for (i = 0; i < c->tools_nr; i++) {
		const struct sc_tooldef *t = &c->tools[i];
		json_t *o = json_object();

		json_object_set_new(o, "name", sc_model_str(t->name));
		if (t->description)
			json_object_set_new(o, "description",
					    sc_model_str(t->description));
		json_object_set(o, "input_schema", t->schema);
		json_array_append_new(tools, o);
	}
	return tools;
}

static json_t *block(const struct sc_item *it)
{
	json_t *b = json_object();

	switch (it->kind) {
	case SC_ITEM_USER:
	case SC_ITEM_ASSISTANT:
		json_object_set_new(b, "type", json_string("text"));
		json_object_set_new(b, "text", sc_json_string(it->text, it->text_len, "?"));
		break;
	case SC_ITEM_RESULT:
		json_object_set_new(b, "type", json_string("tool_result"));
		json_object_set_new(b, "tool_use_id", sc_model_str(it->id));
		json_object_set_new(b, "content",
				    sc_json_string(it->text, it->text_len, "?"));
		break;
	case SC_ITEM_CALL:
		json_object_set_new(b, "type", json_string("tool_use"));
		json_object_set_new(b, "id", sc_model_str(it->id));
		json_object_set_new(b, "name", sc_model_str(it->name));
		json_object_set(b, "input", it->args);
		break;
	}
	return b;
}

/*
 * A cache breakpoint: the provider caches the prompt up to and including
 * this block, and later requests that share the prefix read it back at a
 * fraction of the price.
 */
static void cache_mark(json_t *block)
{
	json_t *cc = json_object();

	json_object_set_new(cc, "type", json_string("ephemeral"));
	json_object_set_new(block, "cache_control", cc);
}

/*
 * The last item of the trusted task context: the run of user messages
 * that opens the conversation and carries only the trusted label.  It is
 * the same on every turn of a task, so it is worth a breakpoint of its
 * own; SIZE_MAX when there is none.
 */
static size_t trusted_context_end(const struct sc_conversation *c)
{
	size_t i;

	for (i = 0; i < c->items_nr; i++)
		if (c->items[i].kind != SC_ITEM_USER ||
		    c->items[i].labels != SC_LABEL_TRUSTED)
			break;
	return i ? i - 1 : SIZE_MAX;
}

/*
 * Consecutive items of one role share one message, as the API wants.
 * With CACHE, the trusted context's last block and the conversation's
 * last block are breakpoints (with the system prompt's, three of the
 * four the API allows).
 */
static json_t *messages_json(const struct sc_conversation *c, int cache)
{
	json_t *msgs = json_array(), *content = NULL;
	size_t ctx = cache ? trusted_context_end(c) : SIZE_MAX;
	const char *role = NULL;
	size_t i;

	for (i = 0; i < c->items_nr; i++) {
		const struct sc_item *it = &c->items[i];
		const char *r = (it->kind == SC_ITEM_USER ||
				 it->kind == SC_ITEM_RESULT) ? "user" : "assistant";
		json_t *b;

		if (!role || strcmp(role, r)) {
			json_t *m = json_object();

			content = json_array();
			json_object_set_new(m, "role", json_string(r));
			json_object_set_new(m, "content", content);
			json_array_append_new(msgs, m);
			role = r;
		}
		b = block(it);
		if (i == ctx || (cache && i + 1 == c->items_nr))
			cache_mark(b);
		json_array_append_new(content, b);
	}
	return msgs;
}

/* The system prompt; with CACHE, one text block that ends a breakpoint. */
static json_t *system_json(const struct sc_conversation *c, int cache)
{
	json_t *blocks, *b;

	if (!cache)
		return sc_json_string(c->system.data, c->system.len, "?");
	b = json_object();
	json_object_set_new(b, "type", json_string("text"));
	json_object_set_new(b, "text",
			    sc_json_string(c->system.data, c->system.len, "?"));
	cache_mark(b);
	blocks = json_array();
	json_array_append_new(blocks, b);
	return blocks;
}

void sc_anthropic_request(const struct sc_conversation *c, const char *model,
			  unsigned long max_tokens, unsigned flags,
			  struct sc_buf *body)
{
	const int cache = !!(flags & SC_ANTHROPIC_CACHE);
	json_t *req = json_object();

	/* Bedrock names the model in the URL and the version in the body. */
	if (flags & SC_ANTHROPIC_BEDROCK)
		json_object_set_new(req, "anthropic_version",
				    json_string(SC_BEDROCK_ANTHROPIC_VERSION));
	else
		json_object_set_new(req, "model", sc_model_str(model));
	json_object_set_new(req, "max_tokens", json_integer((json_int_t)max_tokens));
	if (c->has_system)
		json_object_set_new(req, "system", system_json(c, cache));
	if (c->tools_nr) {
		json_t *tools = tools_json(c);

		/* The system breakpoint covers the tools before it. */
		if (cache && !c->has_system)
			cache_mark(json_array_get(tools, c->tools_nr - 1));
		json_object_set_new(req, "tools", tools);
	}
	json_object_set_new(req, "messages", messages_json(c, cache));
	if ((flags & SC_ANTHROPIC_STREAM) && !(flags & SC_ANTHROPIC_BEDROCK))
		json_object_set_new(req, "stream", json_true());
	sc_json_append(body, req);
}

static int parse_block(json_t *b, struct sc_reply *reply, const char **why)
{
	const char *type = json_string_value(json_object_get(b, "type"));

	if (!type) {
		*why = "a content block has no type";
		return -1;
	}
	if (!strcmp(type, "text")) {
		json_t *t = json_object_get(b, "text");

		if (!json_is_string(t)) {
			*why = "a text block has no text";
			return -1;
		}
		sc_reply_add_text(reply, json_string_value(t), json_string_length(t));
	} else if (!strcmp(type, "tool_use")) {
		const char *id = json_string_value(json_object_get(b, "id"));
		const char *name = json_string_value(json_object_get(b, "name"));
		json_t *input = json_object_get(b, "input");

		if (!id || !name || !*id || !*name || !json_is_object(input)) {
			*why = "a tool_use block lacks its id, name or input object";
			return -1;
		}
		sc_reply_add_call(reply, id, name, json_incref(input));
	}
	/* Other blocks (thinking, ...) carry nothing sc-model passes on. */
	return 0;
}

int sc_anthropic_parse_json(json_t *root, struct sc_reply *reply,
			    const char **why)
{
	json_t *content = json_object_get(root, "content");
	json_t *usage = json_object_get(root, "usage"), *reason;
	size_t i;
	int ret = 0;

	if (!json_is_object(root) || !json_is_array(content)) {
		*why = "not a Messages response (no content array)";
		ret = -1;
	}
	for (i = 0; !ret && i < json_array_size(content); i++)
		ret = parse_block(json_array_get(content, i), reply, why);
	reason = json_object_get(root, "stop_reason");
	if (!ret)
		ret = sc_reply_finish(reply, usage, "input_tokens",
				      "output_tokens", reason, why);
	if (!ret)
		ret = sc_reply_cache(reply, usage, "cache_read_input_tokens",
				     "cache_creation_input_tokens", why);
	return ret;
}

int sc_anthropic_parse(const char *body, size_t len, struct sc_reply *reply,
		       const char **why)
{
	return sc_reply_parse(body, len, sc_anthropic_parse_json, reply, why);
}
