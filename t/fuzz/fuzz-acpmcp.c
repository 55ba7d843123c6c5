/*
 * What an external agent sends speccoder's MCP relay socket (sc-acp
 * --mcp), on arbitrary bytes: each line that parses as JSON-RPC is
 * handled against a table of offered tools, itself built from records
 * whose fields are the same bytes.  No crash, no leak; an answer is a
 * result or an error with a message, and a call record always names an
 * offered tool of the connection's server with an object of arguments.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acpmcp.h"
#include "jsonrpc.h"
#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void offer(struct sc_acpmcp_tools *t, const char *name,
		  const char *server, const char *tool, const char *schema,
		  size_t schema_len)
{
	struct sc_record r;
	char changed[SC_ACPMCP_SERVER_MAX + 1];

	sc_record_init(&r);
	sc_record_adds(&r, "type", "tool");
	sc_record_adds(&r, "name", name);
	sc_record_adds(&r, "server", server);
	sc_record_adds(&r, "tool", tool);
	sc_record_adds(&r, "description", "d");
	sc_record_add(&r, "schema", schema, schema_len);
	(void)sc_acpmcp_take_tool(t, &r, changed);
	sc_record_release(&r);
}

static void check_call(const struct sc_acpmcp_tools *t, struct sc_record *c)
{
	const char *tool = sc_record_str(c, "tool");
	const struct sc_field *args = sc_record_get(c, "arguments");
	json_t *j;
	int found = 0;

	for (size_t i = 0; tool && i < t->nr; i++)
		found |= !strcmp(t->v[i].name, tool) &&
			 !strcmp(t->v[i].server, "ev");
	if (!found || !args)
		abort();
	j = json_loadb(args->value, args->value_len, 0, NULL);
	if (!json_is_object(j))
		abort();
	json_decref(j);
}

static void handle_lines(const struct sc_acpmcp_tools *t, const char *p,
			 size_t size)
{
	const char *end = p + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct sc_rpc_msg m;
		struct sc_acpmcp_reply reply;
		struct sc_record call;
		const char *why = NULL;

		sc_rpc_msg_init(&m);
		if (sc_rpc_parse(p, len, &m, &why) == 0) {
			switch (sc_acpmcp_handle(t, "ev", &m, 1, &call, &reply)) {
			case SC_ACPMCP_RESULT:
				if (!reply.result)
					abort();
				json_decref(reply.result);
				break;
			case SC_ACPMCP_ERROR:
				if (!reply.message || reply.code >= 0)
					abort();
				break;
			case SC_ACPMCP_CALL:
				check_call(t, &call);
				sc_record_release(&call);
				break;
			case SC_ACPMCP_NOTHING:
				break;
			}
		}
		sc_rpc_msg_release(&m);
		p += len + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_acpmcp_tools t = { 0 };
	static const char obj[] = "{\"type\":\"object\"}";
	char name[64];
	size_t n = size < sizeof(name) - 1 ? size : sizeof(name) - 1;
	struct sc_record w;
	char changed[SC_ACPMCP_SERVER_MAX + 1];

	/* Offers: two fixed, one named by the input, one schema of it. */
	offer(&t, "mcp__ev__echo", "ev", "echo", obj, sizeof(obj) - 1);
	offer(&t, "mcp__other__echo", "other", "echo", obj, sizeof(obj) - 1);
	memcpy(name, data, n);
	name[n] = '\0';
	offer(&t, name, "ev", name + (n > 9 ? 9 : n), obj, sizeof(obj) - 1);
	offer(&t, "mcp__ev__add", "ev", "add", (const char *)data, size);
	handle_lines(&t, (const char *)data, size);
	/* A withdrawal, then the same lines against what is left. */
	sc_record_init(&w);
	sc_record_adds(&w, "type", "tool");
	sc_record_adds(&w, "name", "mcp__ev__echo");
	sc_record_adds(&w, "withdrawn", "1");
	if (!sc_acpmcp_take_tool(&t, &w, changed) || strcmp(changed, "ev"))
		abort();
	sc_record_release(&w);
	handle_lines(&t, (const char *)data, size);
	sc_acpmcp_tools_release(&t);
	return 0;
}
