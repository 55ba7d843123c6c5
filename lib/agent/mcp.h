#ifndef SC_MCP_H
#define SC_MCP_H
/*
 * The client side of the Model Context Protocol over stdio (sc-mcp(1)):
 * newline-delimited JSON-RPC 2.0 (lib/agent/jsonrpc.c) with one server, started
 * by the caller's argv (a sandbox prefix and the server's command) in a
 * session of its own, so ending it ends everything it started.
 *
 * The server is untrusted: its tool definitions, results, notifications
 * and requests are data.  Every wait for it is bounded; a malformed
 * message, a response to an id never asked, a message over the cap or a
 * tool definition that cannot be offered safely ends the conversation
 * with a status below and nothing of it acted on.
 *
 * A tool's definition digest is "sha256:" and the hex SHA-256 of the
 * canonical JSON (keys sorted at every level, no white space) of the
 * object holding its name, description, inputSchema and annotations (the
 * members present): what a person reviews is what the digest pins.
 */
#include <stddef.h>
#include <sys/types.h>
#include <jansson.h>

#include "buf.h"
#include "jsonrpc.h"

struct sc_record;

/*
 * The largest message accepted from a server.  A result travels to the
 * caller in one record (sc-record(5) caps it at 16 MiB) and is cut far
 * below that for the model; a server sending more is refused, so a hostile
 * one cannot make the client hold more than this.
 */
#define SC_MCP_MAX_MESSAGE ((size_t)16 << 20)

/* Tools one server may define: more is refused (MCP-TOO-LARGE). */
#define SC_MCP_MAX_TOOLS 512

/* The protocol version asked for, and every one accepted in answer. */
#define SC_MCP_VERSION "2025-11-25"

enum sc_mcp_status {
	SC_MCP_OK = 0,
	SC_MCP_MALFORMED = -1,    /* MCP-MALFORMED: not JSON-RPC, a bad result */
	SC_MCP_UNKNOWN_ID = -2,   /* MCP-UNKNOWN-ID */
	SC_MCP_TOO_LARGE = -3,    /* MCP-TOO-LARGE */
	SC_MCP_BAD_TOOL = -4,     /* MCP-BAD-TOOL: a definition refused */
	SC_MCP_FAILED = -5,       /* MCP-FAILED: exited, hung, pipe broken */
	SC_MCP_VERSION_BAD = -6,  /* MCP-VERSION: no version in common */
	SC_MCP_START = -7,        /* MCP-START: could not be started */
};

/* The error code of a status ("MCP-FAILED"), for diagnostics and records. */
const char *sc_mcp_code(int status);

struct sc_mcp_tool {
	char *name;            /* the server's name for it: [A-Za-z0-9_-]{1,64} */
	char *description;     /* never NULL */
	char *schema;          /* inputSchema, canonical JSON of an object */
	json_t *schema_json;
	char *definition;      /* the canonical JSON the digest is taken over */
	char digest[72];       /* "sha256:" + 64 hex digits */
};

struct sc_mcp_tools {
	struct sc_mcp_tool *v;
	size_t nr, alloc;
};

void sc_mcp_tools_release(struct sc_mcp_tools *t);
const struct sc_mcp_tool *sc_mcp_tools_find(const struct sc_mcp_tools *t,
					    const char *name);

/* 1 when NAME is a tool or server name speccoder offers: [A-Za-z0-9_-],
 * 1 to MAX bytes. */
int sc_mcp_name_ok(const char *name, size_t max);

/*
 * Add the tools of a tools/list RESULT to T; *CURSOR (borrowed from
 * RESULT) is the next page's cursor or NULL.  SC_MCP_OK, or a status with
 * *WHY a fixed text (never the server's bytes).
 */
int sc_mcp_parse_tools(json_t *result, struct sc_mcp_tools *t,
		       const char **cursor, const char **why);

/*
 * The text of a tools/call RESULT for the model: text items as they are,
 * other items described in one bracketed line (an image, a resource and
 * its text), structuredContent as JSON when no content is given.  OUT
 * receives at most MAX bytes (*TRUNCATED set when cut).  *IS_ERROR is the
 * result's isError.  SC_MCP_OK or SC_MCP_MALFORMED with *WHY.
 */
int sc_mcp_result_text(json_t *result, size_t max, struct sc_buf *out,
		       int *truncated, int *is_error, const char **why);

/*
 * The arguments object of a call record: its arguments= field, a JSON
 * object (what sc-model writes for an mcp__ tool); else every field but type, id, tool,
 * source and label, typed by SCHEMA's properties (a string property keeps
 * the field's text; any other declared type takes the text as JSON, a
 * repeated field is an array).  NULL with *WHY when a value does not parse
 * as its declared type.
 */
json_t *sc_mcp_call_args(const struct sc_record *call, json_t *schema,
			 const char **why);

/* One conversation with one server. */
struct sc_mcp {
	struct sc_rpc rpc;
	pid_t pid;             /* the server's process (a session leader) */
	int timeout_ms;        /* every wait for the server */
	int list_changed;      /* notifications/tools/list_changed was seen */
	unsigned progress;     /* progress notifications of the last call */
	char version[32];      /* the protocol version agreed */
	const char *why;       /* fixed text of the last failure */
};

void sc_mcp_init(struct sc_mcp *m, int timeout_ms);

/*
 * Start ARGV with pipes on its stdin and stdout, stderr to STDERR_FD
 * (-1: /dev/null), in a session of its own.  SC_MCP_OK or SC_MCP_START.
 */
int sc_mcp_start(struct sc_mcp *m, char *const argv[], int stderr_fd);

/* initialize, the version check, notifications/initialized. */
int sc_mcp_initialize(struct sc_mcp *m);

/* tools/list, every page, into T (emptied first); list_changed cleared. */
int sc_mcp_list_tools(struct sc_mcp *m, struct sc_mcp_tools *t);

/*
 * tools/call NAME with ARGS (stolen); the result's text as
 * sc_mcp_result_text gives it.  A status; SC_MCP_FAILED when the server
 * answered with a JSON-RPC error is not a failure: *IS_ERROR is set and
 * OUT holds "error CODE: MESSAGE" (the server's words, untrusted).
 */
int sc_mcp_call(struct sc_mcp *m, const char *name, json_t *args, size_t max,
		struct sc_buf *out, int *truncated, int *is_error);

/*
 * What the server sent unasked, while no request is open: with FILL one
 * read first (call when its pipe is readable), then every whole message
 * buffered (a notification read along with a request's answer is one):
 * requests answered, list_changed noted.  A status; SC_MCP_FAILED when
 * the server exited.
 */
int sc_mcp_pump(struct sc_mcp *m, int fill);

/*
 * End the server: its stdin closed, a short wait, then its process
 * group killed and the leader reaped.  Safe to call twice.
 */
void sc_mcp_stop(struct sc_mcp *m);

#endif
