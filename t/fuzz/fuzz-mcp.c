/*
 * What an untrusted MCP server answers, on arbitrary bytes: each line that
 * parses as JSON-RPC goes, as a result, through the tools/list parser and
 * the tools/call result renderer, and every tool found types a call's
 * arguments by its schema.  No crash, no leak; a tool accepted always has
 * a safe name, an object schema and a sha256 digest; a rendered text never
 * exceeds its cap.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonrpc.h"
#include "mcp.h"
#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP 256

static void check_tool(const struct sc_mcp_tool *t)
{
	if (!sc_mcp_name_ok(t->name, 64) || !json_is_object(t->schema_json) ||
	    strncmp(t->digest, "sha256:", 7) || strlen(t->digest) != 71 ||
	    !t->description || !t->definition)
		abort();
}

static void call_args(const struct sc_mcp_tool *t, const uint8_t *data,
		      size_t size)
{
	struct sc_record r;
	const char *why = NULL;
	json_t *args;

	sc_record_init(&r);
	sc_record_adds(&r, "type", "call");
	sc_record_adds(&r, "tool", t->name);
	/* An argument named after each property, its value the input. */
	{
		const char *key;
		json_t *v;

		json_object_foreach(json_object_get(t->schema_json, "properties"),
				    key, v) {
			if (sc_field_name_valid(key, strlen(key)))
				sc_record_add(&r, key, (const char *)data, size);
			(void)v;
		}
	}
	args = sc_mcp_call_args(&r, t->schema_json, &why);
	if (!args && !why)
		abort();
	if (args && !json_is_object(args))
		abort();
	json_decref(args);
	sc_record_release(&r);
}

static void result(json_t *res, const uint8_t *data, size_t size)
{
	struct sc_mcp_tools tools = { NULL, 0, 0 };
	struct sc_buf text = SC_BUF_INIT;
	const char *cursor = NULL, *why = NULL;
	int truncated = 0, is_error = 0, st;

	st = sc_mcp_parse_tools(res, &tools, &cursor, &why);
	if (st != SC_MCP_OK && !why)
		abort();
	for (size_t i = 0; i < tools.nr; i++) {
		check_tool(&tools.v[i]);
		call_args(&tools.v[i], data, size);
	}
	sc_mcp_tools_release(&tools);
	st = sc_mcp_result_text(res, CAP, &text, &truncated, &is_error, &why);
	if (text.len > CAP || (st != SC_MCP_OK && !why))
		abort();
	sc_buf_release(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_rpc rpc;
	struct sc_rpc_msg m;
	int st, n = 0;

	sc_rpc_init(&rpc, -1, -1);
	rpc.max_line = 1 << 16;
	sc_buf_add(&rpc.pending, data, size);
	rpc.eof = 1;
	while ((st = sc_rpc_take(&rpc, &m)) == SC_RPC_MSG || st == SC_RPC_MALFORMED) {
		if (st == SC_RPC_MSG) {
			if (m.kind == SC_RPC_RESULT)
				result(m.result, data, size < 64 ? size : 64);
			sc_rpc_msg_release(&m);
		}
		if (++n > 100000)
			abort();
		if (st == SC_RPC_MALFORMED && (!rpc.pending.len ||
		    !memchr(rpc.pending.data, '\n', rpc.pending.len)))
			break;
	}
	sc_rpc_release(&rpc);
	return 0;
}
