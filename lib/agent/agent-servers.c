/*
 * The loop's side of the attempt's MCP servers (agentmcp.c runs them):
 * their tool definitions masked and put in the conversation, or sent to
 * sc-acp for an external agent; their calls judged and made.  Separate
 * so agentmcp.c knows nothing of the loop.
 */
#include <string.h>

#include "agent-int.h"

/* ---- MCP tools (lib/agent/agentmcp.c) ------------------------------------ */

int sc_agent_servers_event(void *ctx, const struct sc_record *r)
{
	return sc_agent_emit(ctx, r);
}

/*
 * An MCP tool's definition is the server's words, and the server holds
 * the keys its configuration passes it: description and schema are
 * masked like any result before the model sees them.
 */
static int masked_tool(struct loop *l, const struct sc_record *r,
		       struct sc_record *m)
{
	int ret = 0, trunc = 0;

	for (size_t i = 0; !ret && i < r->nr; i++) {
		const struct sc_field *f = &r->fields[i];
		struct sc_buf text = SC_BUF_INIT;

		if (strcmp(f->name, "description") && strcmp(f->name, "schema")) {
			sc_record_add(m, f->name, f->value, f->value_len);
			continue;
		}
		sc_buf_add(&text, f->value, f->value_len);
		if (sc_agent_mask_text(l, &text, &trunc) < 0)
			ret = -1;
		else
			sc_record_add(m, f->name, text.data ? text.data : "",
				      text.len);
		sc_buf_release(&text);
	}
	return ret;
}

int sc_agent_servers_conversation(void *ctx, const struct sc_record *r)
{
	struct loop *l = ctx;
	struct sc_record m;
	int ret;

	sc_record_init(&m);
	ret = masked_tool(l, r, &m);
	if (!ret)
		ret = sc_agent_append_conversation(l, &m);
	sc_record_release(&m);
	return ret;
}

/*
 * An external agent gets the same tools, masked alike, through sc-acp
 * (sc-acp(1) --mcp): an offer or a withdrawal goes to it as it comes.
 */
static int mcp_to_acp(void *ctx, const struct sc_record *r)
{
	struct loop *l = ctx;
	struct sc_record m;
	int ret;

	sc_record_init(&m);
	ret = masked_tool(l, r, &m);
	if (!ret && sc_coproc_send(l->acp, &m) < 0)
		ret = -1;
	sc_record_release(&m);
	return ret;
}

/* Start the servers for the external agent, then tell sc-acp the list
 * is complete: it opens the session with them. */
int sc_agent_servers_acp_start(struct loop *l)
{
	struct sc_agent_mcp_sink sink = { sc_agent_servers_event, mcp_to_acp, l };
	struct sc_record r;
	int ret = 0;

	if (sc_agent_mcp_start(&l->mcp, l->prog->mcp, l->prog->nr_mcp,
			       &sink) < 0)
		return FAILED;
	sc_record_init(&r);
	sc_record_adds(&r, "type", "mcp-ready");
	if (sc_coproc_send(l->acp, &r) < 0)
		ret = sc_agent_stop(l, "ACP-EXITED",
				    "the external agent's session is gone");
	sc_record_release(&r);
	return ret ? ret : GO_ON;
}

/* The policy judges an MCP call as tool=mcp server= name= digest=. */
int sc_agent_servers_judge(struct loop *l, const struct sc_record *call,
			   struct sc_record *v)
{
	struct sc_record j;
	int ret;

	sc_record_init(&j);
	ret = sc_agent_mcp_judged(&l->mcp, call, &j) < 0 ? FAILED :
	      sc_agent_judge(l, &j, v);
	sc_record_release(&j);
	return ret;
}

/* Carry an allowed MCP call; its result is capped like a command's. */
int sc_agent_servers_call(struct loop *l, const struct sc_record *call,
			  struct result *res)
{
	int ok = 0;

	if (sc_agent_mcp_call(&l->mcp, call, l->o->output_max, &res->text, &ok,
			      &res->truncated, &res->source) < 0)
		return FAILED;
	res->outcome = ok ? "ok" : "error";
	if (res->truncated)
		sc_buf_addf(&res->text, "\n[output truncated at %zu bytes]",
			    l->o->output_max);
	return GO_ON;
}
