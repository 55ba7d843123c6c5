/*
 * The MCP client: see mcp.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "alloc.h"
#include "encode.h"
#include "intoto.h"
#include "jsonstr.h"
#include "mcp.h"
#include "model.h"
#include "process.h"
#include "record.h"
#include "strlist.h"

/* Pages of tools/list followed: a server cycling cursors is cut off. */
#define MAX_PAGES 64

/* How long a clean end waits for the server before killing it. */
#define STOP_MS 2000

static const char *const versions[] = {
	SC_MCP_VERSION, "2025-06-18", "2025-03-26", "2024-11-05", NULL,
};

const char *sc_mcp_code(int status)
{
	switch (status) {
	case SC_MCP_MALFORMED: return "MCP-MALFORMED";
	case SC_MCP_UNKNOWN_ID: return "MCP-UNKNOWN-ID";
	case SC_MCP_TOO_LARGE: return "MCP-TOO-LARGE";
	case SC_MCP_BAD_TOOL: return "MCP-BAD-TOOL";
	case SC_MCP_VERSION_BAD: return "MCP-VERSION";
	case SC_MCP_START: return "MCP-START";
	default: return "MCP-FAILED";
	}
}

/* ---- tool definitions ---------------------------------------------- */

void sc_mcp_tools_release(struct sc_mcp_tools *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		free(t->v[i].name);
		free(t->v[i].description);
		free(t->v[i].schema);
		free(t->v[i].definition);
		json_decref(t->v[i].schema_json);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const struct sc_mcp_tool *sc_mcp_tools_find(const struct sc_mcp_tools *t,
					    const char *name)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->v[i].name, name))
			return &t->v[i];
	return NULL;
}

int sc_mcp_name_ok(const char *name, size_t max)
{
	size_t n = strlen(name);

	if (!n || n > max)
		return 0;
	/* Provider tool names take these only; a path separator or a
	 * control byte in a name is refused, never cleaned. */
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789_-") == n;
}

static int digest_hex(const char *text, char out[72])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;

	if (!EVP_Digest(text, strlen(text), md, &len, EVP_sha256(), NULL) ||
	    len != 32)
		return -1;
	memcpy(out, "sha256:", 7);
	sc_sha256_hex(md, out + 7);
	return 0;
}

/* The canonical JSON of V, or NULL. */
static char *canonical(json_t *v)
{
	struct sc_buf b = SC_BUF_INIT;

	if (sc_canonical_json(v, &b) < 0) {
		sc_buf_release(&b);
		return NULL;
	}
	return sc_buf_detach(&b, NULL);
}

/* One definition of tools/list into TOOL. */
static int parse_tool(json_t *def, struct sc_mcp_tool *tool, const char **why)
{
	json_t *name = json_object_get(def, "name");
	json_t *desc = json_object_get(def, "description");
	json_t *schema = json_object_get(def, "inputSchema");
	json_t *ann = json_object_get(def, "annotations");
	json_t *pinned;

	memset(tool, 0, sizeof(*tool));
	if (!json_is_object(def))
		return *why = "a tool definition is not an object", SC_MCP_BAD_TOOL;
	if (!json_is_string(name) ||
	    strlen(json_string_value(name)) != json_string_length(name) ||
	    !sc_mcp_name_ok(json_string_value(name), 64))
		return *why = "a tool name is not 1 to 64 of [A-Za-z0-9_-]",
		       SC_MCP_BAD_TOOL;
	if (desc && !json_is_string(desc))
		return *why = "a tool description is not a string", SC_MCP_BAD_TOOL;
	if (!json_is_object(schema) ||
	    !json_is_string(json_object_get(schema, "type")) ||
	    strcmp(json_string_value(json_object_get(schema, "type")), "object"))
		return *why = "a tool's inputSchema is not an object schema",
		       SC_MCP_BAD_TOOL;
	if (ann && !json_is_object(ann))
		return *why = "a tool's annotations are not an object",
		       SC_MCP_BAD_TOOL;
	pinned = json_pack("{s:O, s:O}", "name", name, "inputSchema", schema);
	if (desc)
		json_object_set(pinned, "description", desc);
	if (ann)
		json_object_set(pinned, "annotations", ann);
	tool->definition = canonical(pinned);
	json_decref(pinned);
	tool->schema = canonical(schema);
	if (!tool->definition || !tool->schema ||
	    digest_hex(tool->definition, tool->digest) < 0) {
		free(tool->definition);
		free(tool->schema);
		memset(tool, 0, sizeof(*tool));
		return *why = "a tool definition cannot be digested", SC_MCP_BAD_TOOL;
	}
	tool->name = sc_xstrdup(json_string_value(name));
	tool->description = sc_xstrdup(desc ? json_string_value(desc) : "");
	tool->schema_json = json_incref(schema);
	return SC_MCP_OK;
}

int sc_mcp_parse_tools(json_t *result, struct sc_mcp_tools *t,
		       const char **cursor, const char **why)
{
	json_t *list = json_object_get(result, "tools");
	json_t *next = json_object_get(result, "nextCursor");
	size_t i;
	int st;

	*cursor = NULL;
	if (!json_is_object(result) || !json_is_array(list))
		return *why = "tools/list gave no tools array", SC_MCP_MALFORMED;
	if (next && !json_is_null(next) && !json_is_string(next))
		return *why = "tools/list gave a cursor that is not a string",
		       SC_MCP_MALFORMED;
	if (t->nr + json_array_size(list) > SC_MCP_MAX_TOOLS)
		return *why = "the server defines too many tools", SC_MCP_TOO_LARGE;
	for (i = 0; i < json_array_size(list); i++) {
		struct sc_mcp_tool tool;

		st = parse_tool(json_array_get(list, i), &tool, why);
		if (st)
			return st;
		if (sc_mcp_tools_find(t, tool.name)) {
			struct sc_mcp_tools one = { NULL, 0, 0 };

			*why = "two tools have one name";
			SC_ALLOC_GROW(one.v, 1, one.alloc);
			one.v[one.nr++] = tool;
			sc_mcp_tools_release(&one);
			return SC_MCP_BAD_TOOL;
		}
		SC_ALLOC_GROW(t->v, t->nr + 1, t->alloc);
		t->v[t->nr++] = tool;
	}
	if (json_is_string(next) && json_string_length(next))
		*cursor = json_string_value(next);
	return SC_MCP_OK;
}

/* ---- results ------------------------------------------------------- */

static void add_capped(struct sc_buf *out, const char *s, size_t len,
		       size_t max, int *truncated)
{
	if (out->len >= max) {
		*truncated |= len > 0;
		return;
	}
	if (len > max - out->len) {
		len = max - out->len;
		*truncated = 1;
	}
	sc_buf_add(out, s, len);
}

/* One content item of a result, as text for the model. */
static int item_text(json_t *it, size_t max, struct sc_buf *out,
		     int *truncated, const char **why)
{
	const char *type = sc_json_str(it, "type");
	json_t *text = json_object_get(it, "text");
	json_t *res = json_object_get(it, "resource");
	char line[512];

	if (!type)
		return *why = "a content item has no type", SC_MCP_MALFORMED;
	if (out->len)
		add_capped(out, "\n", 1, max, truncated);
	if (!strcmp(type, "text")) {
		if (!json_is_string(text))
			return *why = "a text item has no text", SC_MCP_MALFORMED;
		add_capped(out, json_string_value(text), json_string_length(text),
			   max, truncated);
		return SC_MCP_OK;
	}
	if (!strcmp(type, "resource") && json_is_object(res)) {
		json_t *rt = json_object_get(res, "text");

		snprintf(line, sizeof(line), "[resource %.400s]\n",
			 sc_json_str(res, "uri") ? sc_json_str(res, "uri") : "");
		add_capped(out, line, strlen(line), max, truncated);
		if (json_is_string(rt))
			add_capped(out, json_string_value(rt),
				   json_string_length(rt), max, truncated);
		else
			add_capped(out, "[binary content not shown]", 26, max,
				   truncated);
		return SC_MCP_OK;
	}
	/* Images, audio, links: named, never passed on as bytes. */
	snprintf(line, sizeof(line), "[%.40s %.400s]", type,
		 sc_json_str(it, "uri") ? sc_json_str(it, "uri") :
		 sc_json_str(it, "mimeType") ? sc_json_str(it, "mimeType") : "");
	add_capped(out, line, strlen(line), max, truncated);
	return SC_MCP_OK;
}

int sc_mcp_result_text(json_t *result, size_t max, struct sc_buf *out,
		       int *truncated, int *is_error, const char **why)
{
	json_t *content = json_object_get(result, "content");
	json_t *structured = json_object_get(result, "structuredContent");
	json_t *err = json_object_get(result, "isError");
	size_t i;
	int st;

	*is_error = 0;
	if (!json_is_object(result))
		return *why = "a tool result is not an object", SC_MCP_MALFORMED;
	if (err && !json_is_boolean(err))
		return *why = "isError is not a boolean", SC_MCP_MALFORMED;
	*is_error = json_is_true(err);
	if (content && !json_is_array(content))
		return *why = "a tool result's content is not an array",
		       SC_MCP_MALFORMED;
	for (i = 0; content && i < json_array_size(content); i++) {
		st = item_text(json_array_get(content, i), max, out, truncated,
			       why);
		if (st)
			return st;
	}
	if ((!content || !json_array_size(content)) && structured) {
		char *js = canonical(structured);

		if (js)
			add_capped(out, js, strlen(js), max, truncated);
		free(js);
	}
	return SC_MCP_OK;
}

/* ---- call arguments ------------------------------------------------ */

static const char *declared_type(json_t *schema, const char *name)
{
	json_t *props = json_object_get(schema, "properties");

	return sc_json_str(json_object_get(props, name), "type");
}

static json_t *arg_value(const struct sc_field *f, const char *type,
			 const char **why)
{
	json_t *v;

	if (!type || !strcmp(type, "string"))
		return sc_json_string(f->value, f->value_len, "?");
	if (memchr(f->value, '\0', f->value_len)) {
		*why = "an argument holds a NUL";
		return NULL;
	}
	v = json_loadb(f->value, f->value_len,
		       JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
	if (!v)
		*why = "an argument is not JSON of its declared type";
	return v;
}

json_t *sc_mcp_call_args(const struct sc_record *call, json_t *schema,
			 const char **why)
{
	const struct sc_field *whole = sc_record_get(call, "arguments");
	json_t *args;

	if (whole) {
		args = json_loadb(whole->value, whole->value_len,
				  JSON_REJECT_DUPLICATES, NULL);
		if (json_is_object(args))
			return args;
		json_decref(args);
		*why = "arguments= is not a JSON object";
		return NULL;
	}
	args = json_object();

	for (size_t i = 0; i < call->nr; i++) {
		const struct sc_field *f = &call->fields[i];
		const char *type = declared_type(schema, f->name);
		json_t *old, *v;

		if (sc_call_field_reserved(f->name))
			continue;
		old = json_object_get(args, f->name);
		/* A list of strings comes as the field repeated. */
		if (type && !strcmp(type, "array"))
			v = sc_json_string(f->value, f->value_len, "?");
		else
			v = arg_value(f, type, why);
		if (!v) {
			json_decref(args);
			return NULL;
		}
		if (type && !strcmp(type, "array")) {
			json_t *parsed = json_loadb(f->value, f->value_len, 0, NULL);

			if (!old && json_is_array(parsed)) {
				json_decref(v);
				json_object_set_new(args, f->name, parsed);
				continue;
			}
			json_decref(parsed);
			if (!old) {
				old = json_array();
				json_object_set_new(args, f->name, old);
			}
		}
		if (!old)
			json_object_set_new(args, f->name, v);
		else if (json_is_array(old))
			json_array_append_new(old, v);
		else {
			json_decref(v);
			json_decref(args);
			*why = "an argument that is not a list is repeated";
			return NULL;
		}
	}
	return args;
}

/* ---- the server's process ------------------------------------------ */

void sc_mcp_init(struct sc_mcp *m, int timeout_ms)
{
	memset(m, 0, sizeof(*m));
	m->pid = -1;
	m->timeout_ms = timeout_ms;
	m->rpc.in_fd = m->rpc.out_fd = -1;
}

int sc_mcp_start(struct sc_mcp *m, char *const argv[], int stderr_fd)
{
	struct sc_piped p;
	enum sc_spawn_step st;
	int err = stderr_fd;

	if (err < 0)
		err = open("/dev/null", O_WRONLY | O_CLOEXEC);
	st = err < 0 ? SC_SPAWN_FORK : sc_spawn_piped(argv, NULL, NULL, err, &p);
	if (err >= 0 && err != stderr_fd)
		close(err);
	if (st == SC_SPAWN_PIPES)
		return m->why = "cannot make pipes", SC_MCP_START;
	if (st == SC_SPAWN_FORK)
		return m->why = "cannot fork", SC_MCP_START;
	m->pid = p.pid;
	sc_rpc_init(&m->rpc, p.from, p.to);
	m->rpc.max_line = SC_MCP_MAX_MESSAGE;
	if (st == SC_SPAWN_EXEC) {
		int e = errno;

		sc_mcp_stop(m);
		errno = e;
		return m->why = "the server's command cannot be executed",
		       SC_MCP_START;
	}
	return SC_MCP_OK;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* 1 once PID exited, left unreaped (so its group id cannot be reused). */
static int exited(pid_t pid)
{
	siginfo_t info;

	memset(&info, 0, sizeof(info));
	if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno != EINTR;
	return info.si_pid == pid;
}

void sc_mcp_stop(struct sc_mcp *m)
{
	long long end = sc_rpc_now_ms() + STOP_MS;

	if (m->rpc.out_fd >= 0)
		close(m->rpc.out_fd);
	m->rpc.out_fd = -1;
	if (m->pid > 0) {
		/* stdio servers end when their input ends (the spec's
		 * shutdown); what is left of the group is killed while the
		 * leader is still unreaped, then the leader is reaped. */
		while (!exited(m->pid) && sc_rpc_now_ms() < end)
			sleep_ms(20);
		(void)kill(-m->pid, SIGKILL);
		(void)kill(m->pid, SIGKILL);
		while (waitpid(m->pid, NULL, 0) < 0 && errno == EINTR)
			;
		m->pid = -1;
		sc_kill_group_on_fatal_signal(0);
	}
	if (m->rpc.in_fd >= 0) {
		close(m->rpc.in_fd);
		m->rpc.in_fd = -1;
		sc_buf_release(&m->rpc.pending);
	}
}

/* ---- requests and their answers ------------------------------------ */

static int rpc_status(struct sc_mcp *m, int st)
{
	switch (st) {
	case SC_RPC_MALFORMED:
		m->why = m->rpc.why ? m->rpc.why : "malformed message";
		return SC_MCP_MALFORMED;
	case SC_RPC_TOO_LONG:
		m->why = "a message is larger than the cap";
		return SC_MCP_TOO_LARGE;
	case SC_RPC_TIMEOUT:
		m->why = "the server did not answer in time";
		return SC_MCP_FAILED;
	case SC_RPC_EOF:
		m->why = "the server exited";
		return SC_MCP_FAILED;
	default:
		m->why = "the server's pipe failed";
		return SC_MCP_FAILED;
	}
}

/* A request of the server's own: ping answered, anything else refused
 * (this client offers no roots, sampling or elicitation). */
static int server_request(struct sc_mcp *m, struct sc_rpc_msg *msg)
{
	int st;

	if (!strcmp(msg->method, "ping"))
		st = sc_rpc_respond(&m->rpc, msg->id, json_object(),
				    m->timeout_ms);
	else
		st = sc_rpc_respond_error(&m->rpc, msg->id,
					  SC_RPC_METHOD_NOT_FOUND,
					  "not offered by this client",
					  m->timeout_ms);
	return st ? rpc_status(m, st) : SC_MCP_OK;
}

/*
 * Send METHOD with PARAMS (stolen) and wait for its answer, handling what
 * the server says meanwhile.  *RESULT owns the result (the caller
 * decrefs); a JSON-RPC error gives SC_MCP_OK with *RESULT NULL and
 * ERRTEXT set to "error CODE: MESSAGE".
 */
static int request(struct sc_mcp *m, const char *method, json_t *params,
		   json_t **result, struct sc_buf *errtext)
{
	long long id, deadline = sc_rpc_now_ms() + m->timeout_ms;
	struct sc_rpc_msg msg;
	int st;

	*result = NULL;
	if (m->pid <= 0) {
		json_decref(params);
		return m->why = "the server is not running", SC_MCP_FAILED;
	}
	st = sc_rpc_request(&m->rpc, method, params, m->timeout_ms, &id);
	if (st)
		return rpc_status(m, st);
	for (;;) {
		long long left = deadline - sc_rpc_now_ms();

		sc_rpc_msg_init(&msg);
		st = sc_rpc_read(&m->rpc, left < 0 ? 0 : (int)left, &msg);
		if (st != SC_RPC_MSG) {
			sc_rpc_msg_release(&msg);
			return rpc_status(m, st);
		}
		st = SC_MCP_OK;
		if (msg.kind == SC_RPC_REQUEST)
			st = server_request(m, &msg);
		else if (msg.kind == SC_RPC_NOTIFICATION) {
			if (!strcmp(msg.method, "notifications/tools/list_changed"))
				m->list_changed = 1;
			else if (!strcmp(msg.method, "notifications/progress"))
				m->progress++;   /* counted, never shown */
		} else if (!json_is_integer(msg.id) ||
			   json_integer_value(msg.id) != id) {
			m->why = "a response to a request never made";
			st = SC_MCP_UNKNOWN_ID;
		} else if (msg.kind == SC_RPC_RESULT) {
			*result = json_incref(msg.result);
			sc_rpc_msg_release(&msg);
			return SC_MCP_OK;
		} else {
			sc_buf_addf(errtext, "error %lld: %s", msg.error_code,
				    msg.error_message);
			sc_rpc_msg_release(&msg);
			return SC_MCP_OK;
		}
		sc_rpc_msg_release(&msg);
		if (st)
			return st;
	}
}

int sc_mcp_initialize(struct sc_mcp *m)
{
	json_t *params, *result = NULL;
	struct sc_buf err = SC_BUF_INIT;
	const char *v;
	int st, known;

	params = json_pack("{s:s, s:{}, s:{s:s, s:s}}",
			   "protocolVersion", SC_MCP_VERSION, "capabilities",
			   "clientInfo", "name", "speccoder", "version", "1");
	st = request(m, "initialize", params, &result, &err);
	if (!st && !result) {
		m->why = "the server refused initialize";
		st = SC_MCP_FAILED;
	}
	v = st ? NULL : sc_json_str(result, "protocolVersion");
	known = v && sc_str_in_list(v, versions);
	if (!st && !known) {
		m->why = "the server speaks no protocol version this client "
			 "knows";
		st = SC_MCP_VERSION_BAD;
	}
	if (!st && !json_is_object(json_object_get(result, "capabilities"))) {
		m->why = "initialize gave no capabilities";
		st = SC_MCP_MALFORMED;
	}
	if (!st) {
		snprintf(m->version, sizeof(m->version), "%s", v);
		if (sc_rpc_notify(&m->rpc, "notifications/initialized", NULL,
				  m->timeout_ms))
			st = rpc_status(m, SC_RPC_IO);
	}
	json_decref(result);
	sc_buf_release(&err);
	/* A list_changed before the first list says nothing. */
	m->list_changed = 0;
	return st;
}

int sc_mcp_list_tools(struct sc_mcp *m, struct sc_mcp_tools *t)
{
	char *cursor = NULL;
	int st = SC_MCP_OK;

	sc_mcp_tools_release(t);
	m->list_changed = 0;
	for (int page = 0; !st; page++) {
		json_t *params = json_object(), *result = NULL;
		struct sc_buf err = SC_BUF_INIT;
		const char *next = NULL;

		if (page == MAX_PAGES) {
			json_decref(params);
			m->why = "tools/list gave too many pages";
			st = SC_MCP_TOO_LARGE;
			break;
		}
		if (cursor)
			json_object_set_new(params, "cursor", json_string(cursor));
		st = request(m, "tools/list", params, &result, &err);
		if (!st && !result) {
			m->why = "the server refused tools/list";
			st = SC_MCP_FAILED;
		}
		if (!st)
			st = sc_mcp_parse_tools(result, t, &next, &m->why);
		free(cursor);
		cursor = next ? sc_xstrdup(next) : NULL;
		json_decref(result);
		sc_buf_release(&err);
		if (!cursor)
			break;
	}
	free(cursor);
	if (st)
		sc_mcp_tools_release(t);
	return st;
}

int sc_mcp_call(struct sc_mcp *m, const char *name, json_t *args, size_t max,
		struct sc_buf *out, int *truncated, int *is_error)
{
	/* The token is the id the request gets: progress is allowed, and
	 * counted, but never extends the deadline (a server could send it
	 * forever). */
	json_t *params = json_pack("{s:s, s:o, s:{s:I}}", "name", name,
				   "arguments", args, "_meta", "progressToken",
				   (json_int_t)m->rpc.next_id), *result = NULL;
	struct sc_buf err = SC_BUF_INIT;
	int st;

	*is_error = 0;
	m->progress = 0;
	st = request(m, "tools/call", params, &result, &err);
	if (!st && !result) {
		*is_error = 1;
		add_capped(out, err.data, err.len, max, truncated);
	} else if (!st) {
		st = sc_mcp_result_text(result, max, out, truncated, is_error,
					&m->why);
	}
	json_decref(result);
	sc_buf_release(&err);
	return st;
}

int sc_mcp_pump(struct sc_mcp *m, int fill)
{
	struct sc_rpc_msg msg;
	int st = SC_MCP_OK;

	if (m->pid <= 0)
		return m->why = "the server is not running", SC_MCP_FAILED;
	if (fill && sc_rpc_fill(&m->rpc) < 0)
		return rpc_status(m, SC_RPC_IO);
	for (;;) {
		sc_rpc_msg_init(&msg);
		st = sc_rpc_take(&m->rpc, &msg);
		if (st != SC_RPC_MSG) {
			sc_rpc_msg_release(&msg);
			return st == 0 ? SC_MCP_OK : rpc_status(m, st);
		}
		st = SC_MCP_OK;
		if (msg.kind == SC_RPC_REQUEST)
			st = server_request(m, &msg);
		else if (msg.kind == SC_RPC_NOTIFICATION &&
			 !strcmp(msg.method, "notifications/tools/list_changed"))
			m->list_changed = 1;
		else if (msg.kind != SC_RPC_NOTIFICATION) {
			m->why = "a response to a request never made";
			st = SC_MCP_UNKNOWN_ID;
		}
		sc_rpc_msg_release(&msg);
		if (st)
			return st;
	}
}
