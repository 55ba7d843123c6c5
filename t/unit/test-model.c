#include "../lib/tap.h"

#include <string.h>

#include "http.h"
#include "jsonstr.h"
#include "model.h"
#include "provider-anthropic.h"
#include "provider-openai.h"
#include "recjson.h"
#include "replay.h"

/* A record from its JSON form (sc-rec(1)). */
static void rec_json(struct sc_record *rec, const char *json)
{
	struct sc_json_error err;

	assert_int_equal(sc_record_from_json(json, strlen(json), rec, &err), 0);
}

static int conv_add(struct sc_conversation *c, const char *json)
{
	struct sc_record rec;
	int ret;

	sc_record_init(&rec);
	rec_json(&rec, json);
	ret = sc_conversation_add(c, &rec, 1);
	sc_record_release(&rec);
	return ret;
}

/* The reply encoded as JSON Lines. */
static void reply_lines(const struct sc_reply *r, unsigned labels,
			struct sc_buf *json, int *ret, const char **why)
{
	struct sc_buf out = SC_BUF_INIT;
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record rec;

	*ret = sc_reply_encode(r, labels, "p", "m", &out, why);
	sc_input_init_mem(&in, out.data ? out.data : "", out.len);
	sc_reader_init(&rd, &in);
	sc_record_init(&rec);
	while (sc_reader_next(&rd, &rec) == SC_READ_RECORD) {
		sc_record_to_json(&rec, json);
		sc_buf_addch(json, '\n');
	}
	sc_record_release(&rec);
	sc_buf_release(&out);
}

static void test_labels(void **state)
{
	struct sc_conversation c;

	(void)state;
	assert_int_equal(sc_label_parse("trusted"), SC_LABEL_TRUSTED);
	assert_int_equal(sc_label_parse("held-out"), SC_LABEL_HELD_OUT);
	assert_int_equal(sc_label_parse("Trusted"), 0);
	assert_int_equal(sc_label_parse(NULL), 0);
	sc_conversation_init(&c);
	assert_int_equal(conv_add(&c, "{\"type\":\"message\",\"role\":\"user\",\"text\":\"x\",\"source\":\"p\"}"), -1);
	assert_int_equal(conv_add(&c, "{\"type\":\"message\",\"role\":\"user\",\"text\":\"x\",\"label\":\"trusted\"}"), -1);
	assert_int_equal(conv_add(&c, "{\"type\":\"message\",\"role\":\"user\",\"text\":\"x\",\"label\":[\"trusted\",\"untrusted\"],\"source\":\"p\"}"), -1);
	assert_int_equal(conv_add(&c, "{\"type\":\"system\",\"text\":\"x\",\"label\":[\"trusted\",\"held-out\"],\"source\":\"p\"}"), -1);
	assert_int_equal(conv_add(&c, "{\"type\":\"verdict\",\"decision\":\"allow\"}"), 0);
	assert_int_equal(c.items_nr, 0);
	assert_int_equal(sc_conversation_finish(&c), -1);
	assert_int_equal(conv_add(&c, "{\"type\":\"message\",\"role\":\"user\",\"text\":\"x\",\"label\":[\"untrusted\",\"held-out\"],\"source\":\"issue\"}"), 0);
	assert_int_equal(sc_conversation_finish(&c), 0);
	assert_int_equal(c.labels, SC_LABEL_UNTRUSTED | SC_LABEL_HELD_OUT);
	assert_int_equal(sc_conversation_check_labels(&c, 0), -1);
	assert_int_equal(sc_conversation_check_labels(&c, SC_LABEL_HELD_OUT), 0);
	sc_conversation_release(&c);
}

static void test_call_args_round_trip(void **state)
{
	struct sc_record rec;
	json_t *args;
	char *s;

	(void)state;
	sc_record_init(&rec);
	rec_json(&rec, "{\"type\":\"call\",\"id\":\"c\",\"tool\":\"run\",\"source\":\"model\","
		       "\"label\":\"trusted\",\"argv\":[\"git\",\"status\"],\"cwd\":\"src\"}");
	args = sc_call_args_from_record(&rec);
	s = json_dumps(args, JSON_COMPACT);
	assert_string_equal(s, "{\"argv\":[\"git\",\"status\"],\"cwd\":\"src\"}");
	free(s);
	json_decref(args);
	sc_record_release(&rec);
}

static void test_reply_mapping(void **state)
{
	struct sc_reply r;
	struct sc_buf json = SC_BUF_INIT;
	const char *why = NULL;
	int ret;

	(void)state;
	sc_reply_init(&r);
	sc_reply_add_text(&r, "hi", 2);
	sc_reply_add_call(&r, "c1", "run",
			  json_loads("{\"argv\":[\"ls\"],\"n\":3,\"o\":{\"a\":1},\"e\":[],\"m\":[1,\"x\"]}", 0, NULL));
	sc_reply_add_text(&r, "bye", 3);
	sc_reply_set_reason(&r, NULL);
	reply_lines(&r, SC_LABEL_TRUSTED | SC_LABEL_UNTRUSTED, &json, &ret, &why);
	assert_int_equal(ret, 0);
	assert_string_equal(json.data,
		"{\"type\":\"text\",\"text\":\"hi\",\"source\":\"model\",\"label\":\"untrusted\"}\n"
		"{\"type\":\"call\",\"id\":\"c1\",\"tool\":\"run\",\"source\":\"model\",\"label\":\"untrusted\","
		"\"argv\":\"ls\",\"n\":\"3\",\"o\":\"{\\\"a\\\":1}\",\"m\":\"[1,\\\"x\\\"]\"}\n"
		"{\"type\":\"text\",\"text\":\"bye\",\"source\":\"model\",\"label\":\"untrusted\"}\n"
		"{\"type\":\"usage\",\"input-tokens\":\"0\",\"output-tokens\":\"0\","
		"\"labels\":[\"trusted\",\"untrusted\"],\"provider\":\"p\",\"model\":\"m\"}\n"
		"{\"type\":\"end\",\"reason\":\"tool-use\"}\n");
	sc_buf_release(&json);
	sc_reply_release(&r);
}

static void test_reply_refuses_reserved(void **state)
{
	static const char *const bad[] = {
		"{\"source\":\"person\"}", "{\"id\":\"x\"}", "{\"label\":\"trusted\"}",
		"{\"type\":\"x\"}", "{\"tool\":\"x\"}", "{\"Path\":\"x\"}", "{\"a=b\":\"x\"}",
		"{\"\":\"x\"}", NULL,
	};
	size_t i;

	(void)state;
	for (i = 0; bad[i]; i++) {
		struct sc_reply r;
		struct sc_buf out = SC_BUF_INIT;
		const char *why = NULL;

		sc_reply_init(&r);
		sc_reply_add_text(&r, "before", 6);
		sc_reply_add_call(&r, "c", "run", json_loads(bad[i], 0, NULL));
		assert_int_equal(sc_reply_encode(&r, SC_LABEL_TRUSTED, "p", "m", &out, &why), -1);
		assert_non_null(why);
		assert_int_equal(out.len, 0);   /* nothing partial */
		sc_buf_release(&out);
		sc_reply_release(&r);
	}
}

static void test_reasons(void **state)
{
	struct sc_reply r;

	(void)state;
	sc_reply_init(&r);
	sc_reply_set_reason(&r, "tool_calls");
	assert_string_equal(r.reason, "tool-use");
	sc_reply_set_reason(&r, "length");
	assert_string_equal(r.reason, "max-tokens");
	sc_reply_set_reason(&r, "pause_turn");
	assert_string_equal(r.reason, "pause-turn");
	sc_reply_set_reason(&r, "Evil\x1b[2J");
	assert_string_equal(r.reason, "other");
	sc_reply_set_reason(&r, "");
	assert_string_equal(r.reason, "other");
	sc_reply_release(&r);
}

static void test_error_type(void **state)
{
	char t[72];
	const char *a = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}";
	const char *b = "{\"error\":{\"code\":\"rate_limit_exceeded\",\"type\":null}}";
	const char *c = "{\"error\":{\"type\":\"sk-ant-secret with spaces\"}}";
	const char *d = "<html>";

	(void)state;
	sc_provider_error_type(a, strlen(a), t, sizeof(t));
	assert_string_equal(t, "overloaded_error");
	sc_provider_error_type(b, strlen(b), t, sizeof(t));
	assert_string_equal(t, "rate_limit_exceeded");
	sc_provider_error_type(c, strlen(c), t, sizeof(t));
	assert_string_equal(t, "unknown");
	sc_provider_error_type(d, strlen(d), t, sizeof(t));
	assert_string_equal(t, "unknown");
}

static void test_anthropic_parse(void **state)
{
	const char *ok = "{\"content\":[{\"type\":\"thinking\",\"thinking\":\"hm\"},"
			 "{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"read\",\"input\":{\"path\":\"a\"}},"
			 "{\"type\":\"text\",\"text\":\"x\"}],\"stop_reason\":\"tool_use\","
			 "\"usage\":{\"input_tokens\":5,\"output_tokens\":7}}";
	static const char *const bad[] = {
		"[]", "{}", "{\"content\":{}}", "{\"content\":[{\"type\":\"text\"}]}",
		"{\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"r\",\"input\":[]}]}",
		"{\"content\":[],\"usage\":{\"input_tokens\":-1}}",
		"{\"content\":[],\"stop_reason\":5}", "{\"content\":[{}]}",
		"{\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"re\\u0000ad\",\"input\":{}}]}",
		"{\"content\":[],\"content\":[]}", NULL,
	};
	struct sc_reply r;
	const char *why = NULL;
	size_t i;

	(void)state;
	sc_reply_init(&r);
	assert_int_equal(sc_anthropic_parse(ok, strlen(ok), &r, &why), 0);
	assert_int_equal(r.nr, 2);
	assert_true(r.items[0].is_call);
	assert_string_equal(r.items[0].id, "t1");
	assert_string_equal(r.items[1].text, "x");
	assert_int_equal(r.input_tokens, 5);
	assert_int_equal(r.output_tokens, 7);
	assert_string_equal(r.reason, "tool-use");
	sc_reply_release(&r);
	for (i = 0; bad[i]; i++) {
		sc_reply_init(&r);
		why = NULL;
		assert_int_equal(sc_anthropic_parse(bad[i], strlen(bad[i]), &r, &why), -1);
		assert_non_null(why);
		sc_reply_release(&r);
	}
}

static void test_openai_parse(void **state)
{
	const char *ok = "{\"choices\":[{\"message\":{\"content\":null,\"tool_calls\":["
			 "{\"id\":\"a\",\"function\":{\"name\":\"list\",\"arguments\":\"\"}}]},"
			 "\"finish_reason\":\"tool_calls\"}]}";
	static const char *const bad[] = {
		"{\"choices\":[]}", "{\"choices\":[{}]}",
		"{\"choices\":[{\"message\":{\"content\":3}}]}",
		"{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"a\",\"function\":{\"name\":\"x\",\"arguments\":\"[1]\"}}]}}]}",
		"{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"a\",\"function\":{\"name\":\"x\",\"arguments\":\"{\\\"a\\\":1,\\\"a\\\":2}\"}}]}}]}",
		"{\"choices\":[{\"message\":{}}],\"usage\":{\"prompt_tokens\":\"9\"}}",
		NULL,
	};
	struct sc_reply r;
	const char *why = NULL;
	size_t i;

	(void)state;
	sc_reply_init(&r);
	assert_int_equal(sc_openai_parse(ok, strlen(ok), &r, &why), 0);
	assert_int_equal(r.nr, 1);
	assert_string_equal(r.items[0].name, "list");
	assert_int_equal(json_object_size(r.items[0].args), 0);
	assert_string_equal(r.reason, "tool-use");
	sc_reply_release(&r);
	for (i = 0; bad[i]; i++) {
		sc_reply_init(&r);
		why = NULL;
		assert_int_equal(sc_openai_parse(bad[i], strlen(bad[i]), &r, &why), -1);
		assert_non_null(why);
		sc_reply_release(&r);
	}
}

static void test_replay(void **state)
{
	const char *text =
		"# a comment\n\n"
		"{\"type\":\"turn\"}\r\n"
		"{\"type\":\"expect\",\"of\":\"message\",\"contains\":\"hello\"}\n"
		"{\"type\":\"call\",\"id\":\"c1\",\"tool\":\"read\",\"path\":\"x\"}\n"
		"{\"type\":\"turn\"}\n"
		"{\"type\":\"expect\",\"of\":\"tool-result\",\"id\":\"c1\"}\n"
		"{\"type\":\"text\",\"text\":\"done\"}\n"
		"{\"type\":\"usage\",\"input-tokens\":\"4\"}\n";
	struct sc_transcript t;
	struct sc_conversation c;
	struct sc_reply r;
	const char *why = NULL;
	unsigned long line;

	(void)state;
	sc_transcript_init(&t);
	assert_int_equal(sc_transcript_parse(text, strlen(text), &t, &line, &why), 0);
	assert_int_equal(t.nr, 2);
	sc_conversation_init(&c);
	assert_int_equal(conv_add(&c, "{\"type\":\"message\",\"role\":\"user\",\"text\":\"say hello\",\"label\":\"trusted\",\"source\":\"p\"}"), 0);
	sc_reply_init(&r);
	assert_int_equal(sc_replay_answer(&t, &c, &r), 0);
	assert_int_equal(r.nr, 1);
	assert_string_equal(r.items[0].id, "c1");
	assert_string_equal(r.reason, "tool-use");
	sc_reply_release(&r);
	assert_int_equal(conv_add(&c, "{\"type\":\"call\",\"id\":\"c1\",\"tool\":\"read\",\"path\":\"x\",\"label\":\"trusted\",\"source\":\"model\"}"), 0);
	assert_int_equal(conv_add(&c, "{\"type\":\"tool-result\",\"id\":\"c2\",\"text\":\"t\",\"label\":\"untrusted\",\"source\":\"w\"}"), 0);
	sc_reply_init(&r);
	assert_int_equal(sc_replay_answer(&t, &c, &r), -1);
	sc_reply_release(&r);
	sc_conversation_release(&c);
	sc_transcript_release(&t);

	sc_transcript_init(&t);
	assert_int_equal(sc_transcript_parse("{\"type\":\"turn\"}\n{\"type\":\"end\"}", 30, &t, &line, &why), -1);
	assert_int_equal(line, 2);
	sc_transcript_release(&t);
}

static void test_loopback(void **state)
{
	(void)state;
	assert_true(sc_http_url_is_loopback("http://127.0.0.1:8080/v1"));
	assert_true(sc_http_url_is_loopback("http://localhost/v1"));
	assert_true(sc_http_url_is_loopback("http://[::1]:99"));
	assert_false(sc_http_url_is_loopback("http://127.0.0.1.evil.example/"));
	assert_false(sc_http_url_is_loopback("http://example.com/"));
	assert_false(sc_http_url_is_loopback("ftp://127.0.0.1/"));
	assert_false(sc_http_url_is_loopback("http://user@10.0.0.1/"));
	assert_true(sc_http_url_is_https("HTTPS://api.example.com"));
	assert_false(sc_http_url_is_https("http://api.example.com"));
}

static void test_json_string_not_utf8(void **state)
{
	json_t *s;

	(void)state;
	s = sc_json_string("a\xff" "b\0c", 5, "?");
	assert_int_equal(json_string_length(s), 5);
	assert_memory_equal(json_string_value(s), "a?b\0c", 5);
	json_decref(s);
	s = sc_json_string("\xc3\xa9", 2, "?");
	assert_string_equal(json_string_value(s), "\xc3\xa9");
	json_decref(s);
}

/*
 * A valid character beside bad bytes stays: only each bad byte becomes
 * '?' (the '?'-every-high-byte form lost the valid text too), and the
 * result is UTF-8 a provider takes.
 */
static void test_json_string_keeps_valid(void **state)
{
	json_t *s;

	(void)state;
	s = sc_json_string("\xc3\xa9\xff\xe2\x82", 5, "?");
	assert_string_equal(json_string_value(s), "\xc3\xa9???");
	json_decref(s);
	s = sc_json_string("", 0, "?");
	assert_string_equal(json_string_value(s), "");
	json_decref(s);
}

static void test_backoff(void **state)
{
	const struct sc_http_opts o = { 1000, 5, 500, 60000 };
	unsigned long a, r;

	(void)state;
	for (a = 0; a < 12; a++) {
		unsigned long full = 500UL << (a < 7 ? a : 7);

		if (full > 60000)
			full = 60000;
		for (r = 0; r < 2000; r += 97) {
			unsigned long w = sc_http_backoff(&o, a, (unsigned int)r * 7919u);

			assert_true(w >= full / 2);
			assert_true(w <= full);
		}
	}
	assert_int_equal(sc_http_backoff(&o, 0, 0), 250);
	assert_int_equal(sc_http_backoff(&o, 3, 0), 2000);
	assert_int_equal(sc_http_backoff(&o, 30, 0), 30000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_call_args_round_trip),
		cmocka_unit_test(test_reply_mapping),
		cmocka_unit_test(test_reply_refuses_reserved),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_error_type),
		cmocka_unit_test(test_anthropic_parse),
		cmocka_unit_test(test_openai_parse),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_loopback),
		cmocka_unit_test(test_backoff),
		cmocka_unit_test(test_json_string_not_utf8),
		cmocka_unit_test(test_json_string_keeps_valid),
	};

	return SC_RUN_TESTS(tests);
}
