#ifndef SC_MCPCONF_H
#define SC_MCPCONF_H

/*
 * One MCP server of speccoder.conf (speccoder.conf(5)):
 *
 *   [mcp "NAME"]
 *           command = npx -y some-server --flag   (one argv, shell-split)
 *           env = SOME_API_KEY                    (a name, repeated)
 *           network = none | loopback             (default none)
 *           timeout = SECONDS                     (default 60)
 *           allow = TOOL [sha256:...]             (read by config.c)
 *
 * NAME is [A-Za-z0-9-]{1,32}: it becomes part of the model's tool names
 * (mcp__NAME__TOOL), whose "__" must stay unambiguous.
 */

#include <stddef.h>

struct sc_mcp_conf {
	char **argv;       /* NULL-terminated; NULL when the server has none */
	size_t argc;
	char **env;        /* variable names, NULL-terminated */
	size_t nr_env, alloc_env;
	const char *network;   /* "none" or "loopback" (static) */
	unsigned timeout;      /* seconds */
};

void sc_mcp_conf_init(struct sc_mcp_conf *c);
void sc_mcp_conf_release(struct sc_mcp_conf *c);

/* 1 when NAME may name a server. */
int sc_mcp_server_name_ok(const char *name);

/*
 * Read server NAME of PATH.  0, or an sc_gitconfig_status with
 * error[BAD-CONFIG] printed (a key set twice, a command that does not
 * split, a bad name, network or timeout, an include); c->argv is NULL
 * when the server has no command.
 */
int sc_mcp_conf_load(struct sc_mcp_conf *c, const char *path, const char *name);

#endif
