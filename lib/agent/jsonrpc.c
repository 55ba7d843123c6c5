/*
 * JSON-RPC 2.0 framing and messages, one JSON object a line.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "jsonstr.h"
#include "jsonrpc.h"

void sc_rpc_msg_init(struct sc_rpc_msg *m)
{
	memset(m, 0, sizeof(*m));
}

void sc_rpc_msg_release(struct sc_rpc_msg *m)
{
	json_decref(m->root);
	sc_rpc_msg_init(m);
}

static int valid_id(const json_t *id)
{
	return json_is_integer(id) || json_is_string(id);
}

/* Fill M's request or notification members from OBJ. */
static int parse_call(json_t *obj, json_t *method, struct sc_rpc_msg *m,
		      const char **why)
{
	json_t *params = json_object_get(obj, "params");

	if (!json_is_string(method) || !json_string_length(method) ||
	    strlen(json_string_value(method)) != json_string_length(method))
		return *why = "method is not a name", -1;
	if (params && !json_is_object(params) && !json_is_array(params))
		return *why = "params is neither an object nor an array", -1;
	if (json_object_get(obj, "result") || json_object_get(obj, "error"))
		return *why = "a request carries a result or an error", -1;
	m->method = json_string_value(method);
	m->params = params;
	m->id = json_object_get(obj, "id");
	if (!m->id)
		m->kind = SC_RPC_NOTIFICATION;
	else if (valid_id(m->id))
		m->kind = SC_RPC_REQUEST;
	else
		return *why = "id is neither an integer nor a string", -1;
	return 0;
}

/* Fill M's response members from OBJ. */
static int parse_response(json_t *obj, struct sc_rpc_msg *m, const char **why)
{
	json_t *result = json_object_get(obj, "result");
	json_t *error = json_object_get(obj, "error");
	json_t *code, *message;

	m->id = json_object_get(obj, "id");
	if (!m->id)
		return *why = "a response has no id", -1;
	if (!!result == !!error)
		return *why = "a response needs exactly one of result and error", -1;
	if (result) {
		if (!valid_id(m->id))
			return *why = "id is neither an integer nor a string", -1;
		m->kind = SC_RPC_RESULT;
		m->result = result;
		return 0;
	}
	/* An error about a request the peer could not read has a null id. */
	if (!valid_id(m->id) && !json_is_null(m->id))
		return *why = "id is neither an integer nor a string", -1;
	code = json_object_get(error, "code");
	message = json_object_get(error, "message");
	if (!json_is_object(error) || !json_is_integer(code) ||
	    !json_is_string(message))
		return *why = "an error needs an integer code and a message", -1;
	m->kind = SC_RPC_ERROR;
	m->error_code = (long long)json_integer_value(code);
	m->error_message = json_string_value(message);
	return 0;
}

int sc_rpc_parse(const char *line, size_t len, struct sc_rpc_msg *m,
		 const char **why)
{
	json_error_t jerr;
	json_t *obj, *version, *method;
	int ret;

	sc_rpc_msg_init(m);
	obj = json_loadb(line, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
			 &jerr);
	if (!obj)
		return *why = "not JSON", -1;
	if (!json_is_object(obj)) {
		json_decref(obj);
		return *why = "not a JSON object (batches are not used)", -1;
	}
	version = json_object_get(obj, "jsonrpc");
	if (!json_is_string(version) ||
	    strcmp(json_string_value(version), "2.0")) {
		json_decref(obj);
		return *why = "jsonrpc is not \"2.0\"", -1;
	}
	m->root = obj;
	m->len = len;
	method = json_object_get(obj, "method");
	ret = method ? parse_call(obj, method, m, why)
		     : parse_response(obj, m, why);
	if (ret < 0)
		sc_rpc_msg_release(m);
	return ret;
}

void sc_rpc_init(struct sc_rpc *rpc, int in_fd, int out_fd)
{
	int fl;

	memset(rpc, 0, sizeof(*rpc));
	rpc->in_fd = in_fd;
	rpc->out_fd = out_fd;
	rpc->max_line = SC_JSONRPC_MAX_LINE;
	rpc->next_id = 1;
	sc_buf_init(&rpc->pending);
	fl = fcntl(out_fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(out_fd, F_SETFL, fl | O_NONBLOCK);
}

void sc_rpc_release(struct sc_rpc *rpc)
{
	sc_buf_release(&rpc->pending);
}

/* The next line in PENDING without its newline; 0 when none is whole. */
static int next_line(struct sc_rpc *rpc, size_t *len)
{
	const char *nl;

	if (rpc->pending.len <= rpc->scanned)
		return 0;
	nl = memchr(rpc->pending.data + rpc->scanned, '\n',
		    rpc->pending.len - rpc->scanned);
	if (!nl) {
		rpc->scanned = rpc->pending.len;
		return 0;
	}
	*len = (size_t)(nl - rpc->pending.data);
	return 1;
}

int sc_rpc_take(struct sc_rpc *rpc, struct sc_rpc_msg *m)
{
	size_t len, used;
	int ret;

	for (;;) {
		if (!next_line(rpc, &len)) {
			if (rpc->pending.len > rpc->max_line)
				return SC_RPC_TOO_LONG;
			if (rpc->eof && rpc->pending.len)
				return rpc->why = "the last line has no newline",
				       SC_RPC_MALFORMED;
			return rpc->eof ? SC_RPC_EOF : 0;
		}
		if (len > rpc->max_line)
			return SC_RPC_TOO_LONG;
		used = len + 1;
		if (len && rpc->pending.data[len - 1] == '\r')
			len--;
		if (!len) {         /* a blank line carries nothing */
			sc_buf_consume(&rpc->pending, used);
			rpc->scanned = 0;
			continue;
		}
		ret = sc_rpc_parse(rpc->pending.data, len, m, &rpc->why);
		sc_buf_consume(&rpc->pending, used);
		rpc->scanned = 0;
		return ret < 0 ? SC_RPC_MALFORMED : SC_RPC_MSG;
	}
}

long sc_rpc_fill(struct sc_rpc *rpc)
{
	ssize_t n;

	sc_buf_grow(&rpc->pending, 65536);
	do
		n = read(rpc->in_fd, rpc->pending.data + rpc->pending.len,
			 rpc->pending.cap - rpc->pending.len - 1);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		sc_buf_setlen(&rpc->pending, rpc->pending.len + (size_t)n);
	else if (n == 0)
		rpc->eof = 1;
	return (long)n;
}

long long sc_rpc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for EVENTS on FD until DEADLINE (ms, -1 none): 1 ready, 0 timeout. */
static int wait_fd(int fd, short events, long long deadline)
{
	struct pollfd p = { fd, events, 0 };
	int n, left;

	for (;;) {
		left = -1;
		if (deadline >= 0) {
			long long d = deadline - sc_rpc_now_ms();

			left = d < 0 ? 0 : d > 1000000000 ? 1000000000 : (int)d;
		}
		n = poll(&p, 1, left);
		if (n > 0)
			return 1;
		if (n == 0)
			return 0;
		if (errno != EINTR)
			return -1;
	}
}

int sc_rpc_read(struct sc_rpc *rpc, int timeout_ms, struct sc_rpc_msg *m)
{
	int ret, w;

	for (;;) {
		ret = sc_rpc_take(rpc, m);
		if (ret != 0 || rpc->eof)
			return ret;
		w = wait_fd(rpc->in_fd, POLLIN,
			    timeout_ms < 0 ? -1 : sc_rpc_now_ms() + timeout_ms);
		if (w == 0)
			return SC_RPC_TIMEOUT;
		if (w < 0 || sc_rpc_fill(rpc) < 0)
			return SC_RPC_IO;
	}
}

/* Write all of DATA to the non-blocking OUT_FD before the deadline. */
static int write_bounded(int fd, const char *data, size_t len, int timeout_ms)
{
	long long deadline = timeout_ms < 0 ? -1 : sc_rpc_now_ms() + timeout_ms;
	ssize_t n;
	int w;

	while (len) {
		n = write(fd, data, len);
		if (n > 0) {
			data += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return SC_RPC_IO;
		w = wait_fd(fd, POLLOUT, deadline);
		if (w == 0)
			return SC_RPC_TIMEOUT;
		if (w < 0)
			return SC_RPC_IO;
	}
	return 0;
}

/* Send OBJ (stolen) as one line. */
static int send_obj(struct sc_rpc *rpc, json_t *obj, int timeout_ms)
{
	char *text;
	size_t len;
	int ret;

	json_object_set_new(obj, "jsonrpc", json_string("2.0"));
	/* Compact output escapes every control byte: one line, always. */
	text = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(obj);
	if (!text)   /* jansson's only failure here: memory */
		sc_die(SC_EXIT_INTERNAL, "OUT-OF-MEMORY", "cannot encode JSON");
	len = strlen(text);
	text[len] = '\n';
	ret = write_bounded(rpc->out_fd, text, len + 1, timeout_ms);
	free(text);
	return ret;
}

static json_t *or_empty(json_t *v)
{
	return v ? v : json_object();
}

int sc_rpc_request(struct sc_rpc *rpc, const char *method, json_t *params,
		   int timeout_ms, long long *id)
{
	json_t *obj = json_object();

	*id = rpc->next_id++;
	json_object_set_new(obj, "id", json_integer(*id));
	json_object_set_new(obj, "method", json_string(method));
	json_object_set_new(obj, "params", or_empty(params));
	return send_obj(rpc, obj, timeout_ms);
}

int sc_rpc_notify(struct sc_rpc *rpc, const char *method, json_t *params,
		  int timeout_ms)
{
	json_t *obj = json_object();

	json_object_set_new(obj, "method", json_string(method));
	json_object_set_new(obj, "params", or_empty(params));
	return send_obj(rpc, obj, timeout_ms);
}

int sc_rpc_respond(struct sc_rpc *rpc, json_t *id, json_t *result,
		   int timeout_ms)
{
	json_t *obj = json_object();

	json_object_set(obj, "id", id);
	json_object_set_new(obj, "result", or_empty(result));
	return send_obj(rpc, obj, timeout_ms);
}

int sc_rpc_respond_error(struct sc_rpc *rpc, json_t *id, int code,
			 const char *message, int timeout_ms)
{
	json_t *obj = json_object(), *err = json_object();

	json_object_set_new(err, "code", json_integer(code));
	json_object_set_new(err, "message",
			    sc_json_string(message, strlen(message),
					   SC_JSON_FFFD));
	json_object_set(obj, "id", id ? id : json_null());
	json_object_set_new(obj, "error", err);
	return send_obj(rpc, obj, timeout_ms);
}

const char *sc_json_str(json_t *obj, const char *name)
{
	return json_string_value(json_object_get(obj, name));
}

