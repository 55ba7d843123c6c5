#include "../lib/tap.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "mcp.h"
#include "mcprun.h"
#include "record.h"

/* tools/list's RESULT (JSON text) into T; the status. */
static int parse(const char *text, struct sc_mcp_tools *t, const char **why)
{
	json_t *res = json_loads(text, 0, NULL);
	const char *cursor;
	int st;

	assert_non_null(res);
	st = sc_mcp_parse_tools(res, t, &cursor, why);
	json_decref(res);
	return st;
}

static void test_digest_is_canonical(void **state)
{
	struct sc_mcp_tools a = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	const char *why = NULL;

	(void)state;
	/* The same definition with members in another order and extra
	 * white space: one digest.  A title or outputSchema is not covered. */
	assert_int_equal(parse("{\"tools\":[{\"name\":\"t\",\"description\":\"d\","
			       "\"inputSchema\":{\"type\":\"object\",\"properties\":"
			       "{\"x\":{\"type\":\"string\"}}}}]}", &a, &why), 0);
	assert_int_equal(parse("{\"tools\":[{ \"inputSchema\" : {\"properties\":"
			       "{\"x\":{\"type\":\"string\"}},\"type\":\"object\"},"
			       "\"title\":\"T\",\"description\":\"d\",\"name\":\"t\"}]}",
			       &b, &why), 0);
	assert_string_equal(a.v[0].digest, b.v[0].digest);
	assert_string_equal(a.v[0].definition,
			    "{\"description\":\"d\",\"inputSchema\":{\"properties\":"
			    "{\"x\":{\"type\":\"string\"}},\"type\":\"object\"},"
			    "\"name\":\"t\"}");
	sc_mcp_tools_release(&b);
	/* A changed description changes the digest. */
	assert_int_equal(parse("{\"tools\":[{\"name\":\"t\",\"description\":\"D\","
			       "\"inputSchema\":{\"type\":\"object\",\"properties\":"
			       "{\"x\":{\"type\":\"string\"}}}}]}", &b, &why), 0);
	assert_string_not_equal(a.v[0].digest, b.v[0].digest);
	sc_mcp_tools_release(&a);
	sc_mcp_tools_release(&b);
}

static void test_refused_definitions(void **state)
{
	static const char *const bad[] = {
		"{\"tools\":[{\"name\":\"../x\",\"inputSchema\":{\"type\":\"object\"}}]}",
		"{\"tools\":[{\"name\":\"a\\u001bb\",\"inputSchema\":{\"type\":\"object\"}}]}",
		"{\"tools\":[{\"name\":\"a.b\",\"inputSchema\":{\"type\":\"object\"}}]}",
		"{\"tools\":[{\"name\":\"\",\"inputSchema\":{\"type\":\"object\"}}]}",
		"{\"tools\":[{\"name\":\"t\",\"inputSchema\":\"object\"}]}",
		"{\"tools\":[{\"name\":\"t\",\"inputSchema\":{\"type\":\"array\"}}]}",
		"{\"tools\":[{\"name\":\"t\",\"description\":1,\"inputSchema\":{\"type\":\"object\"}}]}",
		"{\"tools\":[{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}},"
		"{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}]}",
		NULL,
	};
	struct sc_mcp_tools t = { NULL, 0, 0 };
	const char *why;

	(void)state;
	for (size_t i = 0; bad[i]; i++) {
		why = NULL;
		assert_int_equal(parse(bad[i], &t, &why), SC_MCP_BAD_TOOL);
		assert_non_null(why);
		sc_mcp_tools_release(&t);
	}
	assert_int_equal(parse("{\"tool\":[]}", &t, &why), SC_MCP_MALFORMED);
	sc_mcp_tools_release(&t);
}

static void test_result_text(void **state)
{
	json_t *res = json_loads("{\"content\":[{\"type\":\"text\",\"text\":\"abc\"},"
				 "{\"type\":\"image\",\"data\":\"QUFB\",\"mimeType\":"
				 "\"image/png\"}],\"isError\":true}", 0, NULL);
	struct sc_buf out = SC_BUF_INIT;
	const char *why = NULL;
	int trunc = 0, err = 0;

	(void)state;
	assert_int_equal(sc_mcp_result_text(res, 1000, &out, &trunc, &err, &why), 0);
	assert_string_equal(out.data, "abc\n[image image/png]");
	assert_int_equal(err, 1);
	assert_int_equal(trunc, 0);
	sc_buf_reset(&out);
	assert_int_equal(sc_mcp_result_text(res, 2, &out, &trunc, &err, &why), 0);
	assert_int_equal(out.len, 2);
	assert_int_equal(trunc, 1);
	json_decref(res);
	sc_buf_release(&out);
}

static void test_call_args(void **state)
{
	json_t *schema = json_loads("{\"type\":\"object\",\"properties\":{\"a\":"
				    "{\"type\":\"number\"},\"s\":{\"type\":\"string\"},"
				    "\"l\":{\"type\":\"array\"}}}", 0, NULL);
	struct sc_record r;
	const char *why = NULL;
	json_t *args;
	char *js;

	(void)state;
	sc_record_init(&r);
	sc_record_adds(&r, "type", "call");
	sc_record_adds(&r, "tool", "mcp__s__t");
	sc_record_adds(&r, "a", "42");
	sc_record_adds(&r, "s", "42");
	sc_record_adds(&r, "l", "x");
	sc_record_adds(&r, "l", "y");
	args = sc_mcp_call_args(&r, schema, &why);
	js = json_dumps(args, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(js, "{\"a\":42,\"l\":[\"x\",\"y\"],\"s\":\"42\"}");
	free(js);
	json_decref(args);
	sc_record_reset(&r);
	sc_record_adds(&r, "a", "not json");
	assert_null(sc_mcp_call_args(&r, schema, &why));
	sc_record_reset(&r);
	sc_record_adds(&r, "arguments", "[1]");
	assert_null(sc_mcp_call_args(&r, schema, &why));
	sc_record_release(&r);
	json_decref(schema);
}

static void test_status(void **state)
{
	struct sc_mcp_allow allow[] = {
		{ "s", "pinned", "sha256:aa" },
		{ "s", "open", NULL },
	};
	struct sc_config cfg;
	const char *pinned;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.mcp = allow;
	cfg.nr_mcp = 2;
	assert_string_equal(sc_mcp_tool_status(&cfg, "s", "pinned", "sha256:aa",
					       &pinned), "allowed");
	assert_string_equal(sc_mcp_tool_status(&cfg, "s", "pinned", "sha256:bb",
					       &pinned), "changed");
	assert_string_equal(pinned, "sha256:aa");
	assert_string_equal(sc_mcp_tool_status(&cfg, "s", "open", "sha256:bb",
					       &pinned), "allowed");
	assert_string_equal(sc_mcp_tool_status(&cfg, "other", "pinned",
					       "sha256:aa", &pinned), "new");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest_is_canonical),
		cmocka_unit_test(test_refused_definitions),
		cmocka_unit_test(test_result_text),
		cmocka_unit_test(test_call_args),
		cmocka_unit_test(test_status),
	};

	return SC_RUN_TESTS(tests);
}
