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


/*
 * Unless said otherwise, an int function below returns 0 when the session
 * goes on, ENDED when it has ended (a->end set, error[CODE] printed).
 */

/* ---- acp.c: records to the caller, the end of the session ---------- */

/* Write R to the caller and flush it at once (the caller waits on it). */
int sc_acp_emit(struct acp *a, const struct sc_record *r);
/* End the session with CODE: type=stop to the caller, the agent killed;
 * TEXT (untrusted, may be NULL) goes only in the record.  ENDED. */
int sc_acp_stop(struct acp *a, const char *code, const char *reason,
		const char *text);
/* The agent broke ACP (WHY, a fixed text): sc_acp_stop ACP-PROTOCOL. */
int sc_acp_protocol_error(struct acp *a, const char *why);

/* ---- acp-process.c: the agent's process and its pipes -------------- */

/* Start the agent in a session of its own, with its pipes and a short
 * environment: 0, or -1 with error[ACP-START] (no session yet). */
int sc_acp_start_agent(struct acp *a);
/* Kill the agent's process group and reap it; no-op when none runs. */
void sc_acp_kill_agent(struct acp *a);
/* The caller is done: close the agent's input, let it exit, then kill. */
void sc_acp_shutdown_agent(struct acp *a);
/* End the session for an sc_rpc_status ST other than SC_RPC_MSG from a
 * read (timeout, malformed, the agent gone).  ENDED. */
int sc_acp_read_failed(struct acp *a, int st);
/* End the session for a failed send to the agent (ST).  ENDED. */
int sc_acp_send_failed(struct acp *a, int st);
/* Answer the agent's request ID with RESULT (stolen). */
int sc_acp_respond(struct acp *a, json_t *id, json_t *result);
/* Answer the agent's request ID with JSON-RPC error CODE and MSG. */
int sc_acp_respond_error(struct acp *a, json_t *id, int code, const char *msg);
/* Before the session: send METHOD and wait for its response into M,
 * refusing the agent's own requests meanwhile. */
int sc_acp_call_agent(struct acp *a, const char *method, json_t *params,
		      struct sc_rpc_msg *m);
/* The agent's next message, serving the MCP sockets while it waits: an
 * sc_rpc_status, as sc_rpc_read (for sc_acp_read_failed). */
int sc_acp_read_agent(struct acp *a, struct sc_rpc_msg *m);

/* ---- acp-modes.c: the agent's mode, its private settings ----------- */

/* Put the agent in an ask-first mode from its session modes or its mode
 * configuration option (MODES, OPTIONS may be NULL); report the mode. */
int sc_acp_choose_mode(struct acp *a, json_t *modes, json_t *options);
/* Report a change of the agent's private settings; rate-limited during a
 * turn unless FORCE (before a call is written, at a turn's end). */
int sc_acp_check_settings(struct acp *a, int force);
/* The current mode among configuration OPTIONS (its option id kept in
 * a->mode_option), or NULL. */
const char *sc_acp_config_mode(struct acp *a, json_t *options);
/* The agent said its mode is ID: a change is reported to the caller. */
int sc_acp_mode_reported(struct acp *a, const char *id);

/* ---- acp-requests.c: calls for the caller -------------------------- */

/* Start call record R for TOOL under the session's next call id. */
void sc_acp_new_call(struct acp *a, struct sc_record *r, const char *tool);
/* ANS from the caller's record in a->rec (pointers into it). */
void sc_acp_read_answer(struct acp *a, struct answer *ans);
/* Wait for the caller's answer to call ID: 1 with ANS, 0 when none can
 * come (the turn cancelled, the caller's input ended), ENDED. */
int sc_acp_await_result(struct acp *a, const char *id, struct answer *ans);
/* Emit call R (released here), settings checked first; its id in ID. */
int sc_acp_send_call(struct acp *a, struct sc_record *r, char id[32]);
/* sc_acp_send_call, then sc_acp_await_result: 1, 0 or ENDED as that. */
int sc_acp_ask(struct acp *a, struct sc_record *r, struct answer *ans);
/* Refuse the agent's request ID, with the caller's reason in ANS if any. */
int sc_acp_deny(struct acp *a, json_t *id, const struct answer *ans);
/* Refuse request ID whose PATH is relative or missing: never guessed at. */
int sc_acp_relative_path(struct acp *a, json_t *id, const char *path);
/* Refuse request M without asking the caller: the turn is cancelled. */
int sc_acp_refuse_cancelled(struct acp *a, struct sc_rpc_msg *m);
/* Tool call C changed after its grant: a new call for the caller; a
 * refusal cancels the turn (the agent will not ask again). */
int sc_acp_granted_call_changed(struct acp *a, struct sc_acptrack_call *c);
/* Serve the agent's request M (fs/, terminal/, request_permission) for
 * this session; anything else is answered with an error. */
int sc_acp_handle_request(struct acp *a, struct sc_rpc_msg *m);

/* ---- acp-terminal.c: the terminal requests ------------------------  */

/* Free terminal T and remove it from a->terms (the last moves into T). */
void sc_acp_drop_terminal(struct acp *a, struct terminal *t);
/* Apply the caller's queued results to running terminals and answer their
 * wait_for_exit requests; a failure sets a->end. */
void sc_acp_settle_terminals(struct acp *a);
/* terminal/create: the command becomes a call for the caller; the id is
 * answered once the caller says it started (or ended). */
int sc_acp_term_create(struct acp *a, struct sc_rpc_msg *m);
/* terminal/output, wait_for_exit, kill and release on a known terminal. */
int sc_acp_term_serve(struct acp *a, struct sc_rpc_msg *m);

/* ---- acp-turn.c: the turn, the caller's records -------------------- */

/* The type of the caller's record in a->rec; "" when it has none. */
const char *sc_acp_rec_type(const struct acp *a);
/* Move queued record I into a->rec (the one there is released). */
void sc_acp_take_queued(struct acp *a, size_t i);
/* 1 when record Q answers call ID: its result, or its command started. */
int sc_acp_answers(const struct sc_record *q, const char *id);
/* The caller's next record into a->rec: 1, 0 at the end of its input
 * (a->caller_eof set), ENDED when the input is broken. */
int sc_acp_read_caller(struct acp *a);
/* During a turn: read one record; a cancel or tool record acts at once,
 * others are queued.  1, 0 at the end of input, ENDED. */
int sc_acp_pull_caller(struct acp *a);
/* The next record, queued ones first: as sc_acp_read_caller. */
int sc_acp_next_caller(struct acp *a);
/* Send session/cancel once; the turn then has a deadline to end. */
int sc_acp_cancel_turn(struct acp *a);
/* One prompt turn with TEXT: serve the agent and the caller until the
 * agent answers the prompt. */
int sc_acp_turn(struct acp *a, const struct sc_field *text);

/* ---- acp-relay.c: the MCP servers the agent gets ------------------- */

/* The caller's type=tool record R (offered or withdrawn): the agent's
 * connections to that server are told their tool list changed. */
void sc_acp_mcp_tool_record(struct acp *a, const struct sc_record *r);
/* Before session/new: take the caller's tool records up to mcp-ready,
 * queueing the others, so the agent sees complete lists at once. */
int sc_acp_mcp_first_tools(struct acp *a);
/* Accept and serve what the MCP sockets have, without waiting. */
int sc_acp_mcp_ready(struct acp *a);

#endif
