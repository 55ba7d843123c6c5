#ifndef SC_ACPMCP_H
#define SC_ACPMCP_H
/*
 * The MCP servers an external agent gets (sc-acp(1) --mcp): speccoder's
 * side of each, outside the agent's sandbox.
 *
 * The agent is told, in session/new, of one stdio server per configured
 * server whose command is the relay (sc-mcp --relay SOCKET): a pipe to a
 * Unix socket sc-acp listens on, in the agent's private configuration
 * directory.  The relay runs inside the agent's sandbox and holds nothing:
 * no server command, no key, no decision.  What answers it is sc-acp: the
 * tools the caller (sc-agent) offered, as it offered them (allowed, pinned
 * digest, masked), and every tools/call as a type=call record for the
 * caller to judge and carry, exactly like a native MCP call of the model.
 * The real servers are sc-agent's sc-mcp coprocesses, each in a sandbox
 * of its own.
 *
 * What comes over a socket is the agent's: a malformed message ends that
 * connection, never the session.
 */
#include <poll.h>
#include <stddef.h>
#include <jansson.h>

#include "jsonrpc.h"

struct sc_record;

/* Connections open at once: a looping agent cannot hold more. */
#define SC_ACPMCP_MAX_CONNS 16

/* The longest message over a socket: a call travels in one record. */
#define SC_ACPMCP_MAX_LINE ((size_t)15 << 20)

struct sc_acpmcp_tool {
	char *name;          /* mcp__SERVER__TOOL: what the call record names */
	char *server;
	char *tool;          /* the server's name for it: what the agent sees */
	char *description;   /* as the caller masked it */
	json_t *schema;      /* inputSchema, an object */
};

struct sc_acpmcp_tools {
	struct sc_acpmcp_tool *v;
	size_t nr, alloc;
};

void sc_acpmcp_tools_release(struct sc_acpmcp_tools *t);

/* The longest server name (speccoder.conf(5)). */
#define SC_ACPMCP_SERVER_MAX 32

/*
 * Take a caller's type=tool record: an offer (name= server= tool=
 * description= schema=) or a withdrawal (withdrawn=1 name=).  A record
 * whose names do not agree (name must be mcp__SERVER__TOOL), a tool
 * offered twice, or a schema that is not a JSON object is ignored.  1
 * with the server whose list changed in SERVER, or 0.
 */
int sc_acpmcp_take_tool(struct sc_acpmcp_tools *t, const struct sc_record *r,
			char server[SC_ACPMCP_SERVER_MAX + 1]);

/* The tool NAME (the server's name) of SERVER, or NULL. */
const struct sc_acpmcp_tool *sc_acpmcp_find(const struct sc_acpmcp_tools *t,
					    const char *server,
					    const char *name);

enum sc_acpmcp_action {
	SC_ACPMCP_NOTHING = 0,   /* a notification or a response: no answer */
	SC_ACPMCP_RESULT,        /* answer with reply->result (owned) */
	SC_ACPMCP_ERROR,         /* answer with reply->code, reply->message */
	SC_ACPMCP_CALL,          /* CALL holds the record for the caller */
};

struct sc_acpmcp_reply {
	json_t *result;
	int code;
	const char *message;     /* a fixed text */
};

/*
 * What to do with message M of a connection to SERVER: initialize
 * (version negotiated as sc-mcp(1) says), ping, tools/list (the offered
 * tools of SERVER) are answered here; tools/call of an offered tool with
 * an object of arguments becomes CALL: type=call id=ID
 * tool=mcp__SERVER__TOOL arguments=JSON (CALL initialised here, the
 * caller adds source=).  Anything else is an error answer.
 */
enum sc_acpmcp_action sc_acpmcp_handle(const struct sc_acpmcp_tools *t,
				       const char *server,
				       const struct sc_rpc_msg *m,
				       unsigned long id,
				       struct sc_record *call,
				       struct sc_acpmcp_reply *reply);

/* A tools/call result: TEXT as one text item, isError as given. */
json_t *sc_acpmcp_call_result(const char *text, size_t len, int is_error);

struct sc_acpmcp_conn {
	struct sc_rpc rpc;       /* in_fd == out_fd: the socket */
	size_t server;
};

struct sc_acpmcp {
	char *dir;               /* HOME/mcp, or NULL when there are no servers */
	int dirfd;               /* it, as created: what is cleaned up */
	char **servers;          /* names, NULL-terminated */
	char **paths;            /* the socket of each */
	int *listen;             /* listening sockets */
	size_t nr;
	struct sc_acpmcp_conn conns[SC_ACPMCP_MAX_CONNS];
	size_t nr_conns;
	struct sc_acpmcp_tools tools;
};

void sc_acpmcp_init(struct sc_acpmcp *m);
void sc_acpmcp_release(struct sc_acpmcp *m);

/*
 * Create HOME/mcp (new, 0700) and listen on HOME/mcp/NAME.sock for each
 * of the NR SERVERS.  0, or -1 with error[MCP-RELAY] printed.
 */
int sc_acpmcp_open(struct sc_acpmcp *m, const char *home,
		   char *const *servers, size_t nr);

/*
 * session/new's mcpServers: for each server, a stdio server named NAME
 * whose command is RELAY with the arguments --relay SOCKET and no
 * environment.  Only servers with an offered tool are named.
 */
json_t *sc_acpmcp_servers(const struct sc_acpmcp *m, const char *relay);

/* Fill P with the listeners then the connections; how many. */
size_t sc_acpmcp_pollfds(const struct sc_acpmcp *m, struct pollfd *p);

/* Accept a connection on listener I (one over the cap is closed). */
void sc_acpmcp_accept(struct sc_acpmcp *m, size_t i);

/* Close connection I (the last one takes its place). */
void sc_acpmcp_drop(struct sc_acpmcp *m, size_t i);

#endif
