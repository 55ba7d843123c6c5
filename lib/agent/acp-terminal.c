/*
 * The terminal requests of an agent for sc-acp(1): a command is a call
 * for the caller, who runs it; the terminal keeps the end of its output
 * and its exit status for the agent to read, wait for, kill or release.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acp-int.h"
#include "acpcall.h"
#include "alloc.h"
#include "jsonstr.h"
#include "opt.h"

/* The last LIMIT bytes of TEXT, starting on a character boundary. */
static void keep_tail(struct terminal *t, const char *text, size_t len)
{
	size_t start = 0;

	if (t->limit >= 0 && (size_t)t->limit < len) {
		start = len - (size_t)t->limit;
		while (start < len && ((unsigned char)text[start] & 0xc0) == 0x80)
			start++;
		t->truncated = 1;
	}
	free(t->output);
	t->output = sc_xmemdup(text + start, len - start);
	t->len = len - start;
}

static json_t *exit_status(const struct terminal *t)
{
	return json_pack("{s:o, s:o}", "exitCode",
			 t->signal ? json_null() : json_integer(t->exit_code),
			 "signal", t->signal ? json_string(t->signal)
					     : json_null());
}

void sc_acp_drop_terminal(struct acp *a, struct terminal *t)
{
	size_t i;

	for (i = 0; i < t->nr_waiters; i++)
		json_decref(t->waiters[i]);
	free(t->id);
	free(t->call);
	free(t->output);
	free(t->signal);
	*t = a->terms[--a->nr_terms];
}

/* Terminal T's command ended as the caller's result ANS says. */
static void finish_terminal(struct acp *a, struct terminal *t,
			    const struct answer *ans)
{
	unsigned long long code = 0;
	size_t i;

	free(t->call);
	t->call = NULL;
	keep_tail(t, ans->text, ans->text_len);
	t->truncated |= ans->truncated;
	if (ans->signal && *ans->signal) {
		t->exit_code = -1;
		t->signal = sc_xstrdup(ans->signal);
	} else {
		/* No readable status, or a refused command: not a success. */
		if (!ans->allow || !ans->status ||
		    sc_parse_uint(ans->status, 255, &code) < 0)
			code = ans->allow ? 1 : 126;
		t->exit_code = (int)code;
	}
	for (i = 0; i < t->nr_waiters && !a->end; i++)
		(void)sc_acp_respond(a, t->waiters[i], exit_status(t));
	for (i = 0; i < t->nr_waiters; i++)
		json_decref(t->waiters[i]);
	t->nr_waiters = 0;
	if (t->released)
		sc_acp_drop_terminal(a, t);
}

/*
 * Results the caller sent for running commands, wherever they wait in
 * the queue: their terminals end, and the agent's wait_for_exit requests
 * are answered.
 */
void sc_acp_settle_terminals(struct acp *a)
{
	struct answer ans;
	size_t i, k;

	for (i = 0; i < a->nr_terms && !a->end; i++) {
		struct terminal *t = &a->terms[i];

		if (!t->call)
			continue;
		for (k = 0; k < a->nq; k++) {
			const char *type = sc_record_type(&a->queue[k]);
			const char *rid = sc_record_str(&a->queue[k], "id");

			if (type && rid && !strcmp(type, "result") &&
			    !strcmp(rid, t->call)) {
				sc_acp_take_queued(a, k);
				sc_acp_read_answer(a, &ans);
				finish_terminal(a, t, &ans);
				i = (size_t)-1;   /* the table may have moved */
				break;
			}
		}
	}
}

/* A new terminal for call CALL, running (the caller said it started). */
static struct terminal *add_terminal(struct acp *a, const char *call,
				     json_int_t limit)
{
	struct terminal *t = &a->terms[a->nr_terms++];
	char id[32];

	memset(t, 0, sizeof(*t));
	snprintf(id, sizeof(id), "term-%lu", ++a->next_term);
	t->id = sc_xstrdup(id);
	t->call = sc_xstrdup(call);
	t->limit = limit;
	return t;
}

/*
 * terminal/create: the command is a call for the caller; the terminal id
 * is answered as soon as the caller says the command started (or ended),
 * so the agent can read, wait for, kill or release a running command.  A
 * command without args is a shell command line (as claude-code-acp sends
 * them, and as editors run them): it is judged as one.
 */
int sc_acp_term_create(struct acp *a, struct sc_rpc_msg *m)
{
	const char *command = sc_json_str(m->params, "command");
	const char *cwd = sc_json_str(m->params, "cwd");
	json_t *args = json_object_get(m->params, "args");
	json_t *limit = json_object_get(m->params, "outputByteLimit");
	json_t *env = json_object_get(m->params, "env");
	json_t *v;
	struct sc_record r;
	struct answer ans;
	struct terminal *t;
	char id[32];
	size_t i;
	int st;

	if (!command || !*command || (args && !json_is_array(args) &&
				      !json_is_null(args)) ||
	    (limit && !json_is_null(limit) &&
	     (!json_is_integer(limit) || json_integer_value(limit) < 0)))
		return sc_acp_respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
					    "command, args or outputByteLimit is wrong");
	json_array_foreach(args, i, v)
		if (!json_is_string(v))
			return sc_acp_respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
						    "an argument is not a string");
	if (cwd && *cwd != '/')
		return sc_acp_relative_path(a, m->id, cwd);
	if (a->nr_terms == MAX_TERMINALS)
		return sc_acp_respond_error(a, m->id, SC_RPC_INTERNAL_ERROR,
					    "too many terminals: release some");
	if (a->cancelled)
		return sc_acp_refuse_cancelled(a, m);
	sc_acp_new_call(a, &r, "run");
	if (json_array_size(args)) {
		sc_record_adds(&r, "argv", command);
		json_array_foreach(args, i, v)
			sc_record_add(&r, "argv", json_string_value(v),
				      json_string_length(v));
	} else {
		sc_record_adds(&r, "shell", command);
	}
	if (cwd)
		sc_acp_add_path(&r, a->cwd, "cwd", cwd);
	/* The agent's env is not passed: the sandbox sets the environment. */
	if (json_object_size(env) || json_array_size(env))
		sc_record_adds(&r, "env-dropped", "1");
	sc_record_adds(&r, "terminal", "1");
	if (sc_acp_send_call(a, &r, id) < 0)
		return ENDED;
	if ((st = sc_acp_await_result(a, id, &ans)) <= 0)
		return st < 0 ? st : sc_acp_refuse_cancelled(a, m);
	if (!ans.allow)
		return sc_acp_deny(a, m->id, &ans);
	t = add_terminal(a, id, json_is_integer(limit) ?
			 json_integer_value(limit) : -1);
	if (!ans.started)
		finish_terminal(a, t, &ans);
	return sc_acp_respond(a, m->id, json_pack("{s:s}", "terminalId", t->id));
}

static struct terminal *find_terminal(struct acp *a, json_t *params)
{
	const char *id = sc_json_str(params, "terminalId");
	size_t i;

	for (i = 0; id && i < a->nr_terms; i++)
		if (!a->terms[i].released && !strcmp(a->terms[i].id, id))
			return &a->terms[i];
	return NULL;
}

/* Ask the caller to kill running terminal T's command. */
static int kill_command(struct acp *a, struct terminal *t)
{
	struct sc_record r;
	int ret;

	sc_record_init(&r);
	sc_record_adds(&r, "type", "kill");
	sc_record_adds(&r, "id", t->call);
	ret = sc_acp_emit(a, &r);
	sc_record_release(&r);
	return ret;
}

/* terminal/output, wait_for_exit, kill, release. */
int sc_acp_term_serve(struct acp *a, struct sc_rpc_msg *m)
{
	struct terminal *t = find_terminal(a, m->params);
	const char *op = m->method + strlen("terminal/");

	if (!t)
		return sc_acp_respond_error(a, m->id, ACP_NOT_FOUND,
					    "no such terminal");
	if (!strcmp(op, "output") && t->call)
		return sc_acp_respond(a, m->id, json_pack("{s:s, s:b}", "output", "",
						   "truncated", 0));
	if (!strcmp(op, "output"))
		return sc_acp_respond(a, m->id, json_pack("{s:o, s:b, s:o}",
			"output",
			sc_json_string(t->output, t->len, SC_JSON_FFFD),
			"truncated", t->truncated, "exitStatus", exit_status(t)));
	if (!strcmp(op, "wait_for_exit") && t->call) {
		if (t->nr_waiters == MAX_WAITERS)
			return sc_acp_respond_error(a, m->id, SC_RPC_INTERNAL_ERROR,
						    "too many waits for one terminal");
		t->waiters[t->nr_waiters++] = json_incref(m->id);
		return 0;   /* answered when the command ends */
	}
	if (!strcmp(op, "wait_for_exit"))
		return sc_acp_respond(a, m->id, exit_status(t));
	if (!strcmp(op, "kill") || !strcmp(op, "release")) {
		if (t->call && kill_command(a, t) < 0)
			return ENDED;
		if (!strcmp(op, "release")) {
			if (t->call)
				t->released = 1;
			else
				sc_acp_drop_terminal(a, t);
		}
		return sc_acp_respond(a, m->id, NULL);
	}
	return sc_acp_respond_error(a, m->id, SC_RPC_METHOD_NOT_FOUND,
				    "method not found");
}
