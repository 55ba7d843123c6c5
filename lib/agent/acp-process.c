/*
 * The agent's process for sc-acp(1): started in a session of its own with
 * pipes on its stdin and stdout, killed with its whole process group; and
 * the JSON-RPC that goes to it and comes from it, every wait bounded by
 * the timeout.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acp-int.h"
#include "alloc.h"
#include "diag.h"
#include "env.h"
#include "process.h"

extern char **environ;

/* How long a clean shutdown waits for the agent before killing it. */
#define SHUTDOWN_MS 3000

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

int sc_acp_start_agent(struct acp *a)
{
	struct sc_piped p;
	enum sc_spawn_step st;
	char **base, **env;
	int e;

	base = sc_env_build(environ, SC_ENV_SHORT, a->o->keep, a->o->nkeep, NULL);
	env = env_with(base, a->home ? a->home->vars : NULL);
	st = sc_spawn_piped(a->o->argv, env, a->cwd, -1, &p);
	e = errno;
	free(env);
	sc_env_free(base);
	errno = e;
	a->pid = p.pid;
	if (st == SC_SPAWN_PIPES)
		return sc_error_errno("ACP-START", "cannot make pipes");
	if (st == SC_SPAWN_FORK)
		return sc_error_errno("ACP-START", "cannot fork");
	sc_rpc_init(&a->rpc, p.from, p.to);
	if (st == SC_SPAWN_EXEC)
		return sc_error_errno("ACP-START", "cannot start '%s'",
				      a->o->argv[0]);
	return 0;
}

/*
 * Kill the agent's whole process group, then reap the leader.  The group
 * is killed while the leader is still unreaped, so its id cannot have been
 * reused by an unrelated group.
 */
void sc_acp_kill_agent(struct acp *a)
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
static int wait_ended(pid_t pid, long ms)
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
void sc_acp_shutdown_agent(struct acp *a)
{
	if (a->pid <= 0)
		return;
	close(a->rpc.out_fd);
	a->rpc.out_fd = -1;
	if (!wait_ended(a->pid, SHUTDOWN_MS)) {
		(void)kill(-a->pid, SIGTERM);
		(void)wait_ended(a->pid, 1000);
	}
	sc_acp_kill_agent(a);
}

/* How the agent ended, for a reason text, once its output closed. */
static void describe_end(struct acp *a, char *buf, size_t size)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	snprintf(buf, size, "the agent closed its output");
	if (!wait_ended(a->pid, 1000))
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

/* Map an sc_rpc_status other than SC_RPC_MSG to the end of the session. */
int sc_acp_read_failed(struct acp *a, int st)
{
	char reason[128];

	switch (st) {
	case SC_RPC_TIMEOUT:
		snprintf(reason, sizeof(reason), "the agent said nothing for %d "
			 "seconds", a->o->timeout_ms / 1000);
		return sc_acp_stop(a, "ACP-TIMEOUT", reason, NULL);
	case SC_RPC_TOO_LONG:
		return sc_acp_protocol_error(a, "a line longer than the limit");
	case SC_RPC_MALFORMED:
		return sc_acp_protocol_error(a, a->rpc.why ? a->rpc.why :
					     "bad JSON-RPC");
	case SC_RPC_IO:
		return sc_acp_stop(a, "ACP-EXITED",
				   "cannot read from the agent", NULL);
	default:
		describe_end(a, reason, sizeof(reason));
		return sc_acp_stop(a, "ACP-EXITED", reason, NULL);
	}
}

/* A send to the agent failed: it stopped reading or it is gone. */
int sc_acp_send_failed(struct acp *a, int st)
{
	char reason[128];

	if (st == SC_RPC_TIMEOUT) {
		snprintf(reason, sizeof(reason), "the agent took nothing for %d "
			 "seconds", a->o->timeout_ms / 1000);
		return sc_acp_stop(a, "ACP-TIMEOUT", reason, NULL);
	}
	describe_end(a, reason, sizeof(reason));
	return sc_acp_stop(a, "ACP-EXITED", reason, NULL);
}

int sc_acp_respond(struct acp *a, json_t *id, json_t *result)
{
	int st = sc_rpc_respond(&a->rpc, id, result, a->o->timeout_ms);

	return st ? sc_acp_send_failed(a, st) : 0;
}

int sc_acp_respond_error(struct acp *a, json_t *id, int code, const char *msg)
{
	int st = sc_rpc_respond_error(&a->rpc, id, code, msg, a->o->timeout_ms);

	return st ? sc_acp_send_failed(a, st) : 0;
}

/*
 * Send a request and wait for its response, answering nothing else: used
 * before the session exists, when the agent has no business asking.
 */
int sc_acp_call_agent(struct acp *a, const char *method, json_t *params,
		      struct sc_rpc_msg *m)
{
	long long id;
	int st = sc_rpc_request(&a->rpc, method, params, a->o->timeout_ms, &id);

	if (st)
		return sc_acp_send_failed(a, st);
	for (;;) {
		st = sc_acp_read_agent(a, m);
		if (st != SC_RPC_MSG)
			return sc_acp_read_failed(a, st);
		if (m->kind == SC_RPC_REQUEST) {
			st = sc_acp_respond_error(a, m->id, SC_RPC_METHOD_NOT_FOUND,
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
			return sc_acp_protocol_error(a, "a response to no "
						     "request of ours");
		}
		if (m->kind == SC_RPC_ERROR) {
			char reason[160];

			snprintf(reason, sizeof(reason), "the agent refused %s "
				 "(error %lld)", method, m->error_code);
			st = sc_acp_stop(a, "ACP-REFUSED", reason,
					 m->error_message);
			sc_rpc_msg_release(m);
			return st;
		}
		if (!json_is_object(m->result)) {
			sc_rpc_msg_release(m);
			return sc_acp_protocol_error(a, "a result that is not "
						     "an object");
		}
		return 0;
	}
}

/*
 * The agent's next message, serving the MCP sockets while waiting: as
 * sc_rpc_read with the session's timeout.
 */
int sc_acp_read_agent(struct acp *a, struct sc_rpc_msg *m)
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
		if (n > 1 && sc_acp_mcp_ready(a) < 0)
			return SC_RPC_IO;
	}
}
