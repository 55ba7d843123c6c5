#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "acp.h"
#include "acpcall.h"
#include "acptrack.h"
#include "agenthome.h"
#include "jsonrpc.h"
#include "jsonstr.h"

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
	s = sc_json_string("a\xff\xc3\xa9\xed\xa0\x80z\0", 9, SC_JSON_FFFD);
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
	{
		unsigned long next = 6;
		struct sc_record rr[2];
		size_t k, nr = sc_acp_permission_calls(rr, &next, "/w", call);

		r = rr[0];
		for (k = 1; k < nr; k++)
			sc_record_release(&rr[k]);
	}
	out[0] = '\0';
	for (i = 0; i < r.nr && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%s=%s", i ? " " : "",
				      r.fields[i].name, r.fields[i].value);
	sc_record_release(&r);
	json_decref(call);
}

static void test_permission_map(void **state)
{
	char got[1024];

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
	/* Two paths to edit are no one object: a person sees the request. */
	map("{\"kind\":\"edit\",\"locations\":[{\"path\":\"/w/a\"},"
	    "{\"path\":\"/w/b\"}]}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=other request={\"kind\":"
			    "\"edit\",\"locations\":[{\"path\":\"/w/a\"},"
			    "{\"path\":\"/w/b\"}]} permission=1 outside=1 "
			    "kind=edit");
	map("{\"kind\":\"execute\",\"rawInput\":{\"command\":\"make\","
	    "\"workdir\":\"/w/s\"},\"title\":\"t\",\"toolCallId\":\"c\"}",
	    got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=run shell=make cwd=s "
			    "permission=1 outside=1 kind=execute tool-call-id=c "
			    "title=t");
	map("{\"kind\":\"fetch\"}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=other request={\"kind\":"
			    "\"fetch\"} permission=1 outside=1 kind=fetch");
	/* A new file's diff is its whole text; an edit's is a part. */
	map("{\"kind\":\"edit\",\"locations\":[{\"path\":\"/w/n\"}],\"content\":"
	    "[{\"type\":\"diff\",\"path\":\"/w/n\",\"oldText\":null,"
	    "\"newText\":\"x\"}]}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=write path=n content=x "
			    "permission=1 kind=edit");
	map("{\"kind\":\"edit\",\"locations\":[{\"path\":\"/w/n\"}],\"content\":"
	    "[{\"type\":\"diff\",\"path\":\"/w/n\",\"oldText\":\"a\","
	    "\"newText\":\"x\"}]}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=write edit=1 path=n "
			    "permission=1 kind=edit");
}

/* claude-code-acp: the tool named in _meta, its raw input's shape. */
static void test_permission_claude(void **state)
{
	char got[1024];

	(void)state;
	map("{\"toolCallId\":\"t\",\"_meta\":{\"claudeCode\":{\"toolName\":"
	    "\"mcp__acp__Write\"}},\"rawInput\":{\"file_path\":\"/w/CLAUDE.md\","
	    "\"content\":\"hi\\n\"}}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=write path=CLAUDE.md "
			    "content=hi\n permission=1 kind=other tool-call-id=t");
	map("{\"_meta\":{\"claudeCode\":{\"toolName\":\"mcp__acp__Edit\"}},"
	    "\"kind\":\"edit\",\"rawInput\":{\"file_path\":\"/w/Makefile\","
	    "\"old_string\":\"a\",\"new_string\":\"b\"}}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=write edit=1 "
			    "path=Makefile permission=1 kind=edit");
	/* Its Bash comes back as terminal/create: judged, not outside. */
	map("{\"_meta\":{\"claudeCode\":{\"toolName\":\"mcp__acp__Bash\"}},"
	    "\"rawInput\":{\"command\":\"make test\",\"description\":\"d\"}}",
	    got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=run shell=make test "
			    "permission=1 kind=other");
	/* Claude Code's own Bash runs in the agent: a person decides. */
	map("{\"_meta\":{\"claudeCode\":{\"toolName\":\"Bash\"}},"
	    "\"rawInput\":{\"command\":\"ls\"}}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=run shell=ls "
			    "permission=1 outside=1 kind=other");
	map("{\"_meta\":{\"claudeCode\":{\"toolName\":\"WebFetch\"}},"
	    "\"rawInput\":{\"url\":\"https://x/\",\"prompt\":\"p\"}}",
	    got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=network url=https://x/ "
			    "permission=1 outside=1 kind=other");
	/* A write without its path is not a write of the root. */
	map("{\"_meta\":{\"claudeCode\":{\"toolName\":\"mcp__acp__Write\"}},"
	    "\"rawInput\":{}}", got, sizeof(got));
	assert_string_equal(got, "type=call id=7 tool=other request={\"_meta\":"
			    "{\"claudeCode\":{\"toolName\":\"mcp__acp__Write\"}},"
			    "\"rawInput\":{}} permission=1 outside=1 kind=other");
}

/* A move is two objects: the source deleted, the destination written. */
static void test_permission_move(void **state)
{
	json_t *call = json_loads("{\"kind\":\"move\",\"rawInput\":{\"source\":"
				  "\"/w/a\",\"destination\":\"/w/.git/x\"}}", 0,
				  NULL);
	struct sc_record r[2];
	unsigned long next = 0;

	(void)state;
	assert_int_equal(sc_acp_permission_calls(r, &next, "/w", call), 2);
	assert_string_equal(sc_record_str(&r[0], "tool"), "delete");
	assert_string_equal(sc_record_str(&r[0], "path"), "a");
	assert_string_equal(sc_record_str(&r[1], "tool"), "write");
	assert_string_equal(sc_record_str(&r[1], "path"), ".git/x");
	assert_string_equal(sc_record_str(&r[1], "id"), "2");
	sc_record_release(&r[0]);
	sc_record_release(&r[1]);
	json_decref(call);
}

/* The tracker merges by id; a tool_call again replaces; memory bounded. */
static void test_track(void **state)
{
	struct sc_acptrack t;
	struct sc_acptrack_call *c;
	json_t *u, *m;
	int i;

	(void)state;
	sc_acptrack_init(&t);
	u = json_loads("{\"toolCallId\":\"a\",\"kind\":\"edit\",\"locations\":"
		       "[{\"path\":\"/w/x\"}]}", 0, NULL);
	assert_non_null(sc_acptrack_update(&t, u, 1, 100));
	json_decref(u);
	u = json_loads("{\"toolCallId\":\"a\",\"title\":\"T\"}", 0, NULL);
	c = sc_acptrack_update(&t, u, 0, 10);
	json_decref(u);
	assert_string_equal(json_string_value(json_object_get(c->info, "kind")),
			    "edit");
	u = json_loads("{\"toolCallId\":\"a\",\"rawInput\":{\"x\":1}}", 0, NULL);
	m = sc_acptrack_merged(c, u);
	json_decref(u);
	assert_string_equal(json_string_value(json_object_get(m, "title")), "T");
	assert_non_null(json_object_get(m, "rawInput"));
	json_decref(m);
	u = json_loads("{\"toolCallId\":\"a\"}", 0, NULL);
	c = sc_acptrack_update(&t, u, 1, 10);
	json_decref(u);
	assert_null(json_object_get(c->info, "kind"));
	for (i = 0; i < 3000; i++) {
		char id[32];

		snprintf(id, sizeof(id), "c%d", i);
		u = json_pack("{s:s}", "toolCallId", id);
		sc_acptrack_update(&t, u, 1, (size_t)1 << 20);
		json_decref(u);
	}
	assert_true(t.nr <= SC_ACPTRACK_MAX);
	assert_true(t.bytes <= SC_ACPTRACK_BYTES);
	assert_non_null(sc_acptrack_find(&t, "c2999"));
	assert_null(sc_acptrack_find(&t, "c0"));
	sc_acptrack_release(&t);
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
		cmocka_unit_test(test_permission_claude),
		cmocka_unit_test(test_permission_move),
		cmocka_unit_test(test_track),
	};

	return SC_RUN_TESTS(tests);
}
