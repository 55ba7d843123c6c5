#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "acp.h"
#include "acpcall.h"
#include "agenthome.h"
#include "jsonrpc.h"

/* Parse TEXT; 0 or -1 as sc_rpc_parse, the message released. */
static int parse(const char *text, int *kind)
{
	struct sc_rpc_msg m;
	const char *why = NULL;
	int ret = sc_rpc_parse(text, strlen(text), &m, &why);

	if (ret == 0) {
		*kind = m.kind;
		sc_rpc_msg_release(&m);
	} else {
		assert_non_null(why);
	}
	return ret;
}

static void test_parse_kinds(void **state)
{
	int kind = 0;

	(void)state;
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}",
			       &kind), 0);
	assert_int_equal(kind, SC_RPC_REQUEST);
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"a\","
			       "\"params\":[1]}", &kind), 0);
	assert_int_equal(kind, SC_RPC_REQUEST);
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}", &kind), 0);
	assert_int_equal(kind, SC_RPC_NOTIFICATION);
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":null}",
			       &kind), 0);
	assert_int_equal(kind, SC_RPC_RESULT);
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":"
			       "{\"code\":-32700,\"message\":\"x\"}}", &kind), 0);
	assert_int_equal(kind, SC_RPC_ERROR);
}

static void test_parse_refusals(void **state)
{
	static const char *const bad[] = {
		"", "{", "[]", "1", "{\"id\":1,\"method\":\"a\"}",
		"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"a\"}",
		"{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"a\"}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\\u0000b\"}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":3}",
		"{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"params\":\"s\"}",
		"{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"result\":{}}",
		"{\"jsonrpc\":\"2.0\",\"id\":1}",
		"{\"jsonrpc\":\"2.0\",\"result\":{}}",
		"{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":\"x\",\"message\":\"m\"}}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"result\":{}}",
		NULL,
	};
	size_t i;
	int kind;

	(void)state;
	for (i = 0; bad[i]; i++)
		assert_int_equal(parse(bad[i], &kind), -1);
}

static void test_framing(void **state)
{
	static const char stream[] =
		"\n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\r\n"
		"{\"jsonrpc\":\"2.0\",\"method\":\"b\"}\n"
		"{\"jsonrpc\":\"2.0\",\"method\":\"c\"}";
	struct sc_rpc rpc;
	struct sc_rpc_msg m;

	(void)state;
	sc_rpc_init(&rpc, -1, -1);
	sc_buf_add(&rpc.pending, stream, sizeof(stream) - 1);
	assert_int_equal(sc_rpc_take(&rpc, &m), SC_RPC_MSG);
	assert_string_equal(m.method, "a");
	sc_rpc_msg_release(&m);
	assert_int_equal(sc_rpc_take(&rpc, &m), SC_RPC_MSG);
	assert_string_equal(m.method, "b");
	sc_rpc_msg_release(&m);
	/* No newline yet: nothing, until the stream ends without one. */
	assert_int_equal(sc_rpc_take(&rpc, &m), 0);
	rpc.eof = 1;
	assert_int_equal(sc_rpc_take(&rpc, &m), SC_RPC_MALFORMED);
	sc_rpc_release(&rpc);

	sc_rpc_init(&rpc, -1, -1);
	rpc.max_line = 16;
	sc_buf_adds(&rpc.pending, "{\"jsonrpc\":\"2.0\",\"method\":\"long\"}");
	assert_int_equal(sc_rpc_take(&rpc, &m), SC_RPC_TOO_LONG);
	sc_rpc_release(&rpc);
}

static void test_lossy(void **state)
{
	json_t *s;

	(void)state;
	s = sc_json_string_lossy("a\xff\xc3\xa9\xed\xa0\x80z\0", 9);
	assert_string_equal(json_string_value(s),
			    "a\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd"
			    "\xef\xbf\xbdz");
	assert_int_equal(json_string_length(s), 17);
	json_decref(s);
}

static void test_modes(void **state)
{
	(void)state;
	assert_true(sc_acp_mode_asks("default"));
	assert_true(sc_acp_mode_asks("read-only"));
	assert_true(sc_acp_mode_asks("Read_Only"));
	assert_false(sc_acp_mode_asks("bypassPermissions"));
	assert_false(sc_acp_mode_asks("acceptEdits"));
	assert_false(sc_acp_mode_asks("full-access"));
	assert_false(sc_acp_mode_asks("auto"));
	assert_false(sc_acp_mode_asks("defaultish"));
	assert_false(sc_acp_mode_asks(""));
	assert_false(sc_acp_mode_asks(NULL));
}

static void test_settings_names(void **state)
{
	(void)state;
	assert_true(sc_agenthome_is_settings("settings.json"));
	assert_true(sc_agenthome_is_settings("config.toml"));
	assert_false(sc_agenthome_is_settings(".claude.json"));
	assert_false(sc_agenthome_is_settings("history.jsonl"));
	assert_false(sc_agenthome_is_settings("Settings.json.bak"));
}

/* Map the tool call in JSON; the fields NAME=VALUE of the record, joined. */
static void map(const char *json, char *out, size_t size)
{
	json_t *call = json_loads(json, 0, NULL);
	struct sc_record r;
	size_t i, n = 0;

	assert_non_null(call);
	sc_acp_permission_call(&r, 7, "/w", call);
	out[0] = '\0';
	for (i = 0; i < r.nr && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%s=%s", i ? " " : "",
				      r.fields[i].name, r.fields[i].value);
	sc_record_release(&r);
	json_decref(call);
}

static void test_permission_map(void **state)
{
	char got[512];

	(void)state;
	map("{\"kind\":\"read\",\"locations\":[{\"path\":\"/w/a/b\"}]}",
	    got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=read path=a/b "
			    "permission=1 kind=read");
	map("{\"kind\":\"search\"}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=list path=. "
			    "permission=1 kind=search");
	/* /wx is not inside /w: it stays absolute. */
	map("{\"kind\":\"delete\",\"rawInput\":{\"file_path\":\"/wx/c\"}}",
	    got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=delete path=/wx/c "
			    "permission=1 kind=delete");
	map("{\"kind\":\"edit\",\"locations\":[{\"path\":\"/w/a\"},"
	    "{\"path\":\"/w/b\"}]}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=other permission=1 "
			    "outside=1 kind=edit");
	map("{\"kind\":\"execute\",\"rawInput\":{\"command\":\"make\","
	    "\"workdir\":\"/w/s\"},\"title\":\"t\",\"toolCallId\":\"c\"}",
	    got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=run shell=make cwd=s "
			    "permission=1 outside=1 kind=execute tool-call-id=c "
			    "title=t");
	map("{\"rawInput\":{\"command\":\"make\"}}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=other permission=1 "
			    "outside=1 kind=other");
	map("{\"kind\":\"fetch\"}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=other permission=1 "
			    "outside=1 kind=fetch");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_kinds),
		cmocka_unit_test(test_parse_refusals),
		cmocka_unit_test(test_framing),
		cmocka_unit_test(test_lossy),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_settings_names),
		cmocka_unit_test(test_permission_map),
	};

	return SC_RUN_TESTS(tests);
}
