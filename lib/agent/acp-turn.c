/*
 * A prompt turn of sc-acp(1): the prompt goes to the agent, and until it
 * answers the prompt, its messages are handled while the caller's records
 * are read (a cancel acts at once, the rest wait in the queue).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acp-int.h"
#include "alloc.h"
#include "diag.h"
#include "jsonstr.h"

/*
 * How long a stop waits for the agent to end its turn after session/cancel
 * (documented in sc-acp(1)): long enough for an agent to stop its tools
 * and answer, short enough that a stopped run ends promptly.
 */
#define CANCEL_MS 5000

static int emit_simple(struct acp *a, const char *type, const char *name,
		       const char *value, size_t len)
{
	struct sc_record r;
	int ret;

	sc_record_init(&r);
	sc_record_adds(&r, "type", type);
	sc_record_add(&r, name, value, len);
	ret = sc_acp_emit(a, &r);
	sc_record_release(&r);
	return ret;
}

/* The type of the caller's record; "" for none. */
const char *sc_acp_rec_type(const struct acp *a)
{
	const char *type = sc_record_type(&a->rec);

	return type ? type : "";
}

/* Move queued record I into a->rec. */
void sc_acp_take_queued(struct acp *a, size_t i)
{
	sc_record_release(&a->rec);
	a->rec = a->queue[i];
	memmove(a->queue + i, a->queue + i + 1,
		(a->nq - i - 1) * sizeof(a->queue[0]));
	a->nq--;
}

/* 1 when queued record Q answers call ID: a result, or a command started. */
int sc_acp_answers(const struct sc_record *q, const char *id)
{
	const char *type = sc_record_type(q), *rid = sc_record_str(q, "id");

	return type && rid && !strcmp(rid, id) &&
	       (!strcmp(type, "result") || !strcmp(type, "started"));
}

/*
 * The caller's next record into a->rec: 1, 0 at the end of its input
 * (a->caller_eof set), ENDED when the input is broken.
 */
int sc_acp_read_caller(struct acp *a)
{
	int st = sc_reader_next(&a->rd, &a->rec);

	if (st == SC_READ_RECORD)
		return 1;
	if (st == SC_READ_EOF) {
		a->caller_eof = 1;
		return 0;
	}
	(void)sc_reader_report(&a->rd, st);
	a->end = st == SC_READ_IO ? "READ-FAILED" : st == SC_READ_TOO_LARGE ?
		 "RECORD-TOO-LARGE" : "MALFORMED-RECORD";
	sc_acp_kill_agent(a);
	return ENDED;
}

/*
 * The caller's input ended during a turn: it stopped the attempt, so the
 * turn is cancelled, once the records it wrote ahead are used up (a
 * caller may write every answer, or the next prompt, and then end its
 * input).
 */
static int caller_gone(struct acp *a)
{
	if (!a->prompt_id || !a->caller_eof || a->cancelled || a->nq)
		return 0;
	return sc_acp_cancel_turn(a);
}

/*
 * Read one caller record during a turn: a cancel acts at once, every
 * other record waits in the queue.  1, 0 at EOF, ENDED.
 */
int sc_acp_pull_caller(struct acp *a)
{
	int st = sc_acp_read_caller(a);

	if (st == 0 && caller_gone(a) < 0)
		return ENDED;
	if (st <= 0)
		return st;
	if (!strcmp(sc_acp_rec_type(a), "cancel"))
		return sc_acp_cancel_turn(a) < 0 ? ENDED : 1;
	/* A withdrawal acts at once, even while a call waits. */
	if (!strcmp(sc_acp_rec_type(a), "tool")) {
		sc_acp_mcp_tool_record(a, &a->rec);
		return 1;
	}
	a->queue[a->nq++] = a->rec;
	sc_record_init(&a->rec);
	return 1;
}

/* The next record of the caller's, queued ones first: as read_caller. */
int sc_acp_next_caller(struct acp *a)
{
	if (a->nq) {
		sc_acp_take_queued(a, 0);
		return 1;
	}
	return sc_acp_read_caller(a);
}

int sc_acp_cancel_turn(struct acp *a)
{
	int st;

	if (a->cancelled)
		return 0;
	a->cancelled = 1;
	/* The turn has CANCEL_MS to end; then the agent is stopped. */
	a->cancel_deadline = sc_rpc_now_ms() + CANCEL_MS;
	st = sc_rpc_notify(&a->rpc, "session/cancel",
			   json_pack("{s:s}", "sessionId", a->session),
			   a->o->timeout_ms);
	return st ? sc_acp_send_failed(a, st) : 0;
}

/*
 * A cancelled turn that did not end within CANCEL_MS: the agent's process
 * group is killed and the turn ends as cancelled, so a stopped run ends
 * promptly whatever the agent does.
 */
static int cancel_expired(struct acp *a)
{
	sc_warning("CANCEL-TIMEOUT", "the agent did not end its turn %d "
		   "seconds after session/cancel: stopped", CANCEL_MS / 1000);
	sc_acp_kill_agent(a);
	a->prompt_id = 0;
	a->agent_gone = 1;
	return emit_simple(a, "end", "reason", "cancelled", strlen("cancelled"));
}

/* What the agent does on its own, for the journal. */
static int emit_activity(struct acp *a, json_t *u)
{
	static const char *const names[] = { "toolCallId", "kind", "status",
					     "title", NULL };
	static const char *const fields[] = { "tool-call-id", "kind", "status",
					      "text", NULL };
	struct sc_record r;
	size_t i;
	int ret;

	sc_record_init(&r);
	sc_record_adds(&r, "type", "activity");
	for (i = 0; names[i]; i++)
		if (sc_json_str(u, names[i]))
			sc_record_adds(&r, fields[i], sc_json_str(u, names[i]));
	ret = sc_acp_emit(a, &r);
	sc_record_release(&r);
	return ret;
}

/* Keep what the agent says of a tool call; judge a granted one that changed. */
static int track_tool_call(struct acp *a, json_t *u, int is_new, size_t cost)
{
	struct sc_acptrack_call *c = sc_acptrack_update(&a->track, u, is_new,
							cost);

	if (emit_activity(a, u) < 0)
		return ENDED;
	if (!c || !c->granted)
		return 0;
	if (is_new) {
		/* Announced again after a grant: the grant no longer holds. */
		free(c->granted);
		c->granted = NULL;
		return 0;
	}
	return a->cancelled ? 0 : sc_acp_granted_call_changed(a, c);
}

static int handle_update(struct acp *a, struct sc_rpc_msg *m)
{
	json_t *u = json_object_get(m->params, "update");
	const char *kind = sc_json_str(u, "sessionUpdate");
	json_t *content = json_object_get(u, "content");

	if (!kind || strcmp(str_or_empty(m->params, "sessionId"), a->session))
		return 0;   /* notifications that are not ours are ignored */
	if (!strcmp(kind, "agent_message_chunk") &&
	    !strcmp(str_or_empty(content, "type"), "text") &&
	    json_is_string(json_object_get(content, "text"))) {
		json_t *t = json_object_get(content, "text");

		return emit_simple(a, "text", "text", json_string_value(t),
				   json_string_length(t));
	}
	if (!strcmp(kind, "current_mode_update"))
		return sc_acp_mode_reported(a, sc_json_str(u, "currentModeId"));
	if (!strcmp(kind, "config_option_update"))
		return sc_acp_mode_reported(a, sc_acp_config_mode(a, json_object_get(
						u, "configOptions")));
	if (!strcmp(kind, "tool_call") || !strcmp(kind, "tool_call_update"))
		return track_tool_call(a, u, !strcmp(kind, "tool_call"), m->len);
	return 0;
}

/* The response to the turn's prompt: type=end, or the end of the session. */
static int turn_ended(struct acp *a, struct sc_rpc_msg *m)
{
	const char *reason;

	a->prompt_id = 0;
	if (m->kind == SC_RPC_ERROR) {
		char why[128];

		snprintf(why, sizeof(why), "the agent failed the prompt "
			 "(error %lld)", m->error_code);
		return sc_acp_stop(a, "ACP-REFUSED", why, m->error_message);
	}
	reason = sc_json_str(m->result, "stopReason");
	if (!reason)
		return sc_acp_protocol_error(a, "a prompt result without "
					     "stopReason");
	if (sc_acp_check_settings(a, 1) < 0)
		return ENDED;
	return emit_simple(a, "end", "reason", reason, strlen(reason));
}

/* One message from the agent during a turn: 1 when the turn ended. */
static int handle_message(struct acp *a, struct sc_rpc_msg *m)
{
	switch (m->kind) {
	case SC_RPC_REQUEST:
		return sc_acp_handle_request(a, m);
	case SC_RPC_NOTIFICATION:
		return !strcmp(m->method, "session/update") ?
		       handle_update(a, m) : 0;
	default:
		if (!json_is_integer(m->id) ||
		    json_integer_value(m->id) != a->prompt_id)
			return sc_acp_protocol_error(a, "a response to no request "
						     "of ours");
		if (m->kind == SC_RPC_RESULT && !json_is_object(m->result))
			return sc_acp_protocol_error(a, "a result that is not "
						     "an object");
		return turn_ended(a, m) < 0 ? ENDED : 1;
	}
}

/* Wait for the agent, or for the caller, or an MCP socket: 1 agent,
 * 2 caller, 3 an MCP socket, 0 the turn was ended after a cancel, ENDED. */
static int wait_either(struct acp *a)
{
	struct pollfd p[2 + SC_ACP_MAX_MCP + SC_ACPMCP_MAX_CONNS] = {
		{ a->rpc.in_fd, POLLIN, 0 },
		{ a->in.fd, POLLIN, 0 },
	};
	int n, ms, caller = !a->caller_eof && a->nq < QUEUE_MAX;
	size_t nmcp = 0;

	if (caller && a->in.pos < a->in.end)
		return 2;
	for (;;) {
		ms = a->o->timeout_ms;
		if (a->cancelled) {
			long long left = a->cancel_deadline - sc_rpc_now_ms();

			if (left <= 0)
				return cancel_expired(a) < 0 ? ENDED : 0;
			if (left < ms)
				ms = (int)left;
		}
		/* Unused when the caller is not read: poll skips fd -1. */
		if (!caller)
			p[1].fd = -1;
		if (a->o->nmcp && a->mcp.nr <= SC_ACP_MAX_MCP)
			nmcp = sc_acpmcp_pollfds(&a->mcp, p + 2);
		n = poll(p, 2 + nmcp, ms);
		if (n > 0)
			return p[0].revents ? 1 : p[1].revents ? 2 : 3;
		if (n == 0 && a->cancelled)
			continue;   /* the deadline is checked above */
		if (n == 0)
			return sc_acp_read_failed(a, SC_RPC_TIMEOUT);
		if (errno != EINTR)
			return sc_acp_read_failed(a, SC_RPC_IO);
	}
}

int sc_acp_turn(struct acp *a, const struct sc_field *text)
{
	json_t *params = json_pack("{s:s, s:[{s:s, s:o}]}", "sessionId",
				   a->session, "prompt", "type", "text", "text",
				   sc_json_string(text->value, text->value_len,
						  SC_JSON_FFFD));
	struct sc_rpc_msg m;
	int st;

	a->cancelled = 0;
	st = sc_rpc_request(&a->rpc, "session/prompt", params, a->o->timeout_ms,
			    &a->prompt_id);
	if (st)
		return sc_acp_send_failed(a, st);
	while (a->prompt_id) {
		st = sc_rpc_take(&a->rpc, &m);
		if (st == 0 && !a->rpc.eof) {
			st = wait_either(a);
			if (st == 3) {
				st = sc_acp_mcp_ready(a);
			} else if (st == 2) {
				st = sc_acp_pull_caller(a);
				sc_acp_settle_terminals(a);
				if (a->end)
					return ENDED;
			} else if (st == 1 && sc_rpc_fill(&a->rpc) < 0)
				st = sc_acp_read_failed(a, SC_RPC_IO);
			if (st < 0)
				return st;
			continue;
		}
		if (st != SC_RPC_MSG)
			return sc_acp_read_failed(a, st);
		st = handle_message(a, &m);
		sc_rpc_msg_release(&m);
		if (st < 0 || sc_acp_check_settings(a, 0) < 0 || caller_gone(a) < 0)
			return ENDED;
	}
	return 0;
}
