#ifndef SC_ACP_H
#define SC_ACP_H
/*
 * The client side of the Agent Client Protocol, as a record coprocess
 * (sc-acp(1)): an external agent makes the attempt, and every file,
 * terminal and permission request it sends becomes a type=call record for
 * the caller (sc-agent) to decide, exactly like a native tool call.  The
 * caller's type=result answers go back to the agent; the agent never gets
 * an "always" permission, never a file or command result the caller did
 * not hand over, and never the user's own configuration.
 *
 * sc-acp decides nothing about policy: it translates, bounds and reports.
 * What it does decide is protocol hygiene: malformed or unexpected
 * messages end the session (error[ACP-PROTOCOL]), a silent agent is killed
 * at the timeout with its whole process group.
 */
#include <stddef.h>

/* The most MCP servers an agent gets (--mcp). */
#define SC_ACP_MAX_MCP 64

struct sc_acp_opts {
	char *const *argv;          /* the agent's command, NULL-terminated */
	const char *cwd;            /* the session's root (resolved here) */
	int timeout_ms;             /* bound of each wait for the agent */
	const char *config_home;    /* private configuration made here, or NULL */
	char *const *keep;          /* variable names passed to the agent */
	size_t nkeep;
	int force_records;          /* -z: records even to a terminal */
	char *const *mcp;           /* MCP servers the agent gets (acpmcp.h) */
	size_t nmcp;                /* needs config_home: their sockets are there */
};

/*
 * Resolve the root, make the private configuration and find the relay
 * (sc-mcp beside this program), start the agent, open a session, then
 * serve the caller's records from IN_FD and write records to OUT_FD until
 * the caller's input ends or the session fails.  Returns the exit status
 * sc-acp(1) documents; the agent and everything in its process group is
 * gone when it returns.  It is the only function of lib/acp*.c that
 * returns an exit status (acp-int.h).
 */
int sc_acp_run(const struct sc_acp_opts *o, int in_fd, int out_fd);

/*
 * 1 when the agent mode ID is known to ask before edits and commands, 0
 * when it is known or presumed to act alone (an unknown mode is presumed
 * to act alone).  Letter case, '-' and '_' are ignored.
 */
int sc_acp_mode_asks(const char *id);

#endif
