/*
 * The requests an agent makes of sc-acp(1) (files, permissions; terminals
 * are in acp-terminal.c), each turned into a type=call record for the
 * caller, and the caller's answer turned into the agent's response.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acp-int.h"
#include "acpcall.h"
#include "alloc.h"
#include "diag.h"
#include "jsonstr.h"

/* JSON-RPC error code of a request speccoder refused (documented). */
#define ACP_DENIED (-32001)

/*
 * The largest file text an fs/write_text_file may carry: it travels to the
 * caller in one record (sc-record(5) caps a record at 16 MiB), with room
 * for the other fields.
 */
#define WRITE_MAX (SC_RECORD_MAX - ((size_t)64 << 10))

/* Start call record R for TOOL with the session's next call id. */
void sc_acp_new_call(struct acp *a, struct sc_record *r, const char *tool)
{
	sc_acp_call_start(r, ++a->next_call, tool);
}

/* The queued answer for call ID, moved into a->rec: 1, or 0 when none. */
static int take_result(struct acp *a, const char *id)
{
	size_t i;

	for (i = 0; i < a->nq; i++)
		if (sc_acp_answers(&a->queue[i], id)) {
			sc_acp_take_queued(a, i);
			return 1;
		}
	return 0;
}

/* ANS from the caller's record in a->rec. */
void sc_acp_read_answer(struct acp *a, struct answer *ans)
{
	const char *decision = sc_record_str(&a->rec, "decision");
	const char *error = sc_record_str(&a->rec, "error");
	const char *trunc = sc_record_str(&a->rec, "truncated");
	const struct sc_field *text = sc_record_get(&a->rec, "text");

	memset(ans, 0, sizeof(*ans));
	ans->started = !strcmp(sc_acp_rec_type(a), "started");
	/* Anything but an explicit allow is a deny. */
	ans->allow = ans->started || (decision && !strcmp(decision, "allow"));
	ans->missing = error && !strcmp(error, "not-found");
	ans->truncated = trunc && !strcmp(trunc, "1");
	ans->text = text ? text->value : "";
	ans->text_len = text ? text->value_len : 0;
	ans->status = sc_record_str(&a->rec, "status");
	ans->signal = sc_record_str(&a->rec, "signal");
}

/*
 * The caller's answer to call ID: 1 with ANS filled (pointing into
 * a->rec), 0 when the turn was cancelled or no answer can come (the
 * caller's input ended, or its queue is full of other records), ENDED.
 */
int sc_acp_await_result(struct acp *a, const char *id, struct answer *ans)
{
	int st;

	while (!take_result(a, id)) {
		if (a->cancelled)
			return 0;
		if (a->caller_eof || a->nq == QUEUE_MAX) {
			if (!a->caller_eof)
				sc_warning("QUEUE-FULL", "no result for call %s "
					   "among %d records: refused", id,
					   QUEUE_MAX);
			return sc_acp_cancel_turn(a) < 0 ? ENDED : 0;
		}
		if ((st = sc_acp_pull_caller(a)) < 0)
			return st;
		sc_acp_settle_terminals(a);
		if (a->end)
			return ENDED;
	}
	sc_acp_read_answer(a, ans);
	return 1;
}

/* Emit call R (released here); its id into ID. */
int sc_acp_send_call(struct acp *a, struct sc_record *r, char id[32])
{
	int st;

	sc_record_adds(r, "source", "executor");
	snprintf(id, 32, "%s", sc_record_str(r, "id"));
	st = sc_acp_check_settings(a, 1);
	if (st == 0)
		st = sc_acp_emit(a, r);
	sc_record_release(r);
	return st;
}

/* Emit call R (released here) and wait for its answer. */
int sc_acp_ask(struct acp *a, struct sc_record *r, struct answer *ans)
{
	char id[32];

	return sc_acp_send_call(a, r, id) < 0 ? ENDED :
	       sc_acp_await_result(a, id, ans);
}

/*
 * A permission for an MCP tool that is not one speccoder gives the agent
 * (sc-acp(1) --mcp) is for a server of the agent's own, acting in its
 * process: outside, so a person decides whatever the policy says.
 */
static void mcp_outside(struct acp *a, struct sc_record *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *tool = sc_record_str(&r[i], "tool");
		int ours = 0;

		if (!tool || strncmp(tool, "mcp__", 5))
			continue;
		for (size_t k = 0; k < a->mcp.tools.nr && !ours; k++)
			ours = !strcmp(a->mcp.tools.v[k].name, tool);
		if (!ours)
			sc_record_adds(&r[i], "outside", "1");
	}
}

/* The refusal the agent gets, with the caller's reason when it gave one. */
int sc_acp_deny(struct acp *a, json_t *id, const struct answer *ans)
{
	struct sc_buf msg = SC_BUF_INIT;
	int ret;

	sc_buf_adds(&msg, ans && ans->missing ? "not found" :
		    "denied by speccoder");
	if (ans && ans->text_len) {
		sc_buf_adds(&msg, ": ");
		sc_buf_add(&msg, ans->text, ans->text_len);
	}
	ret = sc_acp_respond_error(a, id, ans && ans->missing ? ACP_NOT_FOUND :
				   ACP_DENIED, msg.data);
	sc_buf_release(&msg);
	return ret;
}

/* ACP paths are absolute: a relative one is refused, never guessed at. */
int sc_acp_relative_path(struct acp *a, json_t *id, const char *path)
{
	return sc_acp_respond_error(a, id, SC_RPC_INVALID_PARAMS, path && *path ?
				    "the path is not absolute" : "path is missing");
}

/* LINE (1-based) and LIMIT lines of TEXT, as fs/read_text_file asks. */
static json_t *slice_lines(const char *text, size_t len, json_int_t line,
			   json_int_t limit)
{
	size_t start = 0, end = len;
	json_int_t n;

	for (n = 1; n < line && start < len; n++) {
		const char *nl = memchr(text + start, '\n', len - start);

		start = nl ? (size_t)(nl - text) + 1 : len;
	}
	if (limit > 0) {
		end = start;
		for (n = 0; n < limit && end < len; n++) {
			const char *nl = memchr(text + end, '\n', len - end);

			end = nl ? (size_t)(nl - text) + 1 : len;
		}
	}
	return sc_json_string(text + start, end - start, SC_JSON_FFFD);
}

static int fs_read(struct acp *a, struct sc_rpc_msg *m)
{
	const char *path = sc_json_str(m->params, "path");
	json_t *line = json_object_get(m->params, "line");
	json_t *limit = json_object_get(m->params, "limit");
	struct sc_record r;
	struct answer ans;
	int st;

	if ((line && !json_is_integer(line) && !json_is_null(line)) ||
	    (limit && !json_is_integer(limit) && !json_is_null(limit)))
		return sc_acp_respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
					    "line or limit is not an integer");
	if (!path || *path != '/')
		return sc_acp_relative_path(a, m->id, path);
	if (a->cancelled)
		return sc_acp_refuse_cancelled(a, m);
	sc_acp_new_call(a, &r, "read");
	sc_acp_add_path(&r, a->cwd, "path", path);
	if ((st = sc_acp_ask(a, &r, &ans)) <= 0)
		return st < 0 ? st : sc_acp_refuse_cancelled(a, m);
	if (!ans.allow)
		return sc_acp_deny(a, m->id, &ans);
	return sc_acp_respond(a, m->id, json_pack("{s:o}", "content",
		slice_lines(ans.text, ans.text_len,
			    json_is_integer(line) ? json_integer_value(line) : 1,
			    json_is_integer(limit) ? json_integer_value(limit) : 0)));
}

static int fs_write(struct acp *a, struct sc_rpc_msg *m)
{
	const char *path = sc_json_str(m->params, "path");
	json_t *content = json_object_get(m->params, "content");
	struct sc_record r;
	struct answer ans;
	char msg[128];
	int st;

	if (!json_is_string(content))
		return sc_acp_respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
					    "content is missing");
	if (!path || *path != '/')
		return sc_acp_relative_path(a, m->id, path);
	if (json_string_length(content) > WRITE_MAX) {
		/* Said plainly, and the session goes on: the agent can split it. */
		snprintf(msg, sizeof(msg), "the text is larger than the %zu "
			 "bytes a write may carry", WRITE_MAX);
		sc_warning("TOO-LARGE", "an fs/write_text_file of %zu bytes was "
			   "refused: %s", json_string_length(content), msg);
		return sc_acp_respond_error(a, m->id, SC_RPC_INVALID_PARAMS, msg);
	}
	if (a->cancelled)
		return sc_acp_refuse_cancelled(a, m);
	sc_acp_new_call(a, &r, "write");
	sc_acp_add_path(&r, a->cwd, "path", path);
	sc_record_add(&r, "content", json_string_value(content),
		      json_string_length(content));
	if ((st = sc_acp_ask(a, &r, &ans)) <= 0)
		return st < 0 ? st : sc_acp_refuse_cancelled(a, m);
	return ans.allow ? sc_acp_respond(a, m->id, NULL) :
	       sc_acp_deny(a, m->id, &ans);
}

/* The optionId of the first option of KIND, or NULL. */
static const char *option_of(json_t *options, const char *kind)
{
	size_t i;
	json_t *o;

	json_array_foreach(options, i, o)
		if (!strcmp(str_or_empty(o, "kind"), kind) &&
		    sc_json_str(o, "optionId"))
			return sc_json_str(o, "optionId");
	return NULL;
}

/*
 * The rejection to answer: a one-time one, else the "always" one (a
 * rejection remembered by the agent grants nothing), else none.
 */
static const char *reject_option(json_t *options)
{
	const char *o = option_of(options, "reject_once");

	return o ? o : option_of(options, "reject_always");
}

/* Answer with OPTION selected, or "cancelled" when there is none. */
static int select_option(struct acp *a, json_t *id, const char *option)
{
	if (!option)
		return sc_acp_respond(a, id, json_pack("{s:{s:s}}", "outcome",
						"outcome", "cancelled"));
	return sc_acp_respond(a, id, json_pack("{s:{s:s, s:s}}", "outcome", "outcome",
					"selected", "optionId", option));
}

/*
 * Ask the caller about the N calls R (released here); 1 when every one
 * was allowed, 0 when one was not (the rest are not asked), ENDED, or
 * CANCELLED_ANSWER when the turn was cancelled meanwhile.  The objects
 * allowed go into OBJECT, one after another.
 */
#define CANCELLED_ANSWER 2
static int ask_all(struct acp *a, struct sc_record *r, size_t n,
		   struct sc_buf *object)
{
	struct sc_buf one = SC_BUF_INIT;
	struct answer ans;
	size_t i;
	int st = 1;

	sc_buf_reset(object);
	for (i = 0; i < n; i++) {
		if (st != 1) {
			sc_record_release(&r[i]);
			continue;
		}
		sc_acp_call_object(&r[i], &one);
		sc_buf_add(object, one.data ? one.data : "", one.len);
		st = sc_acp_ask(a, &r[i], &ans);
		if (st == 0)
			st = CANCELLED_ANSWER;
		else if (st == 1 && !ans.allow)
			st = 0;
	}
	sc_buf_release(&one);
	return st;
}

static int permission(struct acp *a, struct sc_rpc_msg *m)
{
	json_t *call = json_object_get(m->params, "toolCall");
	json_t *options = json_object_get(m->params, "options");
	/* Never an "always" option: it would outlive this one decision. */
	const char *allow = option_of(options, "allow_once");
	const char *reject = reject_option(options);
	const char *tcid = sc_json_str(call, "toolCallId");
	struct sc_acptrack_call *known;
	struct sc_record r[2];
	struct sc_buf object = SC_BUF_INIT;
	json_t *merged;
	size_t n;
	int st;

	if (!json_is_object(call) || !json_is_array(options) || !tcid)
		return sc_acp_respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
					    "toolCall, its toolCallId or options is "
					    "missing");
	/* No one-time allow offered: nothing to ask, the answer is no. */
	if (!allow)
		return select_option(a, m->id, reject);
	if (a->cancelled)
		return sc_acp_refuse_cancelled(a, m);
	/* Judged on everything the agent said of the call, not the request. */
	known = sc_acptrack_find(&a->track, tcid);
	merged = sc_acptrack_merged(known, call);
	n = sc_acp_permission_calls(r, &a->next_call, a->cwd, merged);
	json_decref(merged);
	mcp_outside(a, r, n);
	st = ask_all(a, r, n, &object);
	if (st == 1) {
		/* The grant covers this object; a later change is a new call. */
		known = sc_acptrack_find(&a->track, tcid);
		if (!known) {
			json_t *u = json_pack("{s:s}", "toolCallId", tcid);

			known = sc_acptrack_update(&a->track, u, 0, 64);
			json_decref(u);
		}
		sc_acptrack_grant(known, object.data ? object.data : "");
	}
	sc_buf_release(&object);
	if (st < 0)
		return st;
	if (st == CANCELLED_ANSWER)
		return sc_acp_refuse_cancelled(a, m);
	return select_option(a, m->id, st == 1 ? allow : reject);
}

/*
 * A tool call whose object changed after it was granted: the grant does
 * not cover it, so it is a new call for the caller.  The agent does not
 * ask any more, so a refusal cancels the turn.
 */
int sc_acp_granted_call_changed(struct acp *a, struct sc_acptrack_call *c)
{
	struct sc_record r[2];
	struct sc_buf object = SC_BUF_INIT, one = SC_BUF_INIT;
	unsigned long next = a->next_call;   /* ids taken only if it changed */
	size_t n, i;
	int st;

	n = sc_acp_permission_calls(r, &next, a->cwd, c->info);
	for (i = 0; i < n; i++) {
		sc_acp_call_object(&r[i], &one);
		sc_buf_add(&object, one.data ? one.data : "", one.len);
	}
	sc_buf_release(&one);
	if (!object.len || !strcmp(object.data, c->granted)) {
		for (i = 0; i < n; i++)
			sc_record_release(&r[i]);
		sc_buf_release(&object);
		return 0;
	}
	a->next_call = next;
	for (i = 0; i < n; i++)
		sc_record_adds(&r[i], "changed", "1");
	sc_warning("GRANT-CHANGED", "the agent changed tool call '%s' after it "
		   "was granted: judged again", c->id);
	sc_acptrack_grant(c, object.data);
	sc_buf_release(&object);
	st = ask_all(a, r, n, &object);
	sc_buf_release(&object);
	if (st < 0)
		return st;
	return st == 1 ? 0 : sc_acp_cancel_turn(a);
}

/* Refuse a request without asking: the turn is being cancelled. */
int sc_acp_refuse_cancelled(struct acp *a, struct sc_rpc_msg *m)
{
	if (!strcmp(m->method, "session/request_permission"))
		return select_option(a, m->id, NULL);
	return sc_acp_respond_error(a, m->id, SC_RPC_CANCELLED,
				    "the turn was cancelled");
}

int sc_acp_handle_request(struct acp *a, struct sc_rpc_msg *m)
{
	const char *sid = sc_json_str(m->params, "sessionId");
	int terminal = !strncmp(m->method, "terminal/", 9);
	int known = terminal || !strcmp(m->method, "fs/read_text_file") ||
		    !strcmp(m->method, "fs/write_text_file") ||
		    !strcmp(m->method, "session/request_permission");

	if (!known)
		return sc_acp_respond_error(a, m->id, SC_RPC_METHOD_NOT_FOUND,
					    "method not found");
	if (!json_is_object(m->params) || !sid || strcmp(sid, a->session))
		return sc_acp_respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
					    "not this session");
	if (terminal && strcmp(m->method, "terminal/create"))
		return sc_acp_term_serve(a, m);
	/* Each checks its params, then refuses when the turn is cancelled. */
	if (!strcmp(m->method, "session/request_permission"))
		return permission(a, m);
	if (!strcmp(m->method, "fs/read_text_file"))
		return fs_read(a, m);
	if (!strcmp(m->method, "fs/write_text_file"))
		return fs_write(a, m);
	return sc_acp_term_create(a, m);
}
