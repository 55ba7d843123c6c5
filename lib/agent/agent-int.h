/*
 * Private to lib/agent/agent*.c's loop (not agent-programs.c, agent-task.c,
 * agentmcp.c: those are modules with headers of their own): sc-agent(1)'s
 * loop cut at its seams.
 *
 *   agent.c          sc_agent_run, the loop's records (events,
 *                    conversation, the stop), a turn of the model, a task
 *                    of an external agent (sc-acp)
 *   agent-end.c      the end record and the run's counts read back from it
 *   agent-decide.c   deciding one call: the classifier, a person's answer,
 *                    grants and approvals, and the call carried out
 *   agent-exec.c     what an allowed call does: files, a command in the
 *                    sandbox, the guard after it; the masker, and the
 *                    result sent back
 *   agent-servers.c  the loop's side of the MCP servers (agentmcp.h): their
 *                    tools masked and offered, their calls judged and made
 *
 * The loop's state they share, and the functions one calls in another.
 * Included by no file outside these.
 */
#ifndef SC_AGENT_INT_H
#define SC_AGENT_INT_H

#include <stddef.h>

#include "agent.h"
#include "agentmcp.h"
#include "buf.h"
#include "coproc.h"
#include "io.h"
#include "record.h"

/*
 * What each step of the loop returns.  Only sc_agent_run turns these into
 * an exit status: a step that fails has printed its diagnostic and returns
 * FAILED, never an exit code of its own.
 */
enum outcome {
	FAILED = -1,   /* the loop itself failed, after a diagnostic */
	GO_ON = 0,     /* the next call, the next turn */
	STOPPED = 1,   /* the attempt must stop: stats->code says why */
	ENDED = 2,     /* the model (or the agent) ended its turn */
};


struct loop {
	const struct sc_agent_opts *o;
	const struct sc_agent_programs *prog;
	struct sc_agent_stats *stats;
	int rootfd;
	int conv;
	struct sc_coproc *cls;
	struct sc_coproc *mask;       /* sc-mask --records-stream */
	unsigned mask_seq;            /* the id of the last text masked */
	/* A program the loop was given cannot be used (the masker died, a
	 * coprocess did not start): the environment's failure, exit 4. */
	int unusable_program;
	struct sc_coproc *acp;        /* an external agent's session, or NULL */
	/* sc-acp's records read while a command ran, for the task loop. */
	struct sc_record held[16];
	size_t nheld;
	struct sc_output events;
	unsigned denied_in_a_row;
	unsigned turn;
	/*
	 * Objects a person approved in an external agent's permission request,
	 * each covering one later call of that object through the client
	 * methods (its write, its command): the person is not asked twice
	 * for one decision.  A ring: the oldest is forgotten.
	 */
	char *approved[8];
	size_t next_approved;
	struct sc_agent_mcp mcp;   /* the MCP servers of the attempt */
};

/* What one call gave: its text goes back to the model or the agent. */
struct result {
	struct sc_buf text;
	const char *source;     /* worktree, command, speccoder */
	const char *outcome;    /* ok, error, denied */
	int exit_status;        /* for a command; -1 otherwise */
	int truncated;
	int missing;            /* the file or directory does not exist */
};

/* ---- agent.c: the loop's records ----------------------------------- */

/* A line on the progress descriptor, control bytes taken out. */
void sc_agent_progress(struct loop *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* R to the events, stamped with the time it happened. */
int sc_agent_emit(struct loop *l, const struct sc_record *r);
/* R appended to the conversation the model reads. */
int sc_agent_append_conversation(struct loop *l, const struct sc_record *r);
/* STOPPED, with CODE and the reason kept for the end record. */
int sc_agent_stop(struct loop *l, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* ARGV run with IN, OUT and ERR (-1: ours) in DIRFD: its status. */
int sc_agent_run_tool(char **argv, int in, int out, int err, int dirfd);

/* ---- agent-decide.c: deciding one call ----------------------------- */

/* The classifier's verdict on CALL into V: GO_ON, STOPPED or FAILED. */
int sc_agent_judge(struct loop *l, const struct sc_record *call,
		   struct sc_record *v);
/* One call of the model or the agent: judged, carried out, answered. */
int sc_agent_handle_call(struct loop *l, const struct sc_record *call);

/* ---- agent-exec.c: what an allowed call does ----------------------- */

/* TEXT replaced by its masked form, or -1 when the masker failed. */
int sc_agent_mask_text(struct loop *l, struct sc_buf *text, int *truncated);
/* The path a file tool opens: the policy's object, or NULL. */
const char *sc_agent_call_path(const struct sc_record *call,
			       const struct sc_record *verdict);
/* read, list, write or delete PATH of the root into RES. */
void sc_agent_file_tool(struct loop *l, const char *tool, const char *path,
			const struct sc_record *call, struct result *res);
/* The command of CALL run in the sandbox; its output into RES. */
void sc_agent_run_command(struct loop *l, const struct sc_record *call,
			  const struct sc_record *verdict,
			  struct result *res);
/* The guard run after a change: GO_ON, or STOPPED with its finding. */
int sc_agent_guard(struct loop *l);
/* A write or delete a person approved, with the guard around it. */
int sc_agent_approved_file_change(struct loop *l, const char *tool,
				  const char *path,
				  const struct sc_record *call,
				  struct result *res);
/* RES masked, sent back for call ID, and its result record emitted. */
int sc_agent_add_result(struct loop *l, const char *id, const char *tool,
			struct result *res);

/* ---- agent-servers.c: the MCP servers ------------------------------ */

/* The sinks (agentmcp.h) of the model's loop: events, conversation. */
int sc_agent_servers_event(void *ctx, const struct sc_record *r);
int sc_agent_servers_conversation(void *ctx, const struct sc_record *r);
/* The servers started for an external agent, sc-acp told when ready. */
int sc_agent_servers_acp_start(struct loop *l);
/* An MCP call judged as tool=mcp server= name= digest=. */
int sc_agent_servers_judge(struct loop *l, const struct sc_record *call,
			   struct sc_record *v);
/* An allowed MCP call made; its result capped like a command's. */
int sc_agent_servers_call(struct loop *l, const struct sc_record *call,
			  struct result *res);

#endif
