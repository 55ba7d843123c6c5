#ifndef SC_MCPRUN_H
#define SC_MCPRUN_H

/*
 * sc-mcp's session with one configured server, as records (sc-mcp(1)):
 * the server started inside the caller's sandbox prefix, its tools judged
 * against the pins of speccoder.conf, the allowed ones offered as
 * type=tool records, then type=call in and type=tool-result out until the
 * caller's input ends.
 */

#include <stddef.h>

struct sc_config;

/* sc-mcp(1)'s command line, checked by its main. */
struct sc_mcp_opts {
	const char *config;              /* speccoder.conf, from where we started */
	const char *server;              /* the [mcp "NAME"] */
	const char *cwd;                 /* the server's directory, or NULL: . */
	unsigned timeout;                /* seconds, or 0: mcp.NAME.timeout */
	char **sandbox;                  /* prefix: the sandbox and its options */
	int list;                        /* list every tool and end */
	int keep_stderr;                 /* the server's stderr to ours */
	size_t max_output;               /* bytes of a result's text */
	int force_records;               /* -z: records even to a terminal */
};

/*
 * The status of tool NAME with definition DIGEST under CFG's pins:
 * "allowed" (a pin holds DIGEST, or an allow entry pins nothing),
 * "changed" (allowed with pins, none of them DIGEST) or "new".  *PINNED
 * is the first pinned digest, or NULL.
 */
const char *sc_mcp_tool_status(const struct sc_config *cfg, const char *server,
			       const char *name, const char *digest,
			       const char **pinned);

/*
 * sc-mcp(1): load O's speccoder.conf, find the server, enter O->cwd and
 * run the session on IN and OUT.  Returns the tool's exit status.
 */
int sc_mcp_run(const struct sc_mcp_opts *o, int in, int out);

#endif
