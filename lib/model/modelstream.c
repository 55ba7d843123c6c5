/*
 * A streamed reply rebuilt into a whole response.  See modelstream.h.
 */
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "encode.h"
#include "io.h"
#include "modelstream.h"
#include "provider-anthropic.h"
#include "provider-openai.h"
#include "record.h"
#include "strlist.h"

enum { FRAMING_NONE, FRAMING_SSE, FRAMING_ES, FRAMING_JSON };

static int on_sse(void *ctx, const char *event, const char *data, size_t len);
static int on_es(void *ctx, const struct sc_es_message *m);

void sc_stream_init(struct sc_stream *s, enum sc_stream_dialect dialect,
		    int progress_fd, const char *provider)
{
	memset(s, 0, sizeof(*s));
	s->dialect = dialect;
	sc_sse_init(&s->sse, on_sse, s);
	sc_es_init(&s->es, on_es, s);
	sc_buf_init(&s->whole);
	sc_buf_init(&s->scratch);
	sc_buf_init(&s->text);
	s->progress_fd = progress_fd;
	s->provider = provider;
	clock_gettime(CLOCK_MONOTONIC, &s->start);
	s->last = s->start;
}

static void forget(struct sc_stream *s)
{
	size_t i;

	json_decref(s->msg);
	json_decref(s->calls);
	json_decref(s->usage);
	s->msg = s->calls = s->usage = NULL;
	for (i = 0; i < s->acc_nr; i++)
		sc_buf_release(&s->acc[i].text);
	s->acc_nr = 0;
	sc_buf_reset(&s->text);
	sc_buf_reset(&s->whole);
	s->has_text = 0;
	s->finish[0] = '\0';
	s->stopped = s->too_large = 0;
	s->received = s->delta_bytes = 0;
	s->why = NULL;
	s->error_type[0] = '\0';
	s->framing = FRAMING_NONE;
}

void sc_stream_release(struct sc_stream *s)
{
	forget(s);
	free(s->acc);
	sc_sse_release(&s->sse);
	sc_es_release(&s->es);
	sc_buf_release(&s->whole);
	sc_buf_release(&s->scratch);
	sc_buf_release(&s->text);
}

void sc_stream_reset(struct sc_stream *s)
{
	forget(s);
	sc_sse_reset(&s->sse);
	sc_es_reset(&s->es);
}

static int bad(struct sc_stream *s, const char *why)
{
	s->why = why;
	return SC_STREAM_BAD;
}

/* The provider's error word, when it is one; "unknown" otherwise. */
static int retry(struct sc_stream *s, const char *word)
{
	size_t n = word ? strlen(word) : 0;

	if (!n || n >= sizeof(s->error_type) ||
	    strspn(word, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789_.-") != n)
		word = "unknown";
	snprintf(s->error_type, sizeof(s->error_type), "%s", word);
	return SC_STREAM_RETRY;
}

/* The accumulator of block I, made when needed. */
static struct sc_buf *acc(struct sc_stream *s, size_t i)
{
	while (s->acc_nr <= i) {
		SC_ALLOC_GROW(s->acc, s->acc_nr + 1, s->acc_alloc);
		sc_buf_init(&s->acc[s->acc_nr].text);
		s->acc_nr++;
	}
	return &s->acc[i].text;
}

static int add_delta(struct sc_stream *s, struct sc_buf *b, json_t *str)
{
	if (!json_is_string(str))
		return bad(s, "a stream delta is not a string");
	sc_buf_add(b, json_string_value(str), json_string_length(str));
	s->delta_bytes += json_string_length(str);
	return SC_STREAM_GO;
}

/* content_block_start: blocks arrive in order, each index once. */
static int block_start(struct sc_stream *s, json_t *ev)
{
	json_t *content = json_object_get(s->msg, "content");
	json_t *idx = json_object_get(ev, "index");
	json_t *block = json_object_get(ev, "content_block");

	if (!json_is_integer(idx) ||
	    (size_t)json_integer_value(idx) != json_array_size(content) ||
	    !json_is_object(block) ||
	    !json_is_string(json_object_get(block, "type")))
		return bad(s, "a content block starts out of order or untyped");
	sc_buf_reset(acc(s, json_array_size(content)));
	json_array_append_new(content, json_deep_copy(block));
	return SC_STREAM_GO;
}

/* The index of an open block named by EV, or -1. */
static long block_index(struct sc_stream *s, json_t *ev)
{
	json_t *idx = json_object_get(ev, "index");
	json_t *content = json_object_get(s->msg, "content");

	if (!json_is_integer(idx) || json_integer_value(idx) < 0 ||
	    (size_t)json_integer_value(idx) >= json_array_size(content))
		return -1;
	return (long)json_integer_value(idx);
}

static int block_delta(struct sc_stream *s, json_t *ev)
{
	long i = block_index(s, ev);
	json_t *delta = json_object_get(ev, "delta");
	const char *type = json_string_value(json_object_get(delta, "type"));

	if (i < 0 || !type)
		return bad(s, "a content block delta names no open block");
	if (!strcmp(type, "text_delta"))
		return add_delta(s, acc(s, (size_t)i),
				 json_object_get(delta, "text"));
	if (!strcmp(type, "input_json_delta"))
		return add_delta(s, acc(s, (size_t)i),
				 json_object_get(delta, "partial_json"));
	/* Thinking, signatures, citations: nothing sc-model passes on. */
	return SC_STREAM_GO;
}

/* content_block_stop: the block gets its text or its input whole. */
static int block_stop(struct sc_stream *s, json_t *ev)
{
	long i = block_index(s, ev);
	json_t *block, *input;
	const char *type;
	struct sc_buf *b;

	if (i < 0)
		return bad(s, "a content block stop names no open block");
	block = json_array_get(json_object_get(s->msg, "content"), (size_t)i);
	type = json_string_value(json_object_get(block, "type"));
	b = acc(s, (size_t)i);
	if (!strcmp(type, "text")) {
		json_t *t = json_stringn(b->data ? b->data : "", b->len);

		if (!t)
			return bad(s, "a text block is not UTF-8");
		json_object_set_new(block, "text", t);
	} else if (!strcmp(type, "tool_use") && b->len) {
		input = json_loadb(b->data, b->len, JSON_REJECT_DUPLICATES, NULL);
		if (!json_is_object(input)) {
			json_decref(input);
			return bad(s, "a tool_use block's input is not a JSON object");
		}
		json_object_set_new(block, "input", input);
	}
	return SC_STREAM_GO;
}

static int message_delta(struct sc_stream *s, json_t *ev)
{
	json_t *delta = json_object_get(ev, "delta");
	json_t *usage = json_object_get(ev, "usage");
	json_t *reason = json_object_get(delta, "stop_reason");

	if (!json_is_object(delta))
		return bad(s, "a message_delta has no delta");
	if (reason)
		json_object_set(s->msg, "stop_reason", reason);
	if (json_is_object(usage)) {
		if (!json_is_object(json_object_get(s->msg, "usage")))
			json_object_set_new(s->msg, "usage", json_object());
		json_object_update(json_object_get(s->msg, "usage"), usage);
	}
	return SC_STREAM_GO;
}

static int message_start(struct sc_stream *s, json_t *ev)
{
	json_t *m = json_object_get(ev, "message");

	if (s->msg || !json_is_object(m))
		return bad(s, "a message_start is repeated or holds no message");
	s->msg = json_deep_copy(m);
	json_object_set_new(s->msg, "content", json_array());
	return SC_STREAM_GO;
}

/* One Anthropic event (an SSE data, or a Bedrock chunk's bytes). */
static int anthropic_event(struct sc_stream *s, const char *data, size_t len)
{
	json_t *ev = json_loadb(data, len, JSON_REJECT_DUPLICATES, NULL);
	const char *type = json_string_value(json_object_get(ev, "type"));
	int ret;

	if (!type)
		ret = bad(s, "a stream event is not a JSON object with a type");
	else if (!strcmp(type, "ping"))
		ret = SC_STREAM_GO;
	else if (!strcmp(type, "error"))
		ret = retry(s, json_string_value(json_object_get(
				json_object_get(ev, "error"), "type")));
	else if (s->stopped)
		ret = bad(s, "an event came after message_stop");
	else if (!strcmp(type, "message_start"))
		ret = message_start(s, ev);
	else if (!s->msg)
		ret = bad(s, "an event came before message_start");
	else if (!strcmp(type, "content_block_start"))
		ret = block_start(s, ev);
	else if (!strcmp(type, "content_block_delta"))
		ret = block_delta(s, ev);
	else if (!strcmp(type, "content_block_stop"))
		ret = block_stop(s, ev);
	else if (!strcmp(type, "message_delta"))
		ret = message_delta(s, ev);
	else if (!strcmp(type, "message_stop"))
		ret = (s->stopped = 1, SC_STREAM_GO);
	else
		ret = bad(s, "an unknown stream event");
	json_decref(ev);
	return ret;
}

/* OpenAI: a call's pieces, by index; the first id and name stay. */
static int openai_call(struct sc_stream *s, json_t *c)
{
	json_t *idx = json_object_get(c, "index"), *fn, *call;
	size_t i;

	if (!json_is_integer(idx) || json_integer_value(idx) < 0 ||
	    json_integer_value(idx) > 1024)
		return bad(s, "a tool call delta has no index");
	i = (size_t)json_integer_value(idx);
	if (!s->calls)
		s->calls = json_array();
	while (json_array_size(s->calls) <= i) {
		json_t *o = json_object(), *f = json_object();

		json_object_set_new(o, "type", json_string("function"));
		json_object_set_new(o, "function", f);
		json_array_append_new(s->calls, o);
	}
	call = json_array_get(s->calls, i);
	fn = json_object_get(c, "function");
	if (json_is_string(json_object_get(c, "id")) &&
	    !json_object_get(call, "id"))
		json_object_set(call, "id", json_object_get(c, "id"));
	if (json_is_string(json_object_get(fn, "name")) &&
	    !json_object_get(json_object_get(call, "function"), "name"))
		json_object_set(json_object_get(call, "function"), "name",
				json_object_get(fn, "name"));
	if (json_object_get(fn, "arguments"))
		return add_delta(s, acc(s, i), json_object_get(fn, "arguments"));
	return SC_STREAM_GO;
}

static int openai_choice(struct sc_stream *s, json_t *choice)
{
	json_t *delta = json_object_get(choice, "delta");
	json_t *content = json_object_get(delta, "content");
	json_t *calls = json_object_get(delta, "tool_calls");
	json_t *finish = json_object_get(choice, "finish_reason");
	size_t i;
	int ret = SC_STREAM_GO;

	if (json_is_string(content)) {
		ret = add_delta(s, &s->text, content);
		s->has_text = 1;
	}
	for (i = 0; !ret && i < json_array_size(calls); i++)
		ret = openai_call(s, json_array_get(calls, i));
	if (!ret && json_is_string(finish))
		snprintf(s->finish, sizeof(s->finish), "%s",
			 json_string_value(finish));
	return ret;
}

static int openai_event(struct sc_stream *s, const char *data, size_t len)
{
	json_t *ev, *choices;
	int ret = SC_STREAM_GO;
	size_t i;

	if (len == 6 && !memcmp(data, "[DONE]", 6)) {
		s->stopped = 1;
		return SC_STREAM_GO;
	}
	if (s->stopped)
		return bad(s, "a chunk came after [DONE]");
	ev = json_loadb(data, len, JSON_REJECT_DUPLICATES, NULL);
	choices = json_object_get(ev, "choices");
	if (!json_is_object(ev)) {
		ret = bad(s, "a stream chunk is not a JSON object");
	} else if (json_object_get(ev, "error")) {
		json_t *e = json_object_get(ev, "error");
		const char *w = json_string_value(json_object_get(e, "type"));

		ret = retry(s, w ? w : json_string_value(json_object_get(e, "code")));
	} else if (choices && !json_is_array(choices)) {
		ret = bad(s, "a stream chunk's choices are not an array");
	}
	for (i = 0; !ret && i < json_array_size(choices); i++) {
		json_t *c = json_array_get(choices, i);
		json_t *idx = json_object_get(c, "index");

		/* sc-model asks for one choice; others are not read. */
		if (!idx || (json_is_integer(idx) && !json_integer_value(idx)))
			ret = openai_choice(s, c);
	}
	if (!ret && json_is_object(json_object_get(ev, "usage"))) {
		json_decref(s->usage);
		s->usage = json_incref(json_object_get(ev, "usage"));
	}
	json_decref(ev);
	return ret;
}

static int on_sse(void *ctx, const char *event, const char *data, size_t len)
{
	struct sc_stream *s = ctx;

	(void)event;   /* the data names its type; Bedrock's has no name */
	return s->dialect == SC_STREAM_ANTHROPIC ? anthropic_event(s, data, len) :
		openai_event(s, data, len);
}

/* Bedrock's exceptions that retrying can cure. */
static int aws_transient(const char *name)
{
	static const char *const names[] = {
		"throttlingException", "internalServerException",
		"serviceUnavailableException", "modelStreamErrorException",
		"modelTimeoutException", NULL,
	};

	return sc_str_in_list(name, names);
}

static int on_es(void *ctx, const struct sc_es_message *m)
{
	struct sc_stream *s = ctx;
	json_t *payload, *bytes;
	int ret;

	if (!strcmp(m->message_type, "exception") ||
	    !strcmp(m->message_type, "error")) {
		if (aws_transient(m->event_type))
			return retry(s, m->event_type);
		snprintf(s->why_buf, sizeof(s->why_buf), "the stream reported %s",
			 m->event_type[0] ? m->event_type : "an error");
		for (char *p = s->why_buf; *p; p++)
			if (*p < 0x20 || *p > 0x7e)
				*p = '?';
		return bad(s, s->why_buf);
	}
	if (strcmp(m->message_type, "event") || strcmp(m->event_type, "chunk"))
		return bad(s, "an unknown event stream message");
	payload = json_loadb((const char *)m->payload, m->payload_len,
			     JSON_REJECT_DUPLICATES, NULL);
	bytes = json_object_get(payload, "bytes");
	sc_buf_reset(&s->scratch);
	if (!json_is_string(bytes) ||
	    sc_base64_decode(&s->scratch, json_string_value(bytes),
			     json_string_length(bytes)) < 0) {
		json_decref(payload);
		return bad(s, "a chunk holds no base64 bytes");
	}
	json_decref(payload);
	ret = anthropic_event(s, s->scratch.data ? s->scratch.data : "",
			      s->scratch.len);
	return ret;
}

static long long ms_since(const struct timespec *a, const struct timespec *b)
{
	return (long long)(b->tv_sec - a->tv_sec) * 1000 +
	       (b->tv_nsec - a->tv_nsec) / 1000000;
}

/*
 * type=progress, at most once a second: the driver's status line moves on
 * a long answer.  Tokens are estimated (4 bytes each) from what streamed:
 * the provider counts them only at the end.
 */
static void progress(struct sc_stream *s)
{
	struct sc_record rec;
	struct sc_buf out = SC_BUF_INIT;
	struct timespec now;
	char num[32];

	if (s->progress_fd < 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (ms_since(&s->last, &now) < 1000)
		return;
	s->last = now;
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "progress");
	sc_record_adds(&rec, "provider", s->provider);
	snprintf(num, sizeof(num), "%lld", ms_since(&s->start, &now));
	sc_record_adds(&rec, "elapsed-ms", num);
	sc_record_addu(&rec, "received-bytes", s->received);
	sc_record_addu(&rec, "estimated-tokens", (s->delta_bytes + 3) / 4);
	sc_record_encode(&rec, &out);
	/* A reader that went away loses progress, never the reply. */
	(void)sc_write_all(s->progress_fd, out.data, out.len);
	sc_buf_release(&out);
	sc_record_release(&rec);
}

static int framing_of(const char *ct)
{
	if (ct && !strncasecmp(ct, "text/event-stream", 17))
		return FRAMING_SSE;
	if (ct && !strncasecmp(ct, "application/vnd.amazon.eventstream", 34))
		return FRAMING_ES;
	return FRAMING_JSON;
}

int sc_stream_feed(struct sc_stream *s, const char *content_type,
		   const char *data, size_t len)
{
	int ret;

	if (s->framing == FRAMING_NONE)
		s->framing = framing_of(content_type);
	if (len > SC_STREAM_MAX - s->received) {
		s->too_large = 1;
		return bad(s, "the answer passes 16 MiB");
	}
	s->received += len;
	switch (s->framing) {
	case FRAMING_SSE:
		ret = sc_sse_feed(&s->sse, data, len);
		if (ret == -1 && !s->why)
			s->why = "a stream event passes 1 MiB or holds a NUL";
		break;
	case FRAMING_ES:
		ret = sc_es_feed(&s->es, data, len);
		if (ret == -1 && !s->why)
			s->why = s->es.why ? s->es.why : "a malformed event stream";
		break;
	default:
		sc_buf_add(&s->whole, data, len);
		ret = SC_STREAM_GO;
		break;
	}
	if (!ret)
		progress(s);
	return ret;
}

int sc_stream_done(struct sc_stream *s)
{
	switch (s->framing) {
	case FRAMING_SSE:
		return s->stopped;
	case FRAMING_ES:
		return s->stopped && sc_es_idle(&s->es);
	default:
		return 1;   /* a whole answer: curl saw all of it */
	}
}

/* OpenAI's pieces, put back into a Chat Completions response. */
static json_t *openai_root(struct sc_stream *s)
{
	json_t *root = json_object(), *choice = json_object();
	json_t *msg = json_object(), *choices = json_array();
	size_t i;

	json_object_set_new(msg, "role", json_string("assistant"));
	json_object_set_new(msg, "content", s->has_text ?
			    json_stringn(s->text.data ? s->text.data : "",
					 s->text.len) : json_null());
	for (i = 0; i < json_array_size(s->calls); i++) {
		struct sc_buf *b = acc(s, i);

		json_object_set_new(json_object_get(json_array_get(s->calls, i),
						    "function"), "arguments",
				    json_stringn(b->data ? b->data : "", b->len));
	}
	if (s->calls)
		json_object_set(msg, "tool_calls", s->calls);
	json_object_set_new(choice, "message", msg);
	json_object_set_new(choice, "finish_reason", s->finish[0] ?
			    json_string(s->finish) : json_null());
	json_array_append_new(choices, choice);
	json_object_set_new(root, "choices", choices);
	if (s->usage)
		json_object_set(root, "usage", s->usage);
	return root;
}

int sc_stream_reply(struct sc_stream *s, struct sc_reply *reply,
		    const char **why)
{
	json_t *root;
	int ret;

	if (s->framing == FRAMING_JSON || s->framing == FRAMING_NONE) {
		const char *b = s->whole.data ? s->whole.data : "";

		return s->dialect == SC_STREAM_ANTHROPIC ?
			sc_anthropic_parse(b, s->whole.len, reply, why) :
			sc_openai_parse(b, s->whole.len, reply, why);
	}
	if (s->dialect == SC_STREAM_ANTHROPIC)
		return sc_anthropic_parse_json(s->msg, reply, why);
	root = openai_root(s);
	ret = sc_openai_parse_json(root, reply, why);
	json_decref(root);
	return ret;
}
