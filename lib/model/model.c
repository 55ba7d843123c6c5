/*
 * The conversation sc-model reads, its provenance labels, and the reply it
 * writes.  Nothing here knows a provider: the providers turn a
 * conversation into a request body and a response body into a reply.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "jsonstr.h"
#include "model.h"
#include "strlist.h"

static const struct {
	const char *name;
	unsigned bit;
} labels[] = {
	{ "trusted", SC_LABEL_TRUSTED },
	{ "untrusted", SC_LABEL_UNTRUSTED },
	{ "held-out", SC_LABEL_HELD_OUT },
};

#define NLABELS (sizeof(labels) / sizeof(labels[0]))

unsigned sc_label_parse(const char *name)
{
	size_t i;

	for (i = 0; name && i < NLABELS; i++)
		if (!strcmp(name, labels[i].name))
			return labels[i].bit;
	return 0;
}

void sc_conversation_init(struct sc_conversation *c)
{
	memset(c, 0, sizeof(*c));
	sc_buf_init(&c->system);
}

void sc_conversation_release(struct sc_conversation *c)
{
	size_t i;

	for (i = 0; i < c->tools_nr; i++) {
		free(c->tools[i].name);
		free(c->tools[i].description);
		json_decref(c->tools[i].schema);
	}
	for (i = 0; i < c->items_nr; i++) {
		sc_record_release(&c->items[i].rec);
		json_decref(c->items[i].args);
		free(c->items[i].elided);
	}
	free(c->tools);
	free(c->items);
	sc_buf_release(&c->system);
	memset(c, 0, sizeof(*c));
}

static void copy_record(struct sc_record *dst, const struct sc_record *src)
{
	size_t i;

	sc_record_init(dst);
	for (i = 0; i < src->nr; i++)
		sc_record_add(dst, src->fields[i].name, src->fields[i].value,
			      src->fields[i].value_len);
}

/*
 * The labels of REC: every label= field, each a known label, trusted and
 * untrusted never together.  A record with no label (or no source) is
 * refused: provenance is set where content enters, never guessed here.
 */
static int record_labels(const struct sc_record *rec, const char *type,
			 unsigned long nr, unsigned *out)
{
	unsigned bits = 0;
	size_t i;

	for (i = 0; i < rec->nr; i++) {
		const struct sc_field *f = &rec->fields[i];
		unsigned bit;

		if (strcmp(f->name, "label"))
			continue;
		bit = strlen(f->value) == f->value_len ? sc_label_parse(f->value) : 0;
		if (!bit)
			return sc_error("BAD-LABEL",
					"record %lu (%s): unknown label '%.40s'", nr,
					type, f->value);
		bits |= bit;
	}
	if (!bits)
		return sc_error("MISSING-LABEL", "record %lu (%s) has no label",
				nr, type);
	if ((bits & SC_LABEL_TRUSTED) && (bits & SC_LABEL_UNTRUSTED))
		return sc_error("BAD-LABEL",
				"record %lu (%s) is labelled both trusted and untrusted",
				nr, type);
	if (!sc_record_str(rec, "source") || !*sc_record_str(rec, "source"))
		return sc_error("MISSING-LABEL", "record %lu (%s) has no source",
				nr, type);
	*out = bits;
	return 0;
}

static const char *need(const struct sc_record *rec, const char *field,
			const char *type, unsigned long nr)
{
	const char *v = sc_record_str(rec, field);

	if (!v)
		sc_error("BAD-CONVERSATION",
			 "record %lu (%s) has no %s= field (or it holds a NUL)",
			 nr, type, field);
	return v;
}

static int add_system(struct sc_conversation *c, const struct sc_record *rec,
		      unsigned bits, unsigned long nr)
{
	const struct sc_field *text = sc_record_get(rec, "text");

	if (!text)
		return sc_error("BAD-CONVERSATION",
				"record %lu (system) has no text= field", nr);
	/* The system prompt speaks with the operator's voice. */
	if (bits != SC_LABEL_TRUSTED)
		return sc_error("BAD-LABEL",
				"record %lu (system) must be labelled trusted only",
				nr);
	if (c->has_system)
		sc_buf_adds(&c->system, "\n\n");
	sc_buf_add(&c->system, text->value, text->value_len);
	c->has_system = 1;
	return 0;
}

/*
 * A tool named again replaces its earlier definition, and withdrawn=1
 * removes it: an MCP server's tools are offered anew at each start and
 * withdrawn when their definition changes (sc-mcp(1)).
 */
static void drop_tool(struct sc_conversation *c, const char *name)
{
	for (size_t i = 0; i < c->tools_nr; i++) {
		if (strcmp(c->tools[i].name, name))
			continue;
		free(c->tools[i].name);
		free(c->tools[i].description);
		json_decref(c->tools[i].schema);
		memmove(c->tools + i, c->tools + i + 1,
			(c->tools_nr - i - 1) * sizeof(*c->tools));
		c->tools_nr--;
		return;
	}
}

static int add_tool(struct sc_conversation *c, const struct sc_record *rec,
		    unsigned long nr)
{
	const char *name = need(rec, "name", "tool", nr);
	const char *withdrawn = sc_record_str(rec, "withdrawn");
	const char *schema;
	const char *desc = sc_record_str(rec, "description");
	struct sc_tooldef *t;
	json_t *js;

	if (!name)
		return -1;
	drop_tool(c, name);
	if (withdrawn && !strcmp(withdrawn, "1"))
		return 0;
	schema = need(rec, "schema", "tool", nr);
	if (!schema)
		return -1;
	js = json_loads(schema, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(js)) {
		json_decref(js);
		return sc_error("BAD-CONVERSATION",
				"record %lu (tool '%.40s'): schema is not a JSON object",
				nr, name);
	}
	SC_ALLOC_GROW(c->tools, c->tools_nr + 1, c->tools_alloc);
	t = &c->tools[c->tools_nr++];
	t->name = sc_xstrdup(name);
	t->description = desc ? sc_xstrdup(desc) : NULL;
	t->schema = js;
	return 0;
}

json_t *sc_model_str(const char *s)
{
	return sc_json_string(s, strlen(s), "?");
}

int sc_call_field_reserved(const char *name)
{
	static const char *const reserved[] = { "type", "id", "tool",
						"source", "label", NULL };

	return sc_str_in_list(name, reserved);
}

int sc_call_is_mcp(const char *tool)
{
	return tool && !strncmp(tool, "mcp__", 5);
}

json_t *sc_call_args_from_record(const struct sc_record *rec)
{
	json_t *args;
	size_t i;

	if (sc_call_is_mcp(sc_record_str(rec, "tool"))) {
		const struct sc_field *f = sc_record_get(rec, "arguments");

		args = f ? json_loadb(f->value, f->value_len,
				      JSON_REJECT_DUPLICATES, NULL) : NULL;
		if (json_is_object(args))
			return args;
		json_decref(args);
		return json_object();
	}
	args = json_object();

	for (i = 0; i < rec->nr; i++) {
		const struct sc_field *f = &rec->fields[i];
		json_t *old, *s;

		if (sc_call_field_reserved(f->name))
			continue;
		s = sc_json_string(f->value, f->value_len, "?");
		old = json_object_get(args, f->name);
		if (!old) {
			json_object_set_new_nocheck(args, f->name, s);
		} else if (json_is_array(old)) {
			json_array_append_new(old, s);
		} else {
			json_t *list = json_array();

			json_array_append(list, old);
			json_array_append_new(list, s);
			json_object_set_new_nocheck(args, f->name, list);
		}
	}
	return args;
}

static struct sc_item *new_item(struct sc_conversation *c,
				enum sc_item_kind kind,
				const struct sc_record *rec, unsigned bits)
{
	struct sc_item *it;

	SC_ALLOC_GROW(c->items, c->items_nr + 1, c->items_alloc);
	it = &c->items[c->items_nr++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->labels = bits;
	copy_record(&it->rec, rec);
	return it;
}

static void set_text(struct sc_item *it)
{
	const struct sc_field *f = sc_record_get(&it->rec, "text");

	it->text = f->value;
	it->text_len = f->value_len;
}

static int add_item(struct sc_conversation *c, const struct sc_record *rec,
		    const char *type, unsigned bits, unsigned long nr)
{
	struct sc_item *it;

	if (!strcmp(type, "message") || !strcmp(type, "text")) {
		const char *role = !strcmp(type, "text") ? "assistant" :
			need(rec, "role", type, nr);

		if (!role || !sc_record_get(rec, "text"))
			return role ? sc_error("BAD-CONVERSATION",
					       "record %lu (%s) has no text= field",
					       nr, type) : -1;
		if (strcmp(role, "user") && strcmp(role, "assistant"))
			return sc_error("BAD-CONVERSATION",
					"record %lu: role must be user or assistant",
					nr);
		it = new_item(c, !strcmp(role, "user") ? SC_ITEM_USER :
			      SC_ITEM_ASSISTANT, rec, bits);
		set_text(it);
		return 0;
	}
	if (!strcmp(type, "tool-result")) {
		if (!need(rec, "id", type, nr) || !sc_record_get(rec, "text"))
			return sc_record_get(rec, "id") ?
				sc_error("BAD-CONVERSATION",
					 "record %lu (tool-result) has no text= field",
					 nr) : -1;
		it = new_item(c, SC_ITEM_RESULT, rec, bits);
		set_text(it);
		it->id = sc_record_str(&it->rec, "id");
		return 0;
	}
	/* type=call: the model's own earlier request, fed back. */
	if (!need(rec, "id", type, nr) || !need(rec, "tool", type, nr))
		return -1;
	it = new_item(c, SC_ITEM_CALL, rec, bits);
	it->id = sc_record_str(&it->rec, "id");
	it->name = sc_record_str(&it->rec, "tool");
	it->args = sc_call_args_from_record(&it->rec);
	return 0;
}

int sc_conversation_add(struct sc_conversation *c, const struct sc_record *rec,
			unsigned long nr)
{
	const char *type = sc_record_type(rec);
	unsigned bits = 0;
	int ret;

	if (!type)
		return 0;
	if (strcmp(type, "system") && strcmp(type, "tool") &&
	    strcmp(type, "message") && strcmp(type, "text") &&
	    strcmp(type, "call") && strcmp(type, "tool-result"))
		return 0;   /* not ours: usage, end, verdicts... */
	if (record_labels(rec, type, nr, &bits) < 0)
		return -1;
	if (!strcmp(type, "system"))
		ret = add_system(c, rec, bits, nr);
	else if (!strcmp(type, "tool"))
		ret = add_tool(c, rec, nr);
	else
		ret = add_item(c, rec, type, bits, nr);
	if (!ret)
		c->labels |= bits;
	return ret;
}

enum sc_conversation_status sc_conversation_read(struct sc_conversation *c,
						 int fd)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record rec;
	unsigned long nr = 0;
	enum sc_conversation_status ret = SC_CONVERSATION_OK;
	int status;

	sc_input_init_fd(&in, fd);
	sc_reader_init(&rd, &in);
	sc_record_init(&rec);
	while ((status = sc_reader_next(&rd, &rec)) == SC_READ_RECORD) {
		if (sc_input_offset(&in) > SC_CONVERSATION_MAX) {
			sc_error("CONVERSATION-TOO-LARGE",
				 "the conversation passes %llu bytes",
				 (unsigned long long)SC_CONVERSATION_MAX);
			ret = SC_CONVERSATION_MALFORMED;
			break;
		}
		if (sc_conversation_add(c, &rec, ++nr) < 0) {
			ret = SC_CONVERSATION_MALFORMED;
			break;
		}
	}
	if (!ret && status < 0) {
		sc_reader_report(&rd, status);
		ret = status == SC_READ_IO ? SC_CONVERSATION_UNREADABLE :
		      SC_CONVERSATION_MALFORMED;
	}
	if (!ret && sc_conversation_finish(c) < 0)
		ret = SC_CONVERSATION_MALFORMED;
	sc_record_release(&rec);
	return ret;
}

int sc_conversation_finish(const struct sc_conversation *c)
{
	size_t i;

	for (i = 0; i < c->items_nr; i++)
		if (c->items[i].kind == SC_ITEM_USER ||
		    c->items[i].kind == SC_ITEM_RESULT)
			return 0;
	return sc_error("BAD-CONVERSATION",
			"the conversation holds no user message or tool result");
}

int sc_conversation_check_labels(const struct sc_conversation *c,
				 unsigned allowed)
{
	if ((c->labels & SC_LABEL_HELD_OUT) && !(allowed & SC_LABEL_HELD_OUT))
		return sc_error("HELD-OUT-LEAK",
				"the conversation holds a record labelled held-out; "
				"nothing was sent (--allow-label held-out lifts this)");
	return 0;
}

void sc_reply_init(struct sc_reply *r)
{
	memset(r, 0, sizeof(*r));
	strcpy(r->reason, "end-turn");
}

void sc_reply_release(struct sc_reply *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		free(r->items[i].text);
		free(r->items[i].id);
		free(r->items[i].name);
		json_decref(r->items[i].args);
	}
	free(r->items);
	memset(r, 0, sizeof(*r));
}

static struct sc_reply_item *reply_item(struct sc_reply *r)
{
	struct sc_reply_item *it;

	SC_ALLOC_GROW(r->items, r->nr + 1, r->alloc);
	it = &r->items[r->nr++];
	memset(it, 0, sizeof(*it));
	return it;
}

void sc_reply_add_text(struct sc_reply *r, const char *text, size_t len)
{
	struct sc_reply_item *it = reply_item(r);

	it->text = sc_xmemdup(text, len);
	it->text_len = len;
}

void sc_reply_add_call(struct sc_reply *r, const char *id, const char *name,
		       json_t *args)
{
	struct sc_reply_item *it = reply_item(r);

	it->is_call = 1;
	it->id = sc_xstrdup(id);
	it->name = sc_xstrdup(name);
	it->args = args;
}

/* 1 when V is a non-empty array holding only strings. */
static int string_array(json_t *v)
{
	size_t i;

	if (!json_is_array(v) || !json_array_size(v))
		return 0;
	for (i = 0; i < json_array_size(v); i++)
		if (!json_is_string(json_array_get(v, i)))
			return 0;
	return 1;
}

/* The mapping of sc-model(1): string, array of strings, anything else. */
static int add_arg(struct sc_record *rec, const char *key, json_t *v,
		   const char **why)
{
	size_t i;

	if (!sc_field_name_valid(key, strlen(key))) {
		*why = "a tool call argument name is not a field name";
		return -1;
	}
	if (sc_call_field_reserved(key)) {
		*why = "a tool call argument uses a reserved name "
		       "(type, id, tool, source, label)";
		return -1;
	}
	if (json_is_string(v)) {
		sc_record_add(rec, key, json_string_value(v),
			      json_string_length(v));
	} else if (json_is_array(v) && !json_array_size(v)) {
		/* An empty list is a repeated field repeated zero times. */
	} else if (string_array(v)) {
		for (i = 0; i < json_array_size(v); i++) {
			json_t *s = json_array_get(v, i);

			sc_record_add(rec, key, json_string_value(s),
				      json_string_length(s));
		}
	} else {
		char *js = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

		if (!js) {
			*why = "a tool call argument cannot be encoded";
			return -1;
		}
		sc_record_adds(rec, key, js);
		free(js);
	}
	return 0;
}

/*
 * The model's words carry the labels of what it read: untrusted when any
 * input was (taint wins over trust), held-out when it saw held-out text.
 */
static void add_taint(struct sc_record *rec, unsigned bits)
{
	if (bits & SC_LABEL_UNTRUSTED)
		bits &= ~(unsigned)SC_LABEL_TRUSTED;
	if (bits & SC_LABEL_TRUSTED)
		sc_record_adds(rec, "label", "trusted");
	if (bits & SC_LABEL_UNTRUSTED)
		sc_record_adds(rec, "label", "untrusted");
	if (bits & SC_LABEL_HELD_OUT)
		sc_record_adds(rec, "label", "held-out");
}

static int encode_call(const struct sc_reply_item *it, unsigned bits,
		       struct sc_buf *out, const char **why)
{
	struct sc_record rec;
	const char *key;
	json_t *v;
	int ret = 0;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "call");
	sc_record_adds(&rec, "id", it->id);
	sc_record_adds(&rec, "tool", it->name);
	sc_record_adds(&rec, "source", "model");
	add_taint(&rec, bits);
	if (sc_call_is_mcp(it->name)) {
		/* An MCP tool's arguments keep their names and JSON types
		 * (camelCase, numbers): one field, the canonical object. */
		char *js = json_dumps(it->args, JSON_COMPACT | JSON_SORT_KEYS);

		if (!js) {
			*why = "a tool call's arguments cannot be encoded";
			ret = -1;
		} else {
			sc_record_adds(&rec, "arguments", js);
			free(js);
		}
	} else {
		json_object_foreach(it->args, key, v) {
			if ((ret = add_arg(&rec, key, v, why)) < 0)
				break;
		}
	}
	if (!ret && rec.wire_size > SC_RECORD_MAX) {
		*why = "a tool call is larger than a record may be";
		ret = -1;
	}
	if (!ret)
		sc_record_encode(&rec, out);
	sc_record_release(&rec);
	return ret;
}

static void encode_tail(const struct sc_reply *r, unsigned bits,
			const char *provider, const char *model,
			struct sc_buf *out)
{
	struct sc_record rec;
	size_t i;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "usage");
	sc_record_addu(&rec, "input-tokens", r->input_tokens);
	sc_record_addu(&rec, "output-tokens", r->output_tokens);
	if (r->elided) {
		sc_record_addu(&rec, "elided-results", r->elided);
	}
	if (r->has_cache) {
		sc_record_addu(&rec, "cache-read-tokens", r->cache_read_tokens);
		sc_record_addu(&rec, "cache-write-tokens", r->cache_write_tokens);
	}
	for (i = 0; i < NLABELS; i++)
		if (bits & labels[i].bit)
			sc_record_adds(&rec, "labels", labels[i].name);
	sc_record_adds(&rec, "provider", provider);
	if (model)
		sc_record_adds(&rec, "model", model);
	sc_record_encode(&rec, out);
	sc_record_reset(&rec);
	sc_record_adds(&rec, "type", "end");
	sc_record_adds(&rec, "reason", r->reason);
	sc_record_encode(&rec, out);
	sc_record_release(&rec);
}

int sc_reply_encode(const struct sc_reply *r, unsigned bits,
		    const char *provider, const char *model, struct sc_buf *out,
		    const char **why)
{
	size_t start = out->len, i;

	for (i = 0; i < r->nr; i++) {
		const struct sc_reply_item *it = &r->items[i];

		if (it->is_call) {
			if (encode_call(it, bits, out, why) < 0) {
				sc_buf_setlen(out, start);
				return -1;
			}
			continue;
		}
		{
			struct sc_record rec;

			sc_record_init(&rec);
			sc_record_adds(&rec, "type", "text");
			sc_record_add(&rec, "text", it->text, it->text_len);
			sc_record_adds(&rec, "source", "model");
			add_taint(&rec, bits);
			sc_record_encode(&rec, out);
			sc_record_release(&rec);
		}
	}
	encode_tail(r, bits, provider, model, out);
	return 0;
}

void sc_reply_set_reason(struct sc_reply *r, const char *word)
{
	static const char *const map[][2] = {
		{ "end_turn", "end-turn" }, { "stop", "end-turn" },
		{ "tool_use", "tool-use" }, { "tool_calls", "tool-use" },
		{ "function_call", "tool-use" },
		{ "max_tokens", "max-tokens" }, { "length", "max-tokens" },
		{ "stop_sequence", "stop-sequence" },
		{ "content_filter", "content-filter" },
	};
	size_t i, n;

	if (!word) {
		for (i = 0; i < r->nr; i++)
			if (r->items[i].is_call)
				break;
		strcpy(r->reason, i < r->nr ? "tool-use" : "end-turn");
		return;
	}
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(word, map[i][0])) {
			strcpy(r->reason, map[i][1]);
			return;
		}
	n = strlen(word);
	if (!n || n >= sizeof(r->reason) ||
	    strspn(word, "abcdefghijklmnopqrstuvwxyz_-") != n) {
		strcpy(r->reason, "other");
		return;
	}
	for (i = 0; i <= n; i++)
		r->reason[i] = word[i] == '_' ? '-' : word[i];
}

int sc_json_count(json_t *obj, const char *key, unsigned long long *out)
{
	json_t *v = json_object_get(obj, key);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*out = (unsigned long long)json_integer_value(v);
	return 0;
}

void sc_json_append(struct sc_buf *body, json_t *req)
{
	char *text = json_dumps(req, JSON_COMPACT);

	sc_buf_adds(body, text);
	free(text);
	json_decref(req);
}

int sc_reply_parse(const char *body, size_t len,
		   int (*parse)(json_t *, struct sc_reply *, const char **),
		   struct sc_reply *reply, const char **why)
{
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, NULL);
	int ret = parse(root, reply, why);

	json_decref(root);
	return ret;
}

int sc_reply_cache(struct sc_reply *r, json_t *usage, const char *read_key,
		   const char *write_key, const char **why)
{
	if (sc_json_count(usage, read_key, &r->cache_read_tokens) ||
	    (write_key &&
	     sc_json_count(usage, write_key, &r->cache_write_tokens))) {
		*why = "cache counts are not non-negative integers";
		return -1;
	}
	r->has_cache = json_is_integer(json_object_get(usage, read_key)) ||
		(write_key && json_is_integer(json_object_get(usage, write_key)));
	return 0;
}

int sc_reply_finish(struct sc_reply *r, json_t *usage, const char *in_key,
		    const char *out_key, json_t *reason, const char **why)
{
	if (sc_json_count(usage, in_key, &r->input_tokens) ||
	    sc_json_count(usage, out_key, &r->output_tokens)) {
		*why = "usage counts are not non-negative integers";
		return -1;
	}
	if (reason && !json_is_null(reason) && !json_is_string(reason)) {
		*why = "the end reason is not a string";
		return -1;
	}
	sc_reply_set_reason(r, json_string_value(reason));
	return 0;
}

void sc_provider_error_type(const char *body, size_t len, char *out,
			    size_t outsz)
{
	json_t *root = json_loadb(body, len, 0, NULL);
	json_t *err = json_object_get(root, "error");
	const char *word = json_string_value(json_object_get(err, "type"));
	size_t n;

	if (!word)
		word = json_string_value(json_object_get(err, "code"));
	n = word ? strlen(word) : 0;
	if (!n || n >= outsz || n > 64 ||
	    strspn(word, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789_.-") != n)
		word = "unknown";
	snprintf(out, outsz, "%s", word);
	json_decref(root);
}

unsigned long long sc_model_context_tokens(const char *model)
{
	static const struct {
		const char *part;
		unsigned long long tokens;
	} windows[] = {
		/* Bedrock ids hold the name after a prefix: matched anywhere. */
		{ "claude", 200000 }, { "gpt-4.1", 1047576 },
		{ "gpt-4o", 128000 }, { "o1", 200000 }, { "o3", 200000 },
		{ "o4-mini", 200000 },
	};
	size_t i;

	for (i = 0; model && i < sizeof(windows) / sizeof(windows[0]); i++)
		if (strstr(model, windows[i].part))
			return windows[i].tokens;
	return 0;
}

unsigned long long sc_conversation_tokens(const struct sc_conversation *c)
{
	unsigned long long bytes = c->system.len;
	size_t i;

	for (i = 0; i < c->tools_nr; i++) {
		char *schema = json_dumps(c->tools[i].schema, JSON_COMPACT);

		bytes += strlen(c->tools[i].name) + (schema ? strlen(schema) : 0) +
			 (c->tools[i].description ?
			  strlen(c->tools[i].description) : 0);
		free(schema);
	}
	for (i = 0; i < c->items_nr; i++) {
		const struct sc_item *it = &c->items[i];

		bytes += it->text_len + 32;   /* the block around it */
		if (it->args) {
			char *a = json_dumps(it->args, JSON_COMPACT);

			bytes += a ? strlen(a) : 0;
			free(a);
		}
	}
	return (bytes + 3) / 4;
}

/* The one line that stands for an elided result. */
static char *summary_of(const struct sc_item *it)
{
	struct sc_buf b = SC_BUF_INIT;
	size_t first = 0, lines = 0, i;

	while (first < it->text_len && first < 120 && it->text[first] != '\n')
		first++;
	for (i = 0; i < it->text_len; i++)
		lines += it->text[i] == '\n';
	sc_buf_addf(&b, "[elided by sc-model to keep the conversation within "
		    "its context: %zu bytes, %zu lines; it began: ",
		    it->text_len, lines + (it->text_len &&
					   it->text[it->text_len - 1] != '\n'));
	sc_buf_add(&b, it->text, first);
	sc_buf_adds(&b, "]");
	return sc_buf_detach(&b, NULL);
}

int sc_conversation_fit(struct sc_conversation *c,
			unsigned long long budget, size_t *elided)
{
	unsigned long long need = sc_conversation_tokens(c);
	size_t last = c->items_nr, i;

	*elided = 0;
	if (!budget || need <= budget)
		return 0;
	/* The results after the model's last turn are the ones it asked for. */
	while (last > 0 && c->items[last - 1].kind == SC_ITEM_RESULT)
		last--;
	for (i = 0; i < last && need > budget; i++) {
		struct sc_item *it = &c->items[i];
		char *line;
		size_t len;

		if (it->kind != SC_ITEM_RESULT || it->elided)
			continue;
		line = summary_of(it);
		len = strlen(line);
		if (len >= it->text_len) {
			free(line);
			continue;
		}
		need -= (it->text_len - len) / 4;
		it->elided = line;
		it->text = line;
		it->text_len = len;
		(*elided)++;
	}
	if (need > budget) {
		sc_error("CONTEXT-FULL", "the conversation needs about %llu "
			 "tokens, past the %llu it may take even with %zu older "
			 "tool results elided", need, budget, *elided);
		return -1;
	}
	return 0;
}
