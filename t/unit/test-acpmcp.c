#include "../lib/tap.h"

#include <stdlib.h>
#include <string.h>

#include "acpmcp.h"
#include "jsonrpc.h"
#include "record.h"

/* Offer (or with WITHDRAWN, withdraw) NAME; 1 with the changed server. */
static int take(struct sc_acpmcp_tools *t, const char *name,
		const char *server, const char *tool, const char *schema,
		int withdrawn, char changed[SC_ACPMCP_SERVER_MAX + 1])
{
	struct sc_record r;
	int st;

	sc_record_init(&r);
	sc_record_adds(&r, "type", "tool");
	sc_record_adds(&r, "name", name);
	if (withdrawn) {
		sc_record_adds(&r, "withdrawn", "1");
	} else {
		sc_record_adds(&r, "server", server);
		sc_record_adds(&r, "tool", tool);
		sc_record_adds(&r, "description", "Echoes.");
		sc_record_adds(&r, "schema", schema);
	}
	st = sc_acpmcp_take_tool(t, &r, changed);
	sc_record_release(&r);
	return st;
}

/* Handle one JSON-RPC LINE for server SERVER. */
static enum sc_acpmcp_action handle(const struct sc_acpmcp_tools *t,
				    const char *server, const char *line,
				    struct sc_record *call,
				    struct sc_acpmcp_reply *reply)
{
	struct sc_rpc_msg m;
	const char *why;
	enum sc_acpmcp_action a;

	sc_rpc_msg_init(&m);
	assert_int_equal(sc_rpc_parse(line, strlen(line), &m, &why), 0);
	a = sc_acpmcp_handle(t, server, &m, 7, call, reply);
	sc_rpc_msg_release(&m);
	return a;
}

static void test_offers(void **state)
{
	struct sc_acpmcp_tools t = { NULL, 0, 0 };
	char changed[SC_ACPMCP_SERVER_MAX + 1];
	static const char obj[] = "{\"type\":\"object\"}";

	(void)state;
	assert_int_equal(take(&t, "mcp__ev__echo", "ev", "echo", obj, 0, changed), 1);
	assert_string_equal(changed, "ev");
	/* Names that do not agree, a path, a schema that is no object, twice. */
	assert_int_equal(take(&t, "mcp__ev__echo2", "ev", "echo", obj, 0, changed), 0);
	assert_int_equal(take(&t, "mcp__e__v__x", "e__v", "x", obj, 0, changed), 0);
	assert_int_equal(take(&t, "mcp__ev__../x", "ev", "../x", obj, 0, changed), 0);
	assert_int_equal(take(&t, "mcp__ev__add", "ev", "add", "[1]", 0, changed), 0);
	assert_int_equal(take(&t, "mcp__ev__add", "ev", "add", "{", 0, changed), 0);
	assert_int_equal(take(&t, "mcp__ev__echo", "ev", "echo", obj, 0, changed), 0);
	assert_int_equal(t.nr, 1);
	assert_non_null(sc_acpmcp_find(&t, "ev", "echo"));
	assert_null(sc_acpmcp_find(&t, "other", "echo"));
	/* A withdrawal names the server; one of a tool never offered, none. */
	assert_int_equal(take(&t, "mcp__ev__nosuch", NULL, NULL, NULL, 1, changed), 0);
	assert_int_equal(take(&t, "mcp__ev__echo", NULL, NULL, NULL, 1, changed), 1);
	assert_string_equal(changed, "ev");
	assert_int_equal(t.nr, 0);
	sc_acpmcp_tools_release(&t);
}

static void test_requests(void **state)
{
	struct sc_acpmcp_tools t = { NULL, 0, 0 };
	char changed[SC_ACPMCP_SERVER_MAX + 1];
	struct sc_acpmcp_reply reply;
	struct sc_record call;
	char *s;

	(void)state;
	take(&t, "mcp__ev__echo", "ev", "echo", "{\"type\":\"object\"}", 0, changed);
	take(&t, "mcp__db__query", "db", "query", "{\"type\":\"object\"}", 0, changed);
	/* initialize: the asked version when known, else ours. */
	assert_int_equal(handle(&t, "ev", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
				"\"initialize\",\"params\":{\"protocolVersion\":"
				"\"2025-06-18\"}}", &call, &reply), SC_ACPMCP_RESULT);
	assert_string_equal(sc_json_str(reply.result, "protocolVersion"), "2025-06-18");
	json_decref(reply.result);
	assert_int_equal(handle(&t, "ev", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
				"\"initialize\",\"params\":{\"protocolVersion\":"
				"\"1999-01-01\"}}", &call, &reply), SC_ACPMCP_RESULT);
	assert_string_equal(sc_json_str(reply.result, "protocolVersion"), "2025-11-25");
	json_decref(reply.result);
	/* tools/list: this server's tools only. */
	assert_int_equal(handle(&t, "ev", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"
				"\"tools/list\"}", &call, &reply), SC_ACPMCP_RESULT);
	s = json_dumps(reply.result, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"tools\":[{\"description\":\"Echoes.\","
			    "\"inputSchema\":{\"type\":\"object\"},\"name\":\"echo\"}]}");
	free(s);
	json_decref(reply.result);
	/* tools/call of an offered tool: a call record for the caller. */
	assert_int_equal(handle(&t, "ev", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":"
				"\"tools/call\",\"params\":{\"name\":\"echo\","
				"\"arguments\":{\"message\":\"hi\"}}}", &call, &reply),
			 SC_ACPMCP_CALL);
	assert_string_equal(sc_record_str(&call, "tool"), "mcp__ev__echo");
	assert_string_equal(sc_record_str(&call, "id"), "7");
	assert_string_equal(sc_record_str(&call, "arguments"), "{\"message\":\"hi\"}");
	sc_record_release(&call);
	/* Another server's tool, a tool not offered, arguments not an object,
	 * an unknown method: errors, never a call. */
	assert_int_equal(handle(&t, "ev", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":"
				"\"tools/call\",\"params\":{\"name\":\"query\"}}",
				&call, &reply), SC_ACPMCP_ERROR);
	assert_int_equal(reply.code, SC_RPC_INVALID_PARAMS);
	assert_int_equal(handle(&t, "ev", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":"
				"\"tools/call\",\"params\":{\"name\":\"echo\","
				"\"arguments\":[1]}}", &call, &reply), SC_ACPMCP_ERROR);
	assert_int_equal(handle(&t, "ev", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":"
				"\"resources/read\"}", &call, &reply), SC_ACPMCP_ERROR);
	assert_int_equal(reply.code, SC_RPC_METHOD_NOT_FOUND);
	assert_int_equal(handle(&t, "ev", "{\"jsonrpc\":\"2.0\",\"method\":"
				"\"notifications/initialized\"}", &call, &reply),
			 SC_ACPMCP_NOTHING);
	sc_acpmcp_tools_release(&t);
}

static void test_call_result(void **state)
{
	json_t *r = sc_acpmcp_call_result("a\xff", 2, 1);
	char *s = json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);

	(void)state;
	assert_string_equal(s, "{\"content\":[{\"text\":\"a\xef\xbf\xbd\","
			    "\"type\":\"text\"}],\"isError\":true}");
	free(s);
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offers),
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_call_result),
	};

	return SC_RUN_TESTS(tests);
}
