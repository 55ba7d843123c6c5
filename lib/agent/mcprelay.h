#ifndef SC_MCPRELAY_H
#define SC_MCPRELAY_H
/*
 * sc-mcp --relay SOCKET (sc-mcp(1)): the MCP server an external agent is
 * given.  It connects to the Unix socket sc-acp listens on and copies
 * bytes both ways, deciding and holding nothing: the agent starts it
 * inside its own sandbox, so it is the agent's as much as the agent is.
 * Every MCP message it carries is answered by sc-acp, outside that
 * sandbox (acpmcp.h).
 */

/*
 * Relay IN and OUT to the socket at PATH until both directions ended:
 * the run function of sc-mcp --relay (lib/diag.h).  An exit status: 0,
 * SC_EXIT_UNAVAILABLE with error[MCP-RELAY] when the socket cannot be
 * reached, SC_EXIT_INTERNAL when a read or write fails.
 */
int sc_mcp_relay_run(const char *path, int in, int out);

#endif
