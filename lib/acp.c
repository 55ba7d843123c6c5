/*
 * The client side of the Agent Client Protocol as a record coprocess.
 *
 * One thread, one conversation: the agent's requests are answered in the
 * order they come, and while the caller decides a call the agent waits
 * (its later messages stay in the pipe).  Every wait for the agent is
 * bounded by the timeout; a wait for the caller is not, because the caller
 * may be asking a person.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acp.h"
#include "acpcall.h"
#include "acpmcp.h"
#include "acptrack.h"
#include "alloc.h"
#include "diag.h"
#include "env.h"
#include "io.h"
#include "jsonrpc.h"
#include "opt.h"
#include "process.h"
#include "record.h"
#include "rectable.h"

extern char **environ;

/* The ACP version spoken: the only one published. */
#define ACP_VERSION 1

/* JSON-RPC error code of a request speccoder refused (documented). */
#define ACP_DENIED (-32001)

/*
 * Terminals an agent may hold unreleased: each keeps a command's output in
 * memory, so a looping agent cannot grow sc-acp without bound.
 */
#define MAX_TERMINALS 64

/*
 * Caller records read during a turn and kept for later (results ahead of
 * their call, the next prompt).  When it is full sc-acp stops reading the
 * caller, so a caller writing ahead is slowed, never dropped.
 */
#define QUEUE_MAX 64

/* The shortest time between two looks at the settings during a turn. */
#define SETTINGS_MS 250

/* How long a clean shutdown waits for the agent before killing it. */
#define SHUTDOWN_MS 3000

/*
 * How long a stop waits for the agent to end its turn after session/cancel
 * (documented in sc-acp(1)): long enough for an agent to stop its tools
 * and answer, short enough that a stopped run ends promptly.
 */
#define CANCEL_MS 5000

/*
 * The largest file text an fs/write_text_file may carry: it travels to the
 * caller in one record (sc-record(5) caps a record at 16 MiB), with room
 * for the other fields.
 */
#define WRITE_MAX (SC_RECORD_MAX - ((size_t)64 << 10))

/* JSON-RPC error code of a resource that does not exist (ACP). */
#define ACP_NOT_FOUND (-32002)

/* wait_for_exit requests one running terminal may hold unanswered. */
#define MAX_WAITERS 8

struct terminal {
	char *id;
	char *call;            /* the caller's call id while it runs, or NULL */
	json_int_t limit;      /* outputByteLimit; -1 when none */
	int released;          /* released while running: dropped at its end */
	json_t *waiters[MAX_WAITERS]; /* wait_for_exit ids to answer at the end */
	size_t nr_waiters;
	char *output;
	size_t len;
	int truncated;
	int exit_code;         /* -1 when it ended by a signal */
	char *signal;          /* NULL unless it ended by a signal */
};

struct acp {
	const struct sc_acp_opts *o;
	struct sc_rpc rpc;
	pid_t pid;
	struct sc_input in;
	struct sc_reader rd;
	struct sc_output out;
	struct sc_record rec;       /* the caller's record being handled */
	struct sc_record queue[QUEUE_MAX]; /* read ahead during a turn */
	size_t nq;
	char *session;
	char *mode;                 /* the agent's current mode, or NULL */
	char *mode_option;          /* the configOptions id of the mode, or NULL */
	struct sc_acptrack track;   /* the agent's tool calls, by id */
	struct terminal terms[MAX_TERMINALS];
	size_t nr_terms;
	unsigned long next_term, next_call;
	struct sc_buf settings;     /* snapshot of the private settings */
	long long settings_at;      /* when it was taken (monotonic ms) */
	long long prompt_id;        /* the open turn's request, 0 when none */
	int cancelled;              /* the open turn was cancelled */
	long long cancel_deadline;  /* when a cancelled turn is ended for it */
	int agent_gone;             /* killed after a cancel went unheeded */
	int caller_eof;
	int status;                 /* the exit status once the session ended */
	struct sc_acpmcp mcp;       /* the MCP servers the agent gets */
};

/* Returned by the steps below when the session has ended (status set). */
#define ENDED (-1)

/* ------------------------------------------------------------------ */
/* As sc_json_str, "" instead of NULL: for comparisons. */
static const char *str_or_empty(json_t *obj, const char *name)
{
	const char *s = sc_json_str(obj, name);

	return s ? s : "";
}

/* ------------------------------------------------------------------ */
/* Records to the caller                                               */

static int emit(struct acp *a, const struct sc_record *r)
{
	/* A coprocess: every record goes out at once, the caller waits on it. */
	if (sc_record_write(&a->out, r) < 0 || sc_output_flush(&a->out) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		a->status = SC_EXIT_INTERNAL;
		return ENDED;
	}
	return 0;
}

static void kill_agent(struct acp *a);

/*
 * End the session: type=stop for the caller, error[CODE] on stderr, the
 * agent and its process group killed.  TEXT (untrusted, may be NULL) goes
 * only into the record's text field, which the caller masks.
 */
static int stop(struct acp *a, const char *code, int status,
		const char *reason, const char *text)
{
	struct sc_record r;

	sc_error(code, "%s", reason);
	sc_record_init(&r);
	sc_record_adds(&r, "type", "stop");
	sc_record_adds(&r, "code", code);
	sc_record_adds(&r, "reason", reason);
	if (text)
		sc_record_adds(&r, "text", text);
	kill_agent(a);
	a->status = status;
	(void)emit(a, &r);   /* a failed write sets its own status */
	sc_record_release(&r);
	return ENDED;
}

static int protocol_error(struct acp *a, const char *why)
{
	char reason[256];

	snprintf(reason, sizeof(reason), "malformed message from the agent: %s",
		 why);
	return stop(a, "ACP-PROTOCOL", SC_EXIT_MALFORMED, reason, NULL);
}

/* ------------------------------------------------------------------ */
/* The agent's process                                                 */

/* ENV without the names VARS set, then VARS: a NULL-terminated copy. */
static char **env_with(char **env, char *const *vars)
{
	size_t n = 0, i, k, len;
	char **out;

	while (env[n])
		n++;
	for (k = 0; vars && vars[k]; k++)
		n++;
	out = sc_xcalloc(n + 1, sizeof(*out));
	n = 0;
	for (i = 0; env[i]; i++) {
		int shadowed = 0;

		for (k = 0; vars && vars[k]; k++) {
			len = (size_t)(strchr(vars[k], '=') - vars[k]) + 1;
			if (!strncmp(env[i], vars[k], len))
				shadowed = 1;
		}
		if (!shadowed)
			out[n++] = env[i];
	}
	for (k = 0; vars && vars[k]; k++)
		out[n++] = vars[k];
	return out;
}

/*
 * In the child: a session of its own (so the process group holds
 * everything it starts), the pipes on 0 and 1, every other inherited
 * descriptor but stderr closed on exec, then the agent.
 */
static _Noreturn void exec_agent(const struct sc_acp_opts *o, int in, int out,
				 int report, char **env)
{
	int err;

	if (setsid() < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
	    chdir(o->cwd) < 0)
		goto fail;
	/* Descriptors the caller leaked must not reach the agent. */
	(void)syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */);
	execvpe(o->argv[0], o->argv, env);
fail:
	err = errno;
	(void)!write(report, &err, sizeof(err));
	_exit(127);
}

static int start_agent(struct acp *a)
{
	int to[2], from[2], rep[2], err;
	ssize_t n;
	char **base, **env;

	if (pipe2(to, O_CLOEXEC) < 0 || pipe2(from, O_CLOEXEC) < 0 ||
	    pipe2(rep, O_CLOEXEC) < 0)
		return sc_error_errno("ACP-START", "cannot make pipes");
	base = sc_env_build(environ, SC_ENV_SHORT, a->o->keep, a->o->nkeep, NULL);
	env = env_with(base, a->o->home ? a->o->home->vars : NULL);
	a->pid = fork();
	if (a->pid == 0)
		exec_agent(a->o, to[0], from[1], rep[1], env);
	free(env);
	sc_env_free(base);
	close(to[0]);
	close(from[1]);
	close(rep[1]);
	if (a->pid < 0) {
		close(rep[0]);
		return sc_error_errno("ACP-START", "cannot fork");
	}
	sc_kill_group_on_fatal_signal(a->pid);
	do
		n = read(rep[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(rep[0]);
	sc_rpc_init(&a->rpc, from[0], to[1]);
	if (n == sizeof(err)) {
		errno = err;
		return sc_error_errno("ACP-START", "cannot start '%s'",
				      a->o->argv[0]);
	}
	return 0;
}

/*
 * Kill the agent's whole process group, then reap the leader.  The group
 * is killed while the leader is still unreaped, so its id cannot have been
 * reused by an unrelated group.
 */
static void kill_agent(struct acp *a)
{
	if (a->pid <= 0)
		return;
	(void)kill(-a->pid, SIGKILL);
	(void)kill(a->pid, SIGKILL);
	while (waitpid(a->pid, NULL, 0) < 0 && errno == EINTR)
		;
	sc_kill_group_on_fatal_signal(0);
	a->pid = 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Wait up to MS for the leader to exit (left unreaped): 1 when it did. */
static int wait_exit(pid_t pid, long ms)
{
	siginfo_t si;

	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0
		    && si.si_pid == pid)
			return 1;
		if (ms <= 0)
			return 0;
		sleep_ms(ms < 50 ? ms : 50);
		ms -= 50;
	}
}

/* The caller is done: let the agent end on EOF, then clear its group. */
static void shutdown_agent(struct acp *a)
{
	if (a->pid <= 0)
		return;
	close(a->rpc.out_fd);
	a->rpc.out_fd = -1;
	if (!wait_exit(a->pid, SHUTDOWN_MS)) {
		(void)kill(-a->pid, SIGTERM);
		(void)wait_exit(a->pid, 1000);
	}
	kill_agent(a);
}

/* How the agent ended, for a reason text, once its output closed. */
static void describe_exit(struct acp *a, char *buf, size_t size)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	snprintf(buf, size, "the agent closed its output");
	if (!wait_exit(a->pid, 1000))
		return;
	if (waitid(P_PID, (id_t)a->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return;
	if (si.si_code == CLD_EXITED)
		snprintf(buf, size, "the agent exited with status %d",
			 si.si_status);
	else
		snprintf(buf, size, "the agent was killed by signal %d",
			 si.si_status);
}

/* ------------------------------------------------------------------ */
/* Reading the agent                                                   */

/* Map an sc_rpc_status other than SC_RPC_MSG to the end of the session. */
static int read_failed(struct acp *a, int st)
{
	char reason[128];

	switch (st) {
	case SC_RPC_TIMEOUT:
		snprintf(reason, sizeof(reason), "the agent said nothing for %d "
			 "seconds", a->o->timeout_ms / 1000);
		return stop(a, "ACP-TIMEOUT", SC_EXIT_NO, reason, NULL);
	case SC_RPC_TOO_LONG:
		return protocol_error(a, "a line longer than the limit");
	case SC_RPC_MALFORMED:
		return protocol_error(a, a->rpc.why ? a->rpc.why : "bad JSON-RPC");
	case SC_RPC_IO:
		return stop(a, "ACP-EXITED", SC_EXIT_NO,
			    "cannot read from the agent", NULL);
	default:
		describe_exit(a, reason, sizeof(reason));
		return stop(a, "ACP-EXITED", SC_EXIT_NO, reason, NULL);
	}
}

/* A send to the agent failed: it stopped reading or it is gone. */
static int send_failed(struct acp *a, int st)
{
	char reason[128];

	if (st == SC_RPC_TIMEOUT) {
		snprintf(reason, sizeof(reason), "the agent took nothing for %d "
			 "seconds", a->o->timeout_ms / 1000);
		return stop(a, "ACP-TIMEOUT", SC_EXIT_NO, reason, NULL);
	}
	describe_exit(a, reason, sizeof(reason));
	return stop(a, "ACP-EXITED", SC_EXIT_NO, reason, NULL);
}

static int respond(struct acp *a, json_t *id, json_t *result)
{
	int st = sc_rpc_respond(&a->rpc, id, result, a->o->timeout_ms);

	return st ? send_failed(a, st) : 0;
}

static int respond_error(struct acp *a, json_t *id, int code, const char *msg)
{
	int st = sc_rpc_respond_error(&a->rpc, id, code, msg, a->o->timeout_ms);

	return st ? send_failed(a, st) : 0;
}

/*
 * Send a request and wait for its response, answering nothing else: used
 * before the session exists, when the agent has no business asking.
 */
static int read_agent(struct acp *a, struct sc_rpc_msg *m);

static int call_agent(struct acp *a, const char *method, json_t *params,
		      struct sc_rpc_msg *m)
{
	long long id;
	int st = sc_rpc_request(&a->rpc, method, params, a->o->timeout_ms, &id);

	if (st)
		return send_failed(a, st);
	for (;;) {
		st = read_agent(a, m);
		if (st != SC_RPC_MSG)
			return read_failed(a, st);
		if (m->kind == SC_RPC_REQUEST) {
			st = respond_error(a, m->id, SC_RPC_METHOD_NOT_FOUND,
					   "no session yet");
			sc_rpc_msg_release(m);
			if (st)
				return st;
			continue;
		}
		if (m->kind == SC_RPC_NOTIFICATION) {
			sc_rpc_msg_release(m);
			continue;
		}
		if (!json_is_integer(m->id) || json_integer_value(m->id) != id) {
			sc_rpc_msg_release(m);
			return protocol_error(a, "a response to no request of ours");
		}
		if (m->kind == SC_RPC_ERROR) {
			char reason[160];

			snprintf(reason, sizeof(reason), "the agent refused %s "
				 "(error %lld)", method, m->error_code);
			st = stop(a, "ACP-REFUSED", SC_EXIT_NO, reason,
				  m->error_message);
			sc_rpc_msg_release(m);
			return st;
		}
		if (!json_is_object(m->result)) {
			sc_rpc_msg_release(m);
			return protocol_error(a, "a result that is not an object");
		}
		return 0;
	}
}

/* ------------------------------------------------------------------ */
/* Modes                                                               */

static void fold_mode(const char *id, char *out, size_t size)
{
	size_t n = 0;

	for (; *id && n + 1 < size; id++) {
		if (*id == '-' || *id == '_' || *id == ' ')
			continue;
		out[n++] = (char)(*id >= 'A' && *id <= 'Z' ? *id + 32 : *id);
	}
	out[n] = '\0';
}

/*
 * Modes that ask before edits and commands, in the order sc-acp prefers
 * them: Claude Code and Gemini CLI "default", Codex "read-only", and
 * common names of the same idea.  "plan" asks too but cannot do the work.
 */
static const char *const ask_modes[] = {
	"default", "ask", "readonly", "untrusted", "onrequest", "manual",
	"plan", NULL,
};

int sc_acp_mode_asks(const char *id)
{
	char f[64];
	size_t i;

	if (!id || strlen(id) >= sizeof(f))
		return 0;
	fold_mode(id, f, sizeof(f));
	for (i = 0; ask_modes[i]; i++)
		if (!strcmp(f, ask_modes[i]))
			return 1;
	return 0;
}

static int emit_mode(struct acp *a, const char *reason)
{
	struct sc_record r;
	int ret, asks = a->mode && sc_acp_mode_asks(a->mode);

	if (!strcmp(reason, "settings-changed"))
		asks = 0;
	sc_record_init(&r);
	sc_record_adds(&r, "type", "mode");
	sc_record_adds(&r, "id", a->mode ? a->mode : "");
	sc_record_adds(&r, "decides-alone", asks ? "0" : "1");
	sc_record_adds(&r, "reason", reason);
	ret = emit(a, &r);
	sc_record_release(&r);
	return ret;
}

static void set_mode_id(struct acp *a, const char *id)
{
	free(a->mode);
	a->mode = id ? sc_xstrdup(id) : NULL;
}

static int is_plan(const char *id)
{
	char f[64];

	fold_mode(id, f, sizeof(f));
	return !strcmp(f, "plan");
}

/* The first ask-first mode AVAILABLE offers (preferring ask_modes' order). */
static const char *pick_ask_mode(json_t *available)
{
	size_t i, k;
	char f[64];
	json_t *m;

	for (k = 0; ask_modes[k]; k++) {
		if (!strcmp(ask_modes[k], "plan"))
			break;      /* a plan mode cannot do the task */
		json_array_foreach(available, i, m) {
			const char *id = json_string_value(json_object_get(m, "id"));

			if (!id || strlen(id) >= sizeof(f))
				continue;
			fold_mode(id, f, sizeof(f));
			if (!strcmp(f, ask_modes[k]))
				return id;
		}
	}
	return NULL;
}

static const char *config_mode(struct acp *a, json_t *options);

/* The values the mode option among OPTIONS offers, as [{"id": VALUE}]. */
static json_t *config_mode_values(const struct acp *a, json_t *options)
{
	json_t *out = json_array(), *o, *v, *g;
	size_t i, k, j;

	json_array_foreach(options, i, o) {
		if (!a->mode_option || strcmp(str_or_empty(o, "id"), a->mode_option))
			continue;
		json_array_foreach(json_object_get(o, "options"), k, v) {
			/* A select lists values, or groups of them. */
			if (sc_json_str(v, "value"))
				json_array_append_new(out, json_pack("{s:s}", "id",
					sc_json_str(v, "value")));
			json_array_foreach(json_object_get(v, "options"), j, g)
				if (sc_json_str(g, "value"))
					json_array_append_new(out, json_pack(
						"{s:s}", "id", sc_json_str(g, "value")));
		}
	}
	return out;
}

/*
 * Put the agent in an ask-first mode when it has modes, reported as ACP's
 * session modes or as a session configuration option of category "mode";
 * report the mode.
 */
static int choose_mode(struct acp *a, json_t *modes, json_t *options)
{
	const char *current = json_string_value(json_object_get(modes,
								"currentModeId"));
	json_t *available = json_object_get(modes, "availableModes");
	const char *cfg = config_mode(a, options);
	const char *want;
	struct sc_rpc_msg m;
	json_t *params, *values = NULL;
	int by_option = 0;

	if (!current || !json_is_object(modes)) {
		current = cfg;
		by_option = cfg != NULL;
	}
	if (!current)
		return emit_mode(a, "no-modes");
	set_mode_id(a, current);
	if (sc_acp_mode_asks(current) && !is_plan(current))
		return emit_mode(a, "ask-first");
	if (by_option)
		available = values = config_mode_values(a, options);
	want = json_is_array(available) ? pick_ask_mode(available) : NULL;
	if (!want) {
		json_decref(values);
		return emit_mode(a, sc_acp_mode_asks(current) ? "ask-first"
							      : "no-ask-mode");
	}
	want = sc_xstrdup(want);
	json_decref(values);
	params = by_option ?
		json_pack("{s:s, s:s, s:s}", "sessionId", a->session, "configId",
			  a->mode_option, "value", want) :
		json_pack("{s:s, s:s}", "sessionId", a->session, "modeId", want);
	if (call_agent(a, by_option ? "session/set_config_option" :
		       "session/set_mode", params, &m) < 0) {
		free((char *)want);
		return ENDED;
	}
	sc_rpc_msg_release(&m);
	set_mode_id(a, want);
	free((char *)want);
	return emit_mode(a, "ask-first");
}

/*
 * Report a change of the private settings since the last look.  A walk
 * costs a directory scan, and agents send a message per word: during a
 * turn it runs at most every SETTINGS_MS, and always (FORCE) before a call
 * is written and when a turn ends, so a change is reported before the
 * caller decides anything that follows it.
 */
static int check_settings(struct acp *a, int force)
{
	struct sc_buf now = SC_BUF_INIT;
	long long t;
	int ret = 0;

	if (!a->o->home)
		return 0;
	t = sc_rpc_now_ms();
	if (!force && t - a->settings_at < SETTINGS_MS)
		return 0;
	a->settings_at = t;
	sc_agenthome_snapshot(a->o->home->dir, &now);
	if (now.len != a->settings.len ||
	    (now.len && memcmp(now.data, a->settings.data, now.len))) {
		ret = emit_mode(a, "settings-changed");
		sc_buf_release(&a->settings);
		a->settings = now;
		return ret;
	}
	sc_buf_release(&now);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Opening the session                                                 */

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
	if (call_agent(a, "initialize", params, &m) < 0)
		return ENDED;
	v = json_object_get(m.result, "protocolVersion");
	if (!json_is_integer(v) || json_integer_value(v) != ACP_VERSION) {
		sc_rpc_msg_release(&m);
		return stop(a, "ACP-VERSION", SC_EXIT_UNAVAILABLE,
			    "the agent does not speak ACP version 1", NULL);
	}
	v = json_object_get(m.result, "agentInfo");
	name = json_string_value(json_object_get(v, "name"));
	version = json_string_value(json_object_get(v, "version"));
	sc_record_init(&r);
	sc_record_adds(&r, "type", "agent");
	sc_record_adds(&r, "name", name ? name : "");
	sc_record_adds(&r, "version", version ? version : "");
	ret = emit(a, &r);
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
	params = json_pack("{s:s, s:o}", "cwd", a->o->cwd, "mcpServers",
			   a->o->nmcp ? sc_acpmcp_servers(&a->mcp, a->o->relay) :
			   json_array());
	if (call_agent(a, "session/new", params, &m) < 0)
		return ENDED;
	id = json_string_value(json_object_get(m.result, "sessionId"));
	if (!id || !*id) {
		sc_rpc_msg_release(&m);
		return protocol_error(a, "session/new gave no sessionId");
	}
	a->session = sc_xstrdup(id);
	ret = choose_mode(a, json_object_get(m.result, "modes"),
			  json_object_get(m.result, "configOptions"));
	sc_rpc_msg_release(&m);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Calls for the caller                                                */

struct answer {
	int allow;
	int started;           /* type=started: a command began, no result yet */
	int missing;           /* error=not-found: the resource does not exist */
	int truncated;         /* truncated=1: the caller cut the text */
	const char *text;      /* in a->rec; "" when absent */
	size_t text_len;
	const char *status;    /* NULL when absent */
	const char *signal;
};

/* Start call record R for TOOL with the session's next call id. */
static void call_start(struct acp *a, struct sc_record *r, const char *tool)
{
	sc_acp_call_start(r, ++a->next_call, tool);
}

static int cancel_turn(struct acp *a);
static int refuse_cancelled(struct acp *a, struct sc_rpc_msg *m);
static void settle_terminals(struct acp *a);

/* The type of the caller's record; "" for none. */
static const char *rec_type(const struct acp *a)
{
	const char *type = sc_record_type(&a->rec);

	return type ? type : "";
}

/* Move queued record I into a->rec. */
static void take_queued(struct acp *a, size_t i)
{
	sc_record_release(&a->rec);
	a->rec = a->queue[i];
	memmove(a->queue + i, a->queue + i + 1,
		(a->nq - i - 1) * sizeof(a->queue[0]));
	a->nq--;
}

/* 1 when queued record Q answers call ID: a result, or a command started. */
static int answers(const struct sc_record *q, const char *id)
{
	const char *type = sc_record_type(q), *rid = sc_record_str(q, "id");

	return type && rid && !strcmp(rid, id) &&
	       (!strcmp(type, "result") || !strcmp(type, "started"));
}

/* The queued answer for call ID, moved into a->rec: 1, or 0 when none. */
static int take_result(struct acp *a, const char *id)
{
	size_t i;

	for (i = 0; i < a->nq; i++)
		if (answers(&a->queue[i], id)) {
			take_queued(a, i);
			return 1;
		}
	return 0;
}

static int pull_caller(struct acp *a);

/* ANS from the caller's record in a->rec. */
static void read_answer(struct acp *a, struct answer *ans)
{
	const char *decision = sc_record_str(&a->rec, "decision");
	const char *error = sc_record_str(&a->rec, "error");
	const char *trunc = sc_record_str(&a->rec, "truncated");
	const struct sc_field *text = sc_record_get(&a->rec, "text");

	memset(ans, 0, sizeof(*ans));
	ans->started = !strcmp(rec_type(a), "started");
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
static int await_result(struct acp *a, const char *id, struct answer *ans)
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
			return cancel_turn(a) < 0 ? ENDED : 0;
		}
		if ((st = pull_caller(a)) < 0)
			return st;
		settle_terminals(a);
		if (a->status)
			return ENDED;
	}
	read_answer(a, ans);
	return 1;
}

/* Emit call R (released here); its id into ID. */
static int send_call(struct acp *a, struct sc_record *r, char id[32])
{
	int st;

	sc_record_adds(r, "source", "executor");
	snprintf(id, 32, "%s", sc_record_str(r, "id"));
	st = check_settings(a, 1);
	if (st == 0)
		st = emit(a, r);
	sc_record_release(r);
	return st;
}

/* Emit call R (released here) and wait for its answer. */
static int ask(struct acp *a, struct sc_record *r, struct answer *ans)
{
	char id[32];

	return send_call(a, r, id) < 0 ? ENDED : await_result(a, id, ans);
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
static int deny(struct acp *a, json_t *id, const struct answer *ans)
{
	struct sc_buf msg = SC_BUF_INIT;
	int ret;

	sc_buf_adds(&msg, ans && ans->missing ? "not found" :
		    "denied by speccoder");
	if (ans && ans->text_len) {
		sc_buf_adds(&msg, ": ");
		sc_buf_add(&msg, ans->text, ans->text_len);
	}
	ret = respond_error(a, id, ans && ans->missing ? ACP_NOT_FOUND :
			    ACP_DENIED, msg.data);
	sc_buf_release(&msg);
	return ret;
}

/* ACP paths are absolute: a relative one is refused, never guessed at. */
static int relative_path(struct acp *a, json_t *id, const char *path)
{
	return respond_error(a, id, SC_RPC_INVALID_PARAMS, path && *path ?
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
	return sc_json_string_lossy(text + start, end - start);
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
		return respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
				     "line or limit is not an integer");
	if (!path || *path != '/')
		return relative_path(a, m->id, path);
	if (a->cancelled)
		return refuse_cancelled(a, m);
	call_start(a, &r, "read");
	sc_acp_add_path(&r, a->o->cwd, "path", path);
	if ((st = ask(a, &r, &ans)) <= 0)
		return st < 0 ? st : refuse_cancelled(a, m);
	if (!ans.allow)
		return deny(a, m->id, &ans);
	return respond(a, m->id, json_pack("{s:o}", "content",
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
		return respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
				     "content is missing");
	if (!path || *path != '/')
		return relative_path(a, m->id, path);
	if (json_string_length(content) > WRITE_MAX) {
		/* Said plainly, and the session goes on: the agent can split it. */
		snprintf(msg, sizeof(msg), "the text is larger than the %zu "
			 "bytes a write may carry", WRITE_MAX);
		sc_warning("TOO-LARGE", "an fs/write_text_file of %zu bytes was "
			   "refused: %s", json_string_length(content), msg);
		return respond_error(a, m->id, SC_RPC_INVALID_PARAMS, msg);
	}
	if (a->cancelled)
		return refuse_cancelled(a, m);
	call_start(a, &r, "write");
	sc_acp_add_path(&r, a->o->cwd, "path", path);
	sc_record_add(&r, "content", json_string_value(content),
		      json_string_length(content));
	if ((st = ask(a, &r, &ans)) <= 0)
		return st < 0 ? st : refuse_cancelled(a, m);
	return ans.allow ? respond(a, m->id, NULL) : deny(a, m->id, &ans);
}

/* ---- terminals ------------------------------------------------------ */

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

static void drop_terminal(struct acp *a, struct terminal *t)
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
	for (i = 0; i < t->nr_waiters && !a->status; i++)
		(void)respond(a, t->waiters[i], exit_status(t));
	for (i = 0; i < t->nr_waiters; i++)
		json_decref(t->waiters[i]);
	t->nr_waiters = 0;
	if (t->released)
		drop_terminal(a, t);
}

/*
 * Results the caller sent for running commands, wherever they wait in
 * the queue: their terminals end, and the agent's wait_for_exit requests
 * are answered.
 */
static void settle_terminals(struct acp *a)
{
	struct answer ans;
	size_t i, k;

	for (i = 0; i < a->nr_terms && !a->status; i++) {
		struct terminal *t = &a->terms[i];

		if (!t->call)
			continue;
		for (k = 0; k < a->nq; k++) {
			const char *type = sc_record_type(&a->queue[k]);
			const char *rid = sc_record_str(&a->queue[k], "id");

			if (type && rid && !strcmp(type, "result") &&
			    !strcmp(rid, t->call)) {
				take_queued(a, k);
				read_answer(a, &ans);
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
static int term_create(struct acp *a, struct sc_rpc_msg *m)
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
		return respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
				     "command, args or outputByteLimit is wrong");
	json_array_foreach(args, i, v)
		if (!json_is_string(v))
			return respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
					     "an argument is not a string");
	if (cwd && *cwd != '/')
		return relative_path(a, m->id, cwd);
	if (a->nr_terms == MAX_TERMINALS)
		return respond_error(a, m->id, SC_RPC_INTERNAL_ERROR,
				     "too many terminals: release some");
	if (a->cancelled)
		return refuse_cancelled(a, m);
	call_start(a, &r, "run");
	if (json_array_size(args)) {
		sc_record_adds(&r, "argv", command);
		json_array_foreach(args, i, v)
			sc_record_add(&r, "argv", json_string_value(v),
				      json_string_length(v));
	} else {
		sc_record_adds(&r, "shell", command);
	}
	if (cwd)
		sc_acp_add_path(&r, a->o->cwd, "cwd", cwd);
	/* The agent's env is not passed: the sandbox sets the environment. */
	if (json_object_size(env) || json_array_size(env))
		sc_record_adds(&r, "env-dropped", "1");
	sc_record_adds(&r, "terminal", "1");
	if (send_call(a, &r, id) < 0)
		return ENDED;
	if ((st = await_result(a, id, &ans)) <= 0)
		return st < 0 ? st : refuse_cancelled(a, m);
	if (!ans.allow)
		return deny(a, m->id, &ans);
	t = add_terminal(a, id, json_is_integer(limit) ?
			 json_integer_value(limit) : -1);
	if (!ans.started)
		finish_terminal(a, t, &ans);
	return respond(a, m->id, json_pack("{s:s}", "terminalId", t->id));
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
	ret = emit(a, &r);
	sc_record_release(&r);
	return ret;
}

/* terminal/output, wait_for_exit, kill, release. */
static int term_serve(struct acp *a, struct sc_rpc_msg *m)
{
	struct terminal *t = find_terminal(a, m->params);
	const char *op = m->method + strlen("terminal/");

	if (!t)
		return respond_error(a, m->id, ACP_NOT_FOUND, "no such terminal");
	if (!strcmp(op, "output") && t->call)
		return respond(a, m->id, json_pack("{s:s, s:b}", "output", "",
						   "truncated", 0));
	if (!strcmp(op, "output"))
		return respond(a, m->id, json_pack("{s:o, s:b, s:o}",
			"output", sc_json_string_lossy(t->output, t->len),
			"truncated", t->truncated, "exitStatus", exit_status(t)));
	if (!strcmp(op, "wait_for_exit") && t->call) {
		if (t->nr_waiters == MAX_WAITERS)
			return respond_error(a, m->id, SC_RPC_INTERNAL_ERROR,
					     "too many waits for one terminal");
		t->waiters[t->nr_waiters++] = json_incref(m->id);
		return 0;   /* answered when the command ends */
	}
	if (!strcmp(op, "wait_for_exit"))
		return respond(a, m->id, exit_status(t));
	if (!strcmp(op, "kill") || !strcmp(op, "release")) {
		if (t->call && kill_command(a, t) < 0)
			return ENDED;
		if (!strcmp(op, "release")) {
			if (t->call)
				t->released = 1;
			else
				drop_terminal(a, t);
		}
		return respond(a, m->id, NULL);
	}
	return respond_error(a, m->id, SC_RPC_METHOD_NOT_FOUND,
			     "method not found");
}

/* ------------------------------------------------------------------ */
/* Permissions                                                         */

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
		return respond(a, id, json_pack("{s:{s:s}}", "outcome",
						"outcome", "cancelled"));
	return respond(a, id, json_pack("{s:{s:s, s:s}}", "outcome", "outcome",
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
		st = ask(a, &r[i], &ans);
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
		return respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
				     "toolCall, its toolCallId or options is "
				     "missing");
	/* No one-time allow offered: nothing to ask, the answer is no. */
	if (!allow)
		return select_option(a, m->id, reject);
	if (a->cancelled)
		return refuse_cancelled(a, m);
	/* Judged on everything the agent said of the call, not the request. */
	known = sc_acptrack_find(&a->track, tcid);
	merged = sc_acptrack_merged(known, call);
	n = sc_acp_permission_calls(r, &a->next_call, a->o->cwd, merged);
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
		return refuse_cancelled(a, m);
	return select_option(a, m->id, st == 1 ? allow : reject);
}

/*
 * A tool call whose object changed after it was granted: the grant does
 * not cover it, so it is a new call for the caller.  The agent does not
 * ask any more, so a refusal cancels the turn.
 */
static int granted_call_changed(struct acp *a, struct sc_acptrack_call *c)
{
	struct sc_record r[2];
	struct sc_buf object = SC_BUF_INIT, one = SC_BUF_INIT;
	unsigned long next = a->next_call;   /* ids taken only if it changed */
	size_t n, i;
	int st;

	n = sc_acp_permission_calls(r, &next, a->o->cwd, c->info);
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
	return st == 1 ? 0 : cancel_turn(a);
}

/* ------------------------------------------------------------------ */
/* The turn                                                            */

/* Refuse a request without asking: the turn is being cancelled. */
static int refuse_cancelled(struct acp *a, struct sc_rpc_msg *m)
{
	if (!strcmp(m->method, "session/request_permission"))
		return select_option(a, m->id, NULL);
	return respond_error(a, m->id, SC_RPC_CANCELLED, "the turn was cancelled");
}

static int handle_request(struct acp *a, struct sc_rpc_msg *m)
{
	const char *sid = sc_json_str(m->params, "sessionId");
	int terminal = !strncmp(m->method, "terminal/", 9);
	int known = terminal || !strcmp(m->method, "fs/read_text_file") ||
		    !strcmp(m->method, "fs/write_text_file") ||
		    !strcmp(m->method, "session/request_permission");

	if (!known)
		return respond_error(a, m->id, SC_RPC_METHOD_NOT_FOUND,
				     "method not found");
	if (!json_is_object(m->params) || !sid || strcmp(sid, a->session))
		return respond_error(a, m->id, SC_RPC_INVALID_PARAMS,
				     "not this session");
	if (terminal && strcmp(m->method, "terminal/create"))
		return term_serve(a, m);
	/* Each checks its params, then refuses when the turn is cancelled. */
	if (!strcmp(m->method, "session/request_permission"))
		return permission(a, m);
	if (!strcmp(m->method, "fs/read_text_file"))
		return fs_read(a, m);
	if (!strcmp(m->method, "fs/write_text_file"))
		return fs_write(a, m);
	return term_create(a, m);
}

static int emit_simple(struct acp *a, const char *type, const char *name,
		       const char *value, size_t len)
{
	struct sc_record r;
	int ret;

	sc_record_init(&r);
	sc_record_adds(&r, "type", type);
	sc_record_add(&r, name, value, len);
	ret = emit(a, &r);
	sc_record_release(&r);
	return ret;
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
	ret = emit(a, &r);
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
	return a->cancelled ? 0 : granted_call_changed(a, c);
}

/*
 * The mode among CONFIGOPTIONS (ACP's session configuration options): the
 * current value of the select option of category "mode" (or id "mode").
 * Its id goes into a->mode_option.  NULL when there is none.
 */
static const char *config_mode(struct acp *a, json_t *options)
{
	size_t i;
	json_t *o;

	json_array_foreach(options, i, o) {
		const char *id = sc_json_str(o, "id");
		const char *cat = sc_json_str(o, "category");

		if (!id || !json_is_string(json_object_get(o, "currentValue")))
			continue;
		if ((cat && !strcmp(cat, "mode")) || !strcmp(id, "mode")) {
			free(a->mode_option);
			a->mode_option = sc_xstrdup(id);
			return sc_json_str(o, "currentValue");
		}
	}
	return NULL;
}

/* The agent reported its mode: a change is said, whichever way it came. */
static int mode_reported(struct acp *a, const char *id)
{
	if (!id || (a->mode && !strcmp(a->mode, id)))
		return 0;
	set_mode_id(a, id);
	return emit_mode(a, "mode-changed");
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
		return mode_reported(a, sc_json_str(u, "currentModeId"));
	if (!strcmp(kind, "config_option_update"))
		return mode_reported(a, config_mode(a, json_object_get(
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
		return stop(a, "ACP-REFUSED", SC_EXIT_NO, why, m->error_message);
	}
	reason = sc_json_str(m->result, "stopReason");
	if (!reason)
		return protocol_error(a, "a prompt result without stopReason");
	if (check_settings(a, 1) < 0)
		return ENDED;
	return emit_simple(a, "end", "reason", reason, strlen(reason));
}

/* One message from the agent during a turn: 1 when the turn ended. */
static int handle_message(struct acp *a, struct sc_rpc_msg *m)
{
	switch (m->kind) {
	case SC_RPC_REQUEST:
		return handle_request(a, m);
	case SC_RPC_NOTIFICATION:
		return !strcmp(m->method, "session/update") ?
		       handle_update(a, m) : 0;
	default:
		if (!json_is_integer(m->id) ||
		    json_integer_value(m->id) != a->prompt_id)
			return protocol_error(a, "a response to no request "
					      "of ours");
		if (m->kind == SC_RPC_RESULT && !json_is_object(m->result))
			return protocol_error(a, "a result that is not an object");
		return turn_ended(a, m) < 0 ? ENDED : 1;
	}
}

/* ------------------------------------------------------------------ */
/* The MCP servers the agent gets (acpmcp.h)                           */

static int read_caller(struct acp *a);

/* A caller's type=tool record: offered or withdrawn; the agent's
 * connections to that server are told their list changed. */
static void mcp_tool_record(struct acp *a, const struct sc_record *r)
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
static int mcp_first_tools(struct acp *a)
{
	int st;

	while (a->nq < QUEUE_MAX && (st = read_caller(a)) > 0) {
		if (!strcmp(rec_type(a), "mcp-ready"))
			return 0;
		if (!strcmp(rec_type(a), "tool")) {
			mcp_tool_record(a, &a->rec);
			continue;
		}
		a->queue[a->nq++] = a->rec;
		sc_record_init(&a->rec);
	}
	return a->status ? ENDED : 0;
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
	st = ask(a, &call, &ans);
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
static int mcp_ready(struct acp *a)
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

/*
 * The agent's next message, serving the MCP sockets while waiting: as
 * sc_rpc_read with the session's timeout.
 */
static int read_agent(struct acp *a, struct sc_rpc_msg *m)
{
	struct pollfd p[SC_ACPMCP_MAX_CONNS + SC_ACP_MAX_MCP + 1];
	size_t n;
	int st;

	if (!a->o->nmcp || a->mcp.nr > SC_ACP_MAX_MCP)
		return sc_rpc_read(&a->rpc, a->o->timeout_ms, m);
	for (;;) {
		st = sc_rpc_take(&a->rpc, m);
		if (st != 0 || a->rpc.eof)
			return st;
		p[0] = (struct pollfd){ a->rpc.in_fd, POLLIN, 0 };
		n = 1 + sc_acpmcp_pollfds(&a->mcp, p + 1);
		st = poll(p, n, a->o->timeout_ms);
		if (st == 0)
			return SC_RPC_TIMEOUT;
		if (st < 0 && errno != EINTR)
			return SC_RPC_IO;
		if (st < 0)
			continue;
		if (p[0].revents && sc_rpc_fill(&a->rpc) < 0 && errno != EAGAIN)
			return SC_RPC_IO;
		/* No turn: a call is refused, so nothing here ends it. */
		if (n > 1 && mcp_ready(a) < 0)
			return SC_RPC_IO;
	}
}

static int cancel_turn(struct acp *a)
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
	return st ? send_failed(a, st) : 0;
}

/*
 * The caller's next record into a->rec: 1, 0 at the end of its input
 * (a->caller_eof set), ENDED when the input is broken.
 */
static int read_caller(struct acp *a)
{
	int st = sc_reader_next(&a->rd, &a->rec);

	if (st == SC_READ_RECORD)
		return 1;
	if (st == SC_READ_EOF) {
		a->caller_eof = 1;
		return 0;
	}
	a->status = sc_reader_report(&a->rd, st);
	kill_agent(a);
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
	return cancel_turn(a);
}

/*
 * Read one caller record during a turn: a cancel acts at once, every
 * other record waits in the queue.  1, 0 at EOF, ENDED.
 */
static int pull_caller(struct acp *a)
{
	int st = read_caller(a);

	if (st == 0 && caller_gone(a) < 0)
		return ENDED;
	if (st <= 0)
		return st;
	if (!strcmp(rec_type(a), "cancel"))
		return cancel_turn(a) < 0 ? ENDED : 1;
	/* A withdrawal acts at once, even while a call waits. */
	if (!strcmp(rec_type(a), "tool")) {
		mcp_tool_record(a, &a->rec);
		return 1;
	}
	a->queue[a->nq++] = a->rec;
	sc_record_init(&a->rec);
	return 1;
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
	kill_agent(a);
	a->prompt_id = 0;
	a->agent_gone = 1;
	return emit_simple(a, "end", "reason", "cancelled", strlen("cancelled"));
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
			return read_failed(a, SC_RPC_TIMEOUT);
		if (errno != EINTR)
			return read_failed(a, SC_RPC_IO);
	}
}

static int turn(struct acp *a, const struct sc_field *text)
{
	json_t *params = json_pack("{s:s, s:[{s:s, s:o}]}", "sessionId",
				   a->session, "prompt", "type", "text", "text",
				   sc_json_string_lossy(text->value,
							text->value_len));
	struct sc_rpc_msg m;
	int st;

	a->cancelled = 0;
	st = sc_rpc_request(&a->rpc, "session/prompt", params, a->o->timeout_ms,
			    &a->prompt_id);
	if (st)
		return send_failed(a, st);
	while (a->prompt_id) {
		st = sc_rpc_take(&a->rpc, &m);
		if (st == 0 && !a->rpc.eof) {
			st = wait_either(a);
			if (st == 3) {
				st = mcp_ready(a);
			} else if (st == 2) {
				st = pull_caller(a);
				settle_terminals(a);
				if (a->status)
					return ENDED;
			} else if (st == 1 && sc_rpc_fill(&a->rpc) < 0)
				st = read_failed(a, SC_RPC_IO);
			if (st < 0)
				return st;
			continue;
		}
		if (st != SC_RPC_MSG)
			return read_failed(a, st);
		st = handle_message(a, &m);
		sc_rpc_msg_release(&m);
		if (st < 0 || check_settings(a, 0) < 0 || caller_gone(a) < 0)
			return ENDED;
	}
	return 0;
}

/* The next record of the caller's, queued ones first: as read_caller. */
static int next_caller(struct acp *a)
{
	if (a->nq) {
		take_queued(a, 0);
		return 1;
	}
	return read_caller(a);
}

/* ------------------------------------------------------------------ */

static int serve(struct acp *a)
{
	const struct sc_field *text;
	const char *type;
	int st;

	while ((st = next_caller(a)) > 0) {
		type = rec_type(a);
		if (!strcmp(type, "prompt")) {
			text = sc_record_get(&a->rec, "text");
			if (!text) {
				sc_warning("NO-TEXT", "a prompt without text was "
					   "ignored");
				continue;
			}
			if (a->agent_gone)
				return stop(a, "ACP-EXITED", SC_EXIT_NO, "the agent "
					    "was stopped: it did not end a "
					    "cancelled turn", NULL);
			if (turn(a, text) < 0)
				return ENDED;
		} else if (!strcmp(type, "result")) {
			/* A command the agent left running ends here. */
			size_t before = a->nr_terms;

			a->queue[a->nq++] = a->rec;
			sc_record_init(&a->rec);
			settle_terminals(a);
			if (a->status)
				return ENDED;
			if (a->nq && before == a->nr_terms &&
			    answers(&a->queue[a->nq - 1],
				    sc_record_str(&a->queue[a->nq - 1], "id"))) {
				sc_warning("UNEXPECTED-RESULT", "a result for no "
					   "open call was ignored");
				take_queued(a, a->nq - 1);
			}
		}
		else if (!strcmp(type, "tool"))
			mcp_tool_record(a, &a->rec);
		/* cancel outside a turn, and other types: nothing to do */
	}
	if (st < 0)
		return ENDED;
	shutdown_agent(a);
	return 0;
}

static void acp_release(struct acp *a)
{
	while (a->nr_terms)
		drop_terminal(a, &a->terms[0]);
	while (a->nq)
		sc_record_release(&a->queue[--a->nq]);
	kill_agent(a);
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

int sc_acp_run(const struct sc_acp_opts *o, int in_fd, int out_fd)
{
	struct acp a;
	int ret = SC_EXIT_OK;

	memset(&a, 0, sizeof(a));
	a.o = o;
	a.rpc.in_fd = a.rpc.out_fd = -1;
	sc_input_init_fd(&a.in, in_fd);
	sc_output_init_records(&a.out, out_fd, o->force_records);
	sc_input_set_idle(&a.in, sc_output_idle, &a.out);
	sc_reader_init(&a.rd, &a.in);
	sc_record_init(&a.rec);
	/*
	 * The baseline is the empty directory sc_agenthome_create made: a
	 * settings file the agent writes even while starting is a change.
	 */
	sc_acpmcp_init(&a.mcp);
	/* The sockets first: the baseline holds their directory. */
	if (o->nmcp && sc_acpmcp_open(&a.mcp, o->home->dir, o->mcp, o->nmcp) < 0) {
		acp_release(&a);
		return SC_EXIT_UNAVAILABLE;
	}
	if (o->home)
		sc_agenthome_snapshot(o->home->dir, &a.settings);
	/* A dead agent's pipe must give EPIPE, not kill sc-acp. */
	signal(SIGPIPE, SIG_IGN);
	if (start_agent(&a) < 0) {
		struct sc_record r;

		sc_record_init(&r);
		sc_record_adds(&r, "type", "stop");
		sc_record_adds(&r, "code", "ACP-START");
		sc_record_adds(&r, "reason", "the agent could not be started");
		a.status = SC_EXIT_UNAVAILABLE;
		(void)emit(&a, &r);
		sc_record_release(&r);
		ret = a.status;
	} else if (initialize(&a) < 0 ||
		   (o->nmcp && mcp_first_tools(&a) < 0) || new_session(&a) < 0 ||
		   check_settings(&a, 1) < 0 || serve(&a) < 0) {
		ret = a.status;
	}
	acp_release(&a);
	return ret;
}
