#ifndef SC_MCPCONF_H
#define SC_MCPCONF_H

/*
 * One MCP server of speccoder.conf (speccoder.conf(5)):
 *
 *   [mcp "NAME"]
 *           command = npx -y some-server --flag   (one argv, shell-split)
 *           env = SOME_API_KEY                    (a name, repeated)
 *           network = none | loopback             (default none)
 *           host = HOST[:PORT]                    (repeated: network hosts)
 *           timeout = SECONDS                     (default 60)
 *           allow = TOOL [sha256:...]             (config.h: sc_mcp_allow)
 *
 * NAME is [A-Za-z0-9-]{1,32}: it becomes part of the model's tool names
 * (mcp__NAME__TOOL), whose "__" must stay unambiguous.
 */

#include <stddef.h>

#include "strlist.h"

struct sc_mcp_conf {
	char **argv;       /* NULL-terminated; NULL when the server has none */
	size_t argc;
	struct sc_strlist env;     /* variable names */
	const char *network;   /* "none", "loopback" or "hosts" (static) */
	struct sc_strlist hosts;   /* mcp.NAME.host */
	unsigned timeout;      /* seconds */
};

void sc_mcp_conf_init(struct sc_mcp_conf *c);
void sc_mcp_conf_release(struct sc_mcp_conf *c);

/* 1 when NAME may name a server. */
int sc_mcp_server_name_ok(const char *name);

/*
 * One key of [mcp "NAME"] (KEY without "mcp.NAME."), handed here by
 * sc_config_load (config.h), the one reader of speccoder.conf, for every
 * server; 0, or -1 with error[BAD-CONFIG] printed (a command set twice or
 * that does not split, a bad env name, network, host or timeout).
 * c->argv stays NULL when the server has no command.
 */
int sc_mcp_conf_entry(struct sc_mcp_conf *c, const char *key,
		      const char *value);
/* After the last entry: a server with hosts gets network "hosts". */
void sc_mcp_conf_finish(struct sc_mcp_conf *c);

#endif
