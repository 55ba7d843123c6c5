#ifndef SC_AGENTMCP_H
#define SC_AGENTMCP_H

/*
 * The MCP servers of one sc-agent loop: each an sc-mcp coprocess started
 * once per attempt (sc-mcp(1)), its offered tools added to the
 * conversation, each model call of an mcp__SERVER__TOOL carried to it
 * after the policy judged it as tool=mcp server= name= digest=.
 */

#include <stddef.h>

#include "buf.h"

struct sc_record;
struct sc_coproc;

struct sc_agent_mcp_tool {
	char *name;       /* mcp__SERVER__TOOL, as the model calls it */
	char *tool;       /* the server's name for it */
	char *digest;     /* the definition offered */
	size_t server;    /* index into servers */
};

struct sc_agent_mcp_server {
	struct sc_coproc *cp;   /* NULL once it failed */
	char *name;
	char *source;           /* "mcp:NAME" */
};

/* Where records go: the journal (events) and the conversation. */
struct sc_agent_mcp_sink {
	int (*event)(void *ctx, const struct sc_record *r);
	int (*conversation)(void *ctx, const struct sc_record *r);
	void *ctx;
};

struct sc_agent_mcp {
	struct sc_agent_mcp_server *servers;
	size_t nr_servers;
	struct sc_agent_mcp_tool *tools;
	size_t nr_tools, alloc_tools;
	struct sc_agent_mcp_sink sink;
};

/*
 * Start each sc-mcp of ARGVS (NR of them) and wait for its tools: each
 * offered tool goes to the conversation and a type=mcp-tool event to the
 * journal; a withdrawn tool and a server that failed (type=mcp-failed)
 * go to the journal, and the loop goes on without them.  0, or -1 when a
 * sink failed.
 */
int sc_agent_mcp_start(struct sc_agent_mcp *am, char ***argvs, size_t nr,
		       const struct sc_agent_mcp_sink *sink);
void sc_agent_mcp_end(struct sc_agent_mcp *am);

/*
 * The record the policy judges for the model's CALL of an mcp__ tool:
 * type=call id= tool=mcp server= name= digest= source= arguments=.  What
 * the servers said meanwhile is read first (a withdrawal counts).  A tool
 * not offered is judged with its model name split and no digest.  0, or
 * -1 when a sink failed.
 */
int sc_agent_mcp_judged(struct sc_agent_mcp *am, const struct sc_record *call,
			struct sc_record *out);

/*
 * Carry the allowed CALL to its server.  TEXT gets the result's text (at
 * most MAX bytes, *TRUNCATED set when cut), *OK whether it succeeded,
 * *SOURCE the server's mcp:NAME.  0, or -1 when a sink failed.
 */
int sc_agent_mcp_call(struct sc_agent_mcp *am, const struct sc_record *call,
		      size_t max, struct sc_buf *text, int *ok, int *truncated,
		      const char **source);

#endif
