/*
 * OpenAI Chat Completions: conversation -> request, response -> reply.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "jsonstr.h"
#include "provider-openai.h"

static json_t *tools_json(const struct sc_conversation *c)
{
	json_t *tools = json_array();
	size_t i;

	for (i = 0; i < c->tools_nr; i++) {
		const struct sc_tooldef *t = &c->tools[i];
		json_t *o = json_object(), *fn = json_object();

		json_object_set_new(fn, "name", sc_model_str(t->name));
		if (t->description)
			json_object_set_new(fn, "description",
					    sc_model_str(t->description));
		json_object_set(fn, "parameters", t->schema);
		json_object_set_new(o, "type", json_string("function"));
		json_object_set_new(o, "function", fn);
		json_array_append_new(tools, o);
	}
	return tools;
}

static json_t *tool_call(const struct sc_item *it)
{
	json_t *call = json_object(), *fn = json_object();
	char *args = json_dumps(it->args, JSON_COMPACT);

	json_object_set_new(fn, "name", sc_model_str(it->name));
	json_object_set_new(fn, "arguments", sc_model_str(args ? args : "{}"));
	free(args);
	json_object_set_new(call, "id", sc_model_str(it->id));
	json_object_set_new(call, "type", json_string("function"));
	json_object_set_new(call, "function", fn);
	return call;
}

/*
 * One assistant message from the run of assistant items starting at *I:
 * its texts joined, its calls in order.
 */
static json_t *assistant_json(const struct sc_conversation *c, size_t *i)
{
	json_t *m = json_object(), *calls = json_array();
	struct sc_buf text = SC_BUF_INIT;
	int has_text = 0;

	for (; *i < c->items_nr; (*i)++) {
		const struct sc_item *it = &c->items[*i];

		if (it->kind == SC_ITEM_CALL) {
			json_array_append_new(calls, tool_call(it));
		} else if (it->kind == SC_ITEM_ASSISTANT) {
			if (has_text)
				sc_buf_adds(&text, "\n\n");
			sc_buf_add(&text, it->text, it->text_len);
			has_text = 1;
		} else {
			break;
		}
	}
	(*i)--;
	json_object_set_new(m, "role", json_string("assistant"));
	json_object_set_new(m, "content", has_text ?
			    sc_json_string(text.data ? text.data : "",
					   text.len, "?") :
			    json_null());
	if (json_array_size(calls))
		json_object_set_new(m, "tool_calls", calls);
	else
		json_decref(calls);
	sc_buf_release(&text);
	return m;
}

static json_t *messages_json(const struct sc_conversation *c)
{
	json_t *msgs = json_array();
	size_t i;

	if (c->has_system) {
		json_t *m = json_object();

		json_object_set_new(m, "role", json_string("system"));
		json_object_set_new(m, "content",
				    sc_json_string(c->system.data,
						   c->system.len, "?"));
		json_array_append_new(msgs, m);
	}
	for (i = 0; i < c->items_nr; i++) {
		const struct sc_item *it = &c->items[i];
		json_t *m;

		if (it->kind == SC_ITEM_ASSISTANT || it->kind == SC_ITEM_CALL) {
			json_array_append_new(msgs, assistant_json(c, &i));
			continue;
		}
		m = json_object();
		if (it->kind == SC_ITEM_USER) {
			json_object_set_new(m, "role", json_string("user"));
		} else {
			json_object_set_new(m, "role", json_string("tool"));
			json_object_set_new(m, "tool_call_id", sc_model_str(it->id));
		}
		json_object_set_new(m, "content",
				    sc_json_string(it->text, it->text_len, "?"));
		json_array_append_new(msgs, m);
	}
	return msgs;
}

void sc_openai_request(const struct sc_conversation *c, const char *model,
		       unsigned long max_tokens, int stream,
		       struct sc_buf *body)
{
	json_t *req = json_object();

	json_object_set_new(req, "model", sc_model_str(model));
	json_object_set_new(req, "max_tokens", json_integer((json_int_t)max_tokens));
	json_object_set_new(req, "messages", messages_json(c));
	if (c->tools_nr)
		json_object_set_new(req, "tools", tools_json(c));
	if (stream) {
		json_t *so = json_object();

		json_object_set_new(so, "include_usage", json_true());
		json_object_set_new(req, "stream", json_true());
		json_object_set_new(req, "stream_options", so);
	}
	sc_json_append(body, req);
}

static int parse_call(json_t *call, struct sc_reply *reply, const char **why)
{
	const char *id = json_string_value(json_object_get(call, "id"));
	json_t *fn = json_object_get(call, "function");
	const char *name = json_string_value(json_object_get(fn, "name"));
	json_t *a = json_object_get(fn, "arguments"), *args;

	if (!id || !name || !*id || !*name || !json_is_string(a)) {
		*why = "a tool call lacks its id, name or arguments";
		return -1;
	}
	/* Some servers send "" for a call without arguments. */
	args = json_string_length(a) ?
		json_loadb(json_string_value(a), json_string_length(a),
			   JSON_REJECT_DUPLICATES, NULL) : json_object();
	if (!json_is_object(args)) {
		json_decref(args);
		*why = "a tool call's arguments are not a JSON object";
		return -1;
	}
	sc_reply_add_call(reply, id, name, args);
	return 0;
}

static int parse_message(json_t *msg, struct sc_reply *reply, const char **why)
{
	json_t *content = json_object_get(msg, "content");
	json_t *calls = json_object_get(msg, "tool_calls");
	size_t i;

	if (!json_is_object(msg) ||
	    (content && !json_is_null(content) && !json_is_string(content)) ||
	    (calls && !json_is_null(calls) && !json_is_array(calls))) {
		*why = "the choice's message is not well formed";
		return -1;
	}
	if (json_is_string(content) && json_string_length(content))
		sc_reply_add_text(reply, json_string_value(content),
				  json_string_length(content));
	for (i = 0; i < json_array_size(calls); i++)
		if (parse_call(json_array_get(calls, i), reply, why) < 0)
			return -1;
	return 0;
}

int sc_openai_parse_json(json_t *root, struct sc_reply *reply,
			 const char **why)
{
	json_t *choice = json_array_get(json_object_get(root, "choices"), 0);
	json_t *usage = json_object_get(root, "usage"), *reason;
	int ret = 0;

	if (!json_is_object(root) || !json_is_object(choice)) {
		*why = "not a Chat Completions response (no choices)";
		ret = -1;
	}
	if (!ret)
		ret = parse_message(json_object_get(choice, "message"), reply, why);
	reason = json_object_get(choice, "finish_reason");
	if (!ret)
		ret = sc_reply_finish(reply, usage, "prompt_tokens",
				      "completion_tokens", reason, why);
	/* OpenAI caches prefixes by itself and reports the hits only. */
	if (!ret)
		ret = sc_reply_cache(reply, json_object_get(usage,
					"prompt_tokens_details"),
				     "cached_tokens", NULL, why);
	return ret;
}

int sc_openai_parse(const char *body, size_t len, struct sc_reply *reply,
		    const char **why)
{
	return sc_reply_parse(body, len, sc_openai_parse_json, reply, why);
}
