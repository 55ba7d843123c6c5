/*
 * The client side of the Agent Client Protocol as a record coprocess.
 *
 * One thread, one conversation: the agent's requests are answered in the
 * order they come, and while the caller decides a call the agent waits
 * (its later messages stay in the pipe).  Every wait for the agent is
 * bounded by the timeout; a wait for the caller is not, because the caller
 * may be asking a person.
 *
 * This file opens the session, serves the caller's records between turns
 * and ends the session; acp-int.h says where the other parts are.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acp-int.h"
#include "alloc.h"
#include "diag.h"
#include "rectable.h"

/* The ACP version spoken: the only one published. */
#define ACP_VERSION 1

/*
 * The exit status of each code that ends a session, as sc-acp(1) lists
 * them.  The one place a status is chosen: every function below
 * sc_acp_run says error[CODE], leaves CODE in a->end and returns ENDED.
 */
static const struct {
	const char *code;
	enum sc_exit status;
} end_status[] = {
	{ "ACP-TIMEOUT", SC_EXIT_NO },
	{ "ACP-EXITED", SC_EXIT_NO },
	{ "ACP-REFUSED", SC_EXIT_NO },
	{ "ACP-PROTOCOL", SC_EXIT_MALFORMED },
	{ "MALFORMED-RECORD", SC_EXIT_MALFORMED },   /* the caller's records */
	{ "RECORD-TOO-LARGE", SC_EXIT_MALFORMED },
	{ "BAD-CWD", SC_EXIT_USAGE },
	{ "ACP-START", SC_EXIT_UNAVAILABLE },
	{ "ACP-VERSION", SC_EXIT_UNAVAILABLE },
	{ "CONFIG-HOME", SC_EXIT_UNAVAILABLE },
	{ "MCP-RELAY", SC_EXIT_UNAVAILABLE },
	{ "READ-FAILED", SC_EXIT_INTERNAL },
	{ "WRITE-FAILED", SC_EXIT_INTERNAL },
};

/* The exit status of a session that ended with CODE (NULL: it did not). */
static int session_exit(const char *code)
{
	if (!code)
		return SC_EXIT_OK;
	for (size_t i = 0; i < sizeof(end_status) / sizeof(end_status[0]); i++)
		if (!strcmp(end_status[i].code, code))
			return end_status[i].status;
	return SC_EXIT_INTERNAL;    /* a code not in the table: fail closed */
}

int sc_acp_emit(struct acp *a, const struct sc_record *r)
{
	/* A coprocess: every record goes out at once, the caller waits on it. */
	if (sc_record_write(&a->out, r) < 0 || sc_output_flush(&a->out) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		a->end = "WRITE-FAILED";
		return ENDED;
	}
	return 0;
}

/*
 * End the session: type=stop for the caller, error[CODE] on stderr, the
 * agent and its process group killed.  TEXT (untrusted, may be NULL) goes
 * only into the record's text field, which the caller masks.
 */
int sc_acp_stop(struct acp *a, const char *code, const char *reason,
		const char *text)
{
	struct sc_record r;

	sc_error(code, "%s", reason);
	sc_record_init(&r);
	sc_record_adds(&r, "type", "stop");
	sc_record_adds(&r, "code", code);
	sc_record_adds(&r, "reason", reason);
	if (text)
		sc_record_adds(&r, "text", text);
	sc_acp_kill_agent(a);
	a->end = code;
	(void)sc_acp_emit(a, &r);   /* a failed write sets its own code */
	sc_record_release(&r);
	return ENDED;
}

int sc_acp_protocol_error(struct acp *a, const char *why)
{
	char reason[256];

	snprintf(reason, sizeof(reason), "malformed message from the agent: %s",
		 why);
	return sc_acp_stop(a, "ACP-PROTOCOL", reason, NULL);
}

static int initialize(struct acp *a)
{
	struct sc_rpc_msg m;
	json_t *params, *v;
	struct sc_record r;
	const char *name, *version;
	int ret;

	params = json_pack("{s:i, s:{s:{s:b, s:b}, s:b}, s:{s:s, s:s}}",
			   "protocolVersion", ACP_VERSION,
			   "clientCapabilities", "fs", "readTextFile", 1,
			   "writeTextFile", 1, "terminal", 1,
			   "clientInfo", "name", "speccoder", "version",
			   SC_VERSION);
	if (sc_acp_call_agent(a, "initialize", params, &m) < 0)
		return ENDED;
	v = json_object_get(m.result, "protocolVersion");
	if (!json_is_integer(v) || json_integer_value(v) != ACP_VERSION) {
		sc_rpc_msg_release(&m);
		return sc_acp_stop(a, "ACP-VERSION",
				   "the agent does not speak ACP version 1", NULL);
	}
	v = json_object_get(m.result, "agentInfo");
	name = json_string_value(json_object_get(v, "name"));
	version = json_string_value(json_object_get(v, "version"));
	sc_record_init(&r);
	sc_record_adds(&r, "type", "agent");
	sc_record_adds(&r, "name", name ? name : "");
	sc_record_adds(&r, "version", version ? version : "");
	ret = sc_acp_emit(a, &r);
	sc_record_release(&r);
	sc_rpc_msg_release(&m);
	return ret;
}

static int new_session(struct acp *a)
{
	struct sc_rpc_msg m;
	json_t *params;
	const char *id;
	int ret;

	/*
	 * The agent gets no MCP server of its own: only speccoder's relays
	 * (acpmcp.h), each a pipe to sc-acp, never a server's command.
	 */
	params = json_pack("{s:s, s:o}", "cwd", a->cwd, "mcpServers",
			   a->o->nmcp ? sc_acpmcp_servers(&a->mcp, a->relay) :
			   json_array());
	if (sc_acp_call_agent(a, "session/new", params, &m) < 0)
		return ENDED;
	id = json_string_value(json_object_get(m.result, "sessionId"));
	if (!id || !*id) {
		sc_rpc_msg_release(&m);
		return sc_acp_protocol_error(a, "session/new gave no sessionId");
	}
	a->session = sc_xstrdup(id);
	ret = sc_acp_choose_mode(a, json_object_get(m.result, "modes"),
				 json_object_get(m.result, "configOptions"));
	sc_rpc_msg_release(&m);
	return ret;
}

static int serve(struct acp *a)
{
	const struct sc_field *text;
	const char *type;
	int st;

	while ((st = sc_acp_next_caller(a)) > 0) {
		type = sc_acp_rec_type(a);
		if (!strcmp(type, "prompt")) {
			text = sc_record_get(&a->rec, "text");
			if (!text) {
				sc_warning("NO-TEXT", "a prompt without text was "
					   "ignored");
				continue;
			}
			if (a->agent_gone)
				return sc_acp_stop(a, "ACP-EXITED", "the agent "
						   "was stopped: it did not end a "
						   "cancelled turn", NULL);
			if (sc_acp_turn(a, text) < 0)
				return ENDED;
		} else if (!strcmp(type, "result")) {
			/* A command the agent left running ends here. */
			size_t before = a->nr_terms;

			a->queue[a->nq++] = a->rec;
			sc_record_init(&a->rec);
			sc_acp_settle_terminals(a);
			if (a->end)
				return ENDED;
			if (a->nq && before == a->nr_terms &&
			    sc_acp_answers(&a->queue[a->nq - 1],
					   sc_record_str(&a->queue[a->nq - 1], "id"))) {
				sc_warning("UNEXPECTED-RESULT", "a result for no "
					   "open call was ignored");
				sc_acp_take_queued(a, a->nq - 1);
			}
		}
		else if (!strcmp(type, "tool"))
			sc_acp_mcp_tool_record(a, &a->rec);
		/* cancel outside a turn, and other types: nothing to do */
	}
	if (st < 0)
		return ENDED;
	sc_acp_shutdown_agent(a);
	return 0;
}

static void acp_release(struct acp *a)
{
	while (a->nr_terms)
		sc_acp_drop_terminal(a, &a->terms[0]);
	while (a->nq)
		sc_record_release(&a->queue[--a->nq]);
	sc_acp_kill_agent(a);
	if (a->rpc.in_fd > 0)
		close(a->rpc.in_fd);
	if (a->rpc.out_fd > 0)
		close(a->rpc.out_fd);
	sc_rpc_release(&a->rpc);
	sc_record_release(&a->rec);
	sc_output_release(&a->out);
	sc_buf_release(&a->settings);
	sc_acptrack_release(&a->track);
	sc_acpmcp_release(&a->mcp);
	free(a->session);
	free(a->mode);
	free(a->mode_option);
}

/*
 * The relay the agent is given: the sc-mcp installed beside this program,
 * by absolute path, so nothing the agent's PATH holds is run for it.
 */
static char *relay_program(void)
{
	char *self = realpath("/proc/self/exe", NULL), *slash, *path;

	if (!self || !(slash = strrchr(self, '/'))) {
		free(self);
		return NULL;
	}
	*slash = '\0';
	path = sc_xmalloc(strlen(self) + sizeof("/sc-mcp"));
	strcpy(path, self);
	strcat(path, "/sc-mcp");
	free(self);
	if (access(path, X_OK) < 0) {
		free(path);
		return NULL;
	}
	return path;
}

/*
 * The session in A (its root, home and relay set): the code it ended
 * with, or NULL when the caller's input ended and the agent was stopped.
 */
static const char *session(struct acp *a, int in_fd, int out_fd)
{
	const struct sc_acp_opts *o = a->o;

	a->rpc.in_fd = a->rpc.out_fd = -1;
	sc_input_init_fd(&a->in, in_fd);
	sc_output_init_records(&a->out, out_fd, o->force_records);
	sc_input_set_idle(&a->in, sc_output_idle, &a->out);
	sc_reader_init(&a->rd, &a->in);
	sc_record_init(&a->rec);
	/*
	 * The baseline is the empty directory sc_agenthome_create made: a
	 * settings file the agent writes even while starting is a change.
	 */
	sc_acpmcp_init(&a->mcp);
	/* The sockets first: the baseline holds their directory. */
	if (o->nmcp && sc_acpmcp_open(&a->mcp, a->home->dir, o->mcp, o->nmcp) < 0)
		return "MCP-RELAY";
	if (a->home)
		sc_agenthome_snapshot(a->home->dir, &a->settings);
	/* A dead agent's pipe must give EPIPE, not kill sc-acp. */
	signal(SIGPIPE, SIG_IGN);
	if (sc_acp_start_agent(a) < 0) {
		struct sc_record r;

		sc_record_init(&r);
		sc_record_adds(&r, "type", "stop");
		sc_record_adds(&r, "code", "ACP-START");
		sc_record_adds(&r, "reason", "the agent could not be started");
		a->end = "ACP-START";
		(void)sc_acp_emit(a, &r);
		sc_record_release(&r);
		return a->end;
	}
	if (initialize(a) < 0 || (o->nmcp && sc_acp_mcp_first_tools(a) < 0) ||
	    new_session(a) < 0 || sc_acp_check_settings(a, 1) < 0 || serve(a) < 0)
		return a->end;
	return NULL;
}

int sc_acp_run(const struct sc_acp_opts *o, int in_fd, int out_fd)
{
	struct sc_agenthome home;
	struct acp a;
	char *root = NULL, *relay = NULL;
	const char *end = NULL;

	memset(&a, 0, sizeof(a));
	a.o = o;
	sc_agenthome_init(&home);
	if (o->nmcp && !(relay = relay_program())) {
		sc_error("MCP-RELAY", "cannot find sc-mcp beside sc-acp");
		end = "MCP-RELAY";
	} else if (!(root = realpath(o->cwd, NULL))) {
		sc_error_errno("BAD-CWD", "cannot resolve '%s'", o->cwd);
		end = "BAD-CWD";
	} else if (o->config_home &&
		   sc_agenthome_create(&home, o->config_home) < 0) {
		end = "CONFIG-HOME";
	} else {
		a.cwd = root;
		a.home = o->config_home ? &home : NULL;
		a.relay = relay;
		end = session(&a, in_fd, out_fd);
		acp_release(&a);
	}
	sc_agenthome_release(&home);
	free(relay);
	free(root);
	return session_exit(end);
}
