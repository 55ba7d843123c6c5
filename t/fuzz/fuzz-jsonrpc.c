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
#include "jsonrpc.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_rpc rpc;
	struct sc_rpc_msg m;
	json_t *s;
	int st, n = 0;

	sc_rpc_init(&rpc, -1, -1);
	rpc.max_line = 4096;    /* small, so the too-long path is reached */
	sc_buf_add(&rpc.pending, data, size);
	rpc.eof = 1;
	while ((st = sc_rpc_take(&rpc, &m)) == SC_RPC_MSG || st == SC_RPC_MALFORMED) {
		if (st == SC_RPC_MSG) {
			check(&m);
			map_permission(&m);
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
	s = sc_json_string_lossy((const char *)data, size);
	if (!json_is_string(s))
		abort();
	json_decref(s);
	return 0;
}
