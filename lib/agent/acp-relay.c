/*
 * The MCP servers an agent gets from sc-acp(1) (--mcp): the tools the
 * caller offers, the agent's connections to the relays' sockets, and
 * every tools/call made a type=call for the caller.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "acp-int.h"

/* A caller's type=tool record: offered or withdrawn; the agent's
 * connections to that server are told their list changed. */
void sc_acp_mcp_tool_record(struct acp *a, const struct sc_record *r)
{
	char server[SC_ACPMCP_SERVER_MAX + 1];

	if (!a->o->nmcp || !sc_acpmcp_take_tool(&a->mcp.tools, r, server))
		return;
	for (size_t i = 0; i < a->mcp.nr_conns; i++) {
		struct sc_acpmcp_conn *c = &a->mcp.conns[i];

		/* A connection that takes nothing is found at its next read. */
		if (!strcmp(a->mcp.servers[c->server], server))
			(void)sc_rpc_notify(&c->rpc,
					    "notifications/tools/list_changed",
					    NULL, a->o->timeout_ms);
	}
}

/*
 * Before session/new: the caller's type=tool records up to its
 * type=mcp-ready, so the servers the agent is told of are the ones with
 * an offered tool, and a list asked for at once is complete.  Other
 * records (the first prompt) wait in the queue.
 */
int sc_acp_mcp_first_tools(struct acp *a)
{
	int st;

	while (a->nq < QUEUE_MAX && (st = sc_acp_read_caller(a)) > 0) {
		if (!strcmp(sc_acp_rec_type(a), "mcp-ready"))
			return 0;
		if (!strcmp(sc_acp_rec_type(a), "tool")) {
			sc_acp_mcp_tool_record(a, &a->rec);
			continue;
		}
		a->queue[a->nq++] = a->rec;
		sc_record_init(&a->rec);
	}
	return a->end ? ENDED : 0;
}

/*
 * Message M of connection C: answered here, or, for a tools/call, a
 * type=call for the caller and its answer as the tool's result.  0, 1
 * when the connection is to be closed, ENDED.
 */
static int mcp_message(struct acp *a, struct sc_acpmcp_conn *c,
		       struct sc_rpc_msg *m)
{
	struct sc_acpmcp_reply reply;
	struct sc_record call;
	struct answer ans;
	const char *outcome;
	int st;

	switch (sc_acpmcp_handle(&a->mcp.tools, a->mcp.servers[c->server], m,
				 a->next_call + 1, &call, &reply)) {
	case SC_ACPMCP_NOTHING:
		return 0;
	case SC_ACPMCP_RESULT:
		return sc_rpc_respond(&c->rpc, m->id, reply.result,
				      a->o->timeout_ms) ? 1 : 0;
	case SC_ACPMCP_ERROR:
		return sc_rpc_respond_error(&c->rpc, m->id, reply.code,
					    reply.message, a->o->timeout_ms) ?
		       1 : 0;
	case SC_ACPMCP_CALL:
		break;
	}
	a->next_call++;
	/* Only a turn has a caller waiting for calls. */
	if (!a->prompt_id || a->cancelled) {
		sc_record_release(&call);
		return sc_rpc_respond_error(&c->rpc, m->id, SC_RPC_CANCELLED,
					    a->cancelled ? "the turn was cancelled" :
					    "no prompt turn is open",
					    a->o->timeout_ms) ? 1 : 0;
	}
	st = sc_acp_ask(a, &call, &ans);
	if (st < 0)
		return ENDED;
	if (st == 0)
		return sc_rpc_respond_error(&c->rpc, m->id, SC_RPC_CANCELLED,
					    "the turn was cancelled",
					    a->o->timeout_ms) ? 1 : 0;
	/* A refusal and a tool's own error are both results the agent's
	 * model reads; only the caller's words, masked, are in them. */
	outcome = sc_record_str(&a->rec, "outcome");
	return sc_rpc_respond(&c->rpc, m->id, sc_acpmcp_call_result(ans.text,
			      ans.text_len, !ans.allow ||
			      (outcome && strcmp(outcome, "ok"))),
			      a->o->timeout_ms) ? 1 : 0;
}

/* Read and answer what connection I sent: 0, 1 to close it, ENDED. */
static int mcp_conn(struct acp *a, size_t i)
{
	struct sc_acpmcp_conn *c = &a->mcp.conns[i];
	struct sc_rpc_msg m;
	long n = sc_rpc_fill(&c->rpc);
	int st;

	if (n < 0 && errno != EAGAIN)
		return 1;
	for (;;) {
		st = sc_rpc_take(&c->rpc, &m);
		if (st == 0)
			return c->rpc.eof ? 1 : 0;
		if (st != SC_RPC_MSG)
			return 1;   /* malformed, too long: that connection ends */
		st = mcp_message(a, c, &m);
		sc_rpc_msg_release(&m);
		if (st)
			return st;
	}
}

/* Accept and serve what the MCP sockets have, without waiting: 0, ENDED. */
int sc_acp_mcp_ready(struct acp *a)
{
	struct pollfd p[SC_ACPMCP_MAX_CONNS + SC_ACP_MAX_MCP];
	int fds[SC_ACPMCP_MAX_CONNS];
	size_t n, nfds = 0, conns = a->mcp.nr_conns;

	if (a->mcp.nr > SC_ACP_MAX_MCP)
		return 0;
	n = sc_acpmcp_pollfds(&a->mcp, p);
	if (poll(p, n, 0) <= 0)
		return 0;
	for (size_t i = 0; i < conns; i++)
		if (p[a->mcp.nr + i].revents)
			fds[nfds++] = p[a->mcp.nr + i].fd;
	/* By descriptor: closing one moves another in the table. */
	for (size_t k = 0; k < nfds; k++)
		for (size_t i = 0; i < a->mcp.nr_conns; i++) {
			int st;

			if (a->mcp.conns[i].rpc.in_fd != fds[k])
				continue;
			st = mcp_conn(a, i);
			if (st < 0)
				return ENDED;
			if (st > 0)
				sc_acpmcp_drop(&a->mcp, i);
			break;
		}
	for (size_t i = 0; i < a->mcp.nr; i++)
		if (p[i].revents)
			sc_acpmcp_accept(&a->mcp, i);
	return 0;
}
