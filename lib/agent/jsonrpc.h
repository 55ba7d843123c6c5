#ifndef SC_JSONRPC_H
#define SC_JSONRPC_H
/*
 * JSON-RPC 2.0 over a pair of pipes, one message a line (the framing of
 * the Agent Client Protocol): each message is one JSON object followed by
 * "\n" and holds no raw newline.  Blank lines are skipped; a "\r" before
 * the "\n" is dropped.
 *
 * The peer is untrusted.  A line longer than the cap, bytes that are not
 * one JSON object, a batch (an array), a wrong "jsonrpc" member, an id that
 * is neither an integer nor a string, or a message that is neither a
 * request, a notification nor a response is malformed: the caller ends
 * the conversation, nothing of the message is acted on.
 *
 * Writes are bounded by a deadline as well as reads: a peer that stops
 * reading its input cannot hang the writer.
 */
#include <stddef.h>
#include <jansson.h>
#include "buf.h"

/*
 * The longest line accepted.  A file's text travels in one message, JSON
 * escaping can double it, and sc-record(5) caps a record at 16 MiB: 40 MiB
 * holds any message a well-behaved agent sends while bounding the memory a
 * hostile one can take.
 */
#define SC_JSONRPC_MAX_LINE ((size_t)40 << 20)

/* JSON-RPC error codes used on the wire. */
#define SC_RPC_PARSE_ERROR (-32700)
#define SC_RPC_INVALID_REQUEST (-32600)
#define SC_RPC_METHOD_NOT_FOUND (-32601)
#define SC_RPC_INVALID_PARAMS (-32602)
#define SC_RPC_INTERNAL_ERROR (-32603)
#define SC_RPC_CANCELLED (-32800)

enum sc_rpc_kind {
	SC_RPC_REQUEST = 1,      /* method and id */
	SC_RPC_NOTIFICATION,     /* method, no id */
	SC_RPC_RESULT,           /* id and result */
	SC_RPC_ERROR,            /* id (maybe null) and error */
};

struct sc_rpc_msg {
	enum sc_rpc_kind kind;
	json_t *root;            /* owns everything below */
	json_t *id;              /* integer or string; JSON null or NULL else */
	const char *method;      /* requests and notifications */
	json_t *params;          /* object or array; NULL when absent */
	json_t *result;          /* SC_RPC_RESULT: any JSON value */
	long long error_code;    /* SC_RPC_ERROR */
	const char *error_message; /* SC_RPC_ERROR: untrusted text, never "" NULL */
	size_t len;              /* the line's length: what the message cost */
};

void sc_rpc_msg_init(struct sc_rpc_msg *m);
void sc_rpc_msg_release(struct sc_rpc_msg *m);

/*
 * Parse one line (LEN bytes, no newline) into M.  0 on success; -1 when it
 * is malformed, with *WHY a fixed text (never input bytes).
 */
int sc_rpc_parse(const char *line, size_t len, struct sc_rpc_msg *m,
		 const char **why);

enum sc_rpc_status {
	SC_RPC_MSG = 1,
	SC_RPC_EOF = 0,
	SC_RPC_MALFORMED = -1,
	SC_RPC_TOO_LONG = -2,
	SC_RPC_TIMEOUT = -3,
	SC_RPC_IO = -4,          /* errno set */
};

struct sc_rpc {
	int in_fd, out_fd;       /* read from the peer, write to it */
	struct sc_buf pending;   /* bytes read, not yet a whole message */
	size_t scanned;          /* pending[0..scanned) holds no newline */
	size_t max_line;
	long long next_id;       /* ids of our requests: 1, 2, ... */
	int eof;
	const char *why;         /* the last malformed reason */
};

/* OUT_FD is made non-blocking so a write can time out. */
void sc_rpc_init(struct sc_rpc *rpc, int in_fd, int out_fd);
void sc_rpc_release(struct sc_rpc *rpc);

/*
 * The next whole message already read, without reading more: SC_RPC_MSG,
 * 0 when none is buffered (or at EOF when rpc->eof), or a negative status.
 */
int sc_rpc_take(struct sc_rpc *rpc, struct sc_rpc_msg *m);
/* One read(2) from the peer (call when poll says readable).  As read(2). */
long sc_rpc_fill(struct sc_rpc *rpc);
/*
 * The next message, waiting at most TIMEOUT_MS (negative: no bound) for
 * each read.  An sc_rpc_status.
 */
int sc_rpc_read(struct sc_rpc *rpc, int timeout_ms, struct sc_rpc_msg *m);

/*
 * Senders.  PARAMS and RESULT are stolen (may be NULL for an empty
 * object).  Each waits at most TIMEOUT_MS for the peer to take the bytes.
 * 0 on success, SC_RPC_TIMEOUT or SC_RPC_IO.
 */
int sc_rpc_request(struct sc_rpc *rpc, const char *method, json_t *params,
		   int timeout_ms, long long *id);
int sc_rpc_notify(struct sc_rpc *rpc, const char *method, json_t *params,
		  int timeout_ms);
int sc_rpc_respond(struct sc_rpc *rpc, json_t *id, json_t *result,
		   int timeout_ms);
int sc_rpc_respond_error(struct sc_rpc *rpc, json_t *id, int code,
			 const char *message, int timeout_ms);

/* Milliseconds on the monotonic clock: the clock of every deadline here. */
long long sc_rpc_now_ms(void);

/* The string member NAME of OBJ, or NULL (also when OBJ is no object). */
const char *sc_json_str(json_t *obj, const char *name);

#endif
