/*
 * The JSON-RPC framing and message parser on arbitrary bytes (what an
 * untrusted agent sends sc-acp): no crash, no leak, every message taken
 * has the members its kind promises, and the stream ends in a status.
 * A request's params.toolCall goes through the permission mapping, which
 * must always give a call record with a tool.  Also the lossy UTF-8
 * encoder on the same bytes: always a JSON string.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acpcall.h"
#include "acptrack.h"
#include "jsonrpc.h"
#include "jsonstr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct sc_rpc_msg *m)
{
	switch (m->kind) {
	case SC_RPC_REQUEST:
		if (!m->method || !m->id)
			abort();
		break;
	case SC_RPC_NOTIFICATION:
		if (!m->method || m->id)
			abort();
		break;
	case SC_RPC_RESULT:
		if (!m->result || !m->id)
			abort();
		break;
	case SC_RPC_ERROR:
		if (!m->error_message)
			abort();
		break;
	default:
		abort();
	}
}

static void map_permission(const struct sc_rpc_msg *m)
{
	json_t *call = json_object_get(m->params, "toolCall");
	struct sc_record r;

	if (!call)
		return;
	{
		unsigned long next = 0;
		struct sc_record rr[2];
		size_t k, nr = sc_acp_permission_calls(rr, &next, "/root", call);

		r = rr[0];
		for (k = 1; k < nr; k++) {
			if (!sc_record_str(&rr[k], "tool"))
				abort();
			sc_record_release(&rr[k]);
		}
	}
	if (!sc_record_str(&r, "tool") || !sc_record_str(&r, "permission"))
		abort();
	sc_record_release(&r);
}

/* session/update tool calls into the tracker, then a permission merged. */
static void track(struct sc_acptrack *t, const struct sc_rpc_msg *m)
{
	json_t *u = json_object_get(m->params, "update");
	const char *kind = json_string_value(json_object_get(u, "sessionUpdate"));
	json_t *call = json_object_get(m->params, "toolCall"), *merged;
	struct sc_acptrack_call *c;
	struct sc_record r[2];
	unsigned long next = 0;
	size_t n, i;

	if (kind && (!strcmp(kind, "tool_call") ||
		     !strcmp(kind, "tool_call_update"))) {
		c = sc_acptrack_update(t, u, !strcmp(kind, "tool_call"), m->len);
		if (c && !c->info)
			abort();
	}
	if (!json_is_object(call))
		return;
	c = sc_acptrack_find(t, json_string_value(json_object_get(call,
								  "toolCallId")));
	merged = sc_acptrack_merged(c, call);
	n = sc_acp_permission_calls(r, &next, "/root", merged);
	if (n < 1 || n > 2 || next != n)
		abort();
	for (i = 0; i < n; i++)
		sc_record_release(&r[i]);
	json_decref(merged);
	if (t->bytes > SC_ACPTRACK_BYTES || t->nr > SC_ACPTRACK_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_acptrack t;
	struct sc_rpc rpc;
	struct sc_rpc_msg m;
	json_t *s;
	int st, n = 0;

	sc_acptrack_init(&t);
	sc_rpc_init(&rpc, -1, -1);
	rpc.max_line = 4096;    /* small, so the too-long path is reached */
	sc_buf_add(&rpc.pending, data, size);
	rpc.eof = 1;
	while ((st = sc_rpc_take(&rpc, &m)) == SC_RPC_MSG || st == SC_RPC_MALFORMED) {
		if (st == SC_RPC_MSG) {
			check(&m);
			map_permission(&m);
			track(&t, &m);
			sc_rpc_msg_release(&m);
		}
		if (++n > 100000)
			abort();
		if (st == SC_RPC_MALFORMED && !rpc.why)
			abort();
		if (st == SC_RPC_MALFORMED && !rpc.pending.len)
			break;
		if (st == SC_RPC_MALFORMED && !memchr(rpc.pending.data, '\n',
						      rpc.pending.len))
			break;
	}
	sc_rpc_release(&rpc);
	sc_acptrack_release(&t);
	s = sc_json_string((const char *)data, size, SC_JSON_FFFD);
	if (!json_is_string(s))
		abort();
	json_decref(s);
	return 0;
}
