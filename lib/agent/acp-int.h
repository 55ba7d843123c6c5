/*
 * Private to lib/acp*.c (not acpcall.c, acpmcp.c, acptrack.c: those are
 * modules with headers of their own): sc-acp(1)'s session cut at its seams.
 *
 *   acp.c           sc_acp_run, opening the session, serving the caller's
 *                   records, the end of the session
 *   acp-process.c   the agent's process, its pipes, JSON-RPC to and from it
 *   acp-modes.c     the agent's mode and its private settings
 *   acp-requests.c  calls for the caller: files, permissions, the dispatch
 *                   of the agent's requests
 *   acp-terminal.c  the terminal/... requests: commands the caller runs
 *   acp-turn.c      a prompt turn, cancelling it, reading the caller
 *   acp-relay.c     the MCP servers the agent gets (acpmcp.h) during a turn
 *
 * The session state they share, and the functions one calls in another.
 * Included by no file outside lib/acp*.c.
 */
#ifndef SC_ACP_INT_H
#define SC_ACP_INT_H

#include <stddef.h>
#include <sys/types.h>
#include <jansson.h>

#include "acp.h"
#include "acpmcp.h"
#include "acptrack.h"
#include "agenthome.h"
#include "buf.h"
#include "io.h"
#include "jsonrpc.h"
#include "record.h"

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
	const char *cwd;            /* o->cwd resolved: the session's root */
	const struct sc_agenthome *home; /* private configuration, or NULL */
	const char *relay;          /* the relay's program (sc-mcp) for --mcp */
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
	const char *end;            /* the code the session ended with, or NULL */
	struct sc_acpmcp mcp;       /* the MCP servers the agent gets */
};

/*
 * Returned by the steps below when the session has ended (a->end set).
 * The exit-code rule of diag.h, kept here: only sc_acp_run returns an
 * exit status, chosen from a->end by one table in acp.c; every function
 * below it says error[CODE], leaves CODE in a->end and returns ENDED (-1).
 */
#define ENDED (-1)

/* As sc_json_str, "" instead of NULL: for comparisons. */
static inline const char *str_or_empty(json_t *obj, const char *name)
{
	const char *s = sc_json_str(obj, name);

	return s ? s : "";
}

/* The caller's answer to a call (sc_acp_read_answer). */
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


/* ---- acp.c: records to the caller, the end of the session ---------- */

int sc_acp_emit(struct acp *a, const struct sc_record *r);
int sc_acp_stop(struct acp *a, const char *code, const char *reason,
		const char *text);
int sc_acp_protocol_error(struct acp *a, const char *why);

/* ---- acp-process.c: the agent's process and its pipes -------------- */

int sc_acp_start_agent(struct acp *a);
void sc_acp_kill_agent(struct acp *a);
void sc_acp_shutdown_agent(struct acp *a);
int sc_acp_read_failed(struct acp *a, int st);
int sc_acp_send_failed(struct acp *a, int st);
int sc_acp_respond(struct acp *a, json_t *id, json_t *result);
int sc_acp_respond_error(struct acp *a, json_t *id, int code, const char *msg);
int sc_acp_call_agent(struct acp *a, const char *method, json_t *params,
		      struct sc_rpc_msg *m);
int sc_acp_read_agent(struct acp *a, struct sc_rpc_msg *m);

/* ---- acp-modes.c: the agent's mode, its private settings ----------- */

int sc_acp_choose_mode(struct acp *a, json_t *modes, json_t *options);
int sc_acp_check_settings(struct acp *a, int force);
const char *sc_acp_config_mode(struct acp *a, json_t *options);
int sc_acp_mode_reported(struct acp *a, const char *id);

/* ---- acp-requests.c: calls for the caller -------------------------- */

void sc_acp_new_call(struct acp *a, struct sc_record *r, const char *tool);
void sc_acp_read_answer(struct acp *a, struct answer *ans);
int sc_acp_await_result(struct acp *a, const char *id, struct answer *ans);
int sc_acp_send_call(struct acp *a, struct sc_record *r, char id[32]);
int sc_acp_ask(struct acp *a, struct sc_record *r, struct answer *ans);
int sc_acp_deny(struct acp *a, json_t *id, const struct answer *ans);
int sc_acp_relative_path(struct acp *a, json_t *id, const char *path);
int sc_acp_refuse_cancelled(struct acp *a, struct sc_rpc_msg *m);
int sc_acp_granted_call_changed(struct acp *a, struct sc_acptrack_call *c);
int sc_acp_handle_request(struct acp *a, struct sc_rpc_msg *m);

/* ---- acp-terminal.c: the terminal requests ------------------------  */

void sc_acp_drop_terminal(struct acp *a, struct terminal *t);
void sc_acp_settle_terminals(struct acp *a);
int sc_acp_term_create(struct acp *a, struct sc_rpc_msg *m);
int sc_acp_term_serve(struct acp *a, struct sc_rpc_msg *m);

/* ---- acp-turn.c: the turn, the caller's records -------------------- */

const char *sc_acp_rec_type(const struct acp *a);
void sc_acp_take_queued(struct acp *a, size_t i);
int sc_acp_answers(const struct sc_record *q, const char *id);
int sc_acp_read_caller(struct acp *a);
int sc_acp_pull_caller(struct acp *a);
int sc_acp_next_caller(struct acp *a);
int sc_acp_cancel_turn(struct acp *a);
int sc_acp_turn(struct acp *a, const struct sc_field *text);

/* ---- acp-relay.c: the MCP servers the agent gets ------------------- */

void sc_acp_mcp_tool_record(struct acp *a, const struct sc_record *r);
int sc_acp_mcp_first_tools(struct acp *a);
int sc_acp_mcp_ready(struct acp *a);

#endif
