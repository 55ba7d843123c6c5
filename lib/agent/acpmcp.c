/*
 * The MCP servers an external agent gets: see acpmcp.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "acpmcp.h"
#include "alloc.h"
#include "diag.h"
#include "jsonstr.h"
#include "mcp.h"
#include "opt.h"
#include "record.h"

/* Versions answered as asked; any other is answered with ours. */
static const char *const versions[] = {
	SC_MCP_VERSION, "2025-06-18", "2025-03-26", "2024-11-05", NULL,
};

/* ---- the tools the caller offered ----------------------------------- */

static void tool_release(struct sc_acpmcp_tool *t)
{
	free(t->name);
	free(t->server);
	free(t->tool);
	free(t->description);
	json_decref(t->schema);
}

void sc_acpmcp_tools_release(struct sc_acpmcp_tools *t)
{
	for (size_t i = 0; i < t->nr; i++)
		tool_release(&t->v[i]);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static long find_name(const struct sc_acpmcp_tools *t, const char *name)
{
	for (size_t i = 0; name && i < t->nr; i++)
		if (!strcmp(t->v[i].name, name))
			return (long)i;
	return -1;
}

const struct sc_acpmcp_tool *sc_acpmcp_find(const struct sc_acpmcp_tools *t,
					    const char *server,
					    const char *name)
{
	for (size_t i = 0; name && i < t->nr; i++)
		if (!strcmp(t->v[i].server, server) && !strcmp(t->v[i].tool, name))
			return &t->v[i];
	return NULL;
}

/* 1 when NAME is exactly mcp__SERVER__TOOL of two valid names. */
static int names_agree(const char *name, const char *server, const char *tool)
{
	size_t ls, lt;

	if (!name || !server || !tool || !sc_mcp_name_ok(server, SC_ACPMCP_SERVER_MAX) ||
	    strstr(server, "__") || !sc_mcp_name_ok(tool, 64))
		return 0;
	ls = strlen(server);
	lt = strlen(tool);
	return strlen(name) == 5 + ls + 2 + lt && !strncmp(name, "mcp__", 5) &&
	       !strncmp(name + 5, server, ls) && !strncmp(name + 5 + ls, "__", 2) &&
	       !strcmp(name + 7 + ls, tool);
}

int sc_acpmcp_take_tool(struct sc_acpmcp_tools *t, const struct sc_record *r,
			char server_out[SC_ACPMCP_SERVER_MAX + 1])
{
	const char *name = sc_record_str(r, "name");
	const char *server = sc_record_str(r, "server");
	const char *tool = sc_record_str(r, "tool");
	const char *w = sc_record_str(r, "withdrawn");
	const struct sc_field *desc = sc_record_get(r, "description");
	const struct sc_field *schema = sc_record_get(r, "schema");
	struct sc_acpmcp_tool *n;
	long i = find_name(t, name);
	json_t *js;

	if (w && !strcmp(w, "1")) {
		if (i < 0)
			return 0;
		snprintf(server_out, SC_ACPMCP_SERVER_MAX + 1, "%s",
			 t->v[i].server);
		tool_release(&t->v[i]);
		t->v[i] = t->v[--t->nr];
		return 1;
	}
	if (i >= 0 || !names_agree(name, server, tool) || !schema)
		return 0;
	js = json_loadb(schema->value, schema->value_len, JSON_REJECT_DUPLICATES,
			NULL);
	if (!json_is_object(js)) {
		json_decref(js);
		return 0;
	}
	SC_ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	n = &t->v[t->nr++];
	n->name = sc_xstrdup(name);
	n->server = sc_xstrdup(server);
	n->tool = sc_xstrdup(tool);
	n->description = desc ? sc_xmemdup(desc->value, desc->value_len) :
			 sc_xstrdup("");
	n->schema = js;
	snprintf(server_out, SC_ACPMCP_SERVER_MAX + 1, "%s", server);
	return 1;
}

/* ---- one message of a connection ------------------------------------ */

static enum sc_acpmcp_action fail(struct sc_acpmcp_reply *reply, int code,
				  const char *message)
{
	reply->code = code;
	reply->message = message;
	return SC_ACPMCP_ERROR;
}

static json_t *initialize(const struct sc_rpc_msg *m)
{
	const char *asked = sc_json_str(m->params, "protocolVersion");
	const char *version = SC_MCP_VERSION;

	for (size_t i = 0; asked && versions[i]; i++)
		if (!strcmp(asked, versions[i]))
			version = versions[i];
	return json_pack("{s:s, s:{s:{s:b}}, s:{s:s, s:s}}",
			 "protocolVersion", version,
			 "capabilities", "tools", "listChanged", 1,
			 "serverInfo", "name", "speccoder", "version", SC_VERSION);
}

static json_t *list(const struct sc_acpmcp_tools *t, const char *server)
{
	json_t *tools = json_array();

	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->v[i].server, server))
			json_array_append_new(tools, json_pack("{s:s, s:s, s:O}",
				"name", t->v[i].tool, "description",
				t->v[i].description, "inputSchema",
				t->v[i].schema));
	return json_pack("{s:o}", "tools", tools);
}

static enum sc_acpmcp_action call(const struct sc_acpmcp_tools *t,
				  const char *server,
				  const struct sc_rpc_msg *m, unsigned long id,
				  struct sc_record *rec,
				  struct sc_acpmcp_reply *reply)
{
	const struct sc_acpmcp_tool *tool;
	json_t *args;
	char *json;

	if (!json_is_object(m->params))
		return fail(reply, SC_RPC_INVALID_PARAMS, "params must be an object");
	tool = sc_acpmcp_find(t, server, sc_json_str(m->params, "name"));
	if (!tool)
		return fail(reply, SC_RPC_INVALID_PARAMS, "no such tool is offered "
			    "(unknown, not allowed, or withdrawn because its "
			    "definition changed)");
	args = json_object_get(m->params, "arguments");
	if (args && !json_is_object(args))
		return fail(reply, SC_RPC_INVALID_PARAMS, "arguments must be an "
			    "object");
	json = args ? json_dumps(args, JSON_COMPACT | JSON_ENCODE_ANY) :
	       sc_xstrdup("{}");
	if (!json)
		return fail(reply, SC_RPC_INVALID_PARAMS, "arguments cannot be "
			    "encoded");
	sc_record_init(rec);
	sc_record_adds(rec, "type", "call");
	sc_record_addu(rec, "id", id);
	sc_record_adds(rec, "tool", tool->name);
	sc_record_adds(rec, "arguments", json);
	free(json);
	return SC_ACPMCP_CALL;
}

enum sc_acpmcp_action sc_acpmcp_handle(const struct sc_acpmcp_tools *t,
				       const char *server,
				       const struct sc_rpc_msg *m,
				       unsigned long id,
				       struct sc_record *rec,
				       struct sc_acpmcp_reply *reply)
{
	memset(reply, 0, sizeof(*reply));
	/* Notifications (initialized, cancelled, progress) and responses
	 * (the server asks nothing) need no answer. */
	if (m->kind != SC_RPC_REQUEST)
		return SC_ACPMCP_NOTHING;
	if (!strcmp(m->method, "initialize")) {
		reply->result = initialize(m);
		return SC_ACPMCP_RESULT;
	}
	if (!strcmp(m->method, "ping")) {
		reply->result = json_object();
		return SC_ACPMCP_RESULT;
	}
	if (!strcmp(m->method, "tools/list")) {
		reply->result = list(t, server);
		return SC_ACPMCP_RESULT;
	}
	if (!strcmp(m->method, "tools/call"))
		return call(t, server, m, id, rec, reply);
	return fail(reply, SC_RPC_METHOD_NOT_FOUND, "method not found");
}

json_t *sc_acpmcp_call_result(const char *text, size_t len, int is_error)
{
	return json_pack("{s:[{s:s, s:o}], s:b}", "content", "type", "text",
			 "text", sc_json_string(text, len, SC_JSON_FFFD),
			 "isError", is_error);
}

/* ---- sockets --------------------------------------------------------- */

void sc_acpmcp_init(struct sc_acpmcp *m)
{
	memset(m, 0, sizeof(*m));
	m->dirfd = -1;
}

void sc_acpmcp_release(struct sc_acpmcp *m)
{
	while (m->nr_conns)
		sc_acpmcp_drop(m, 0);
	for (size_t i = 0; i < m->nr; i++) {
		struct sc_buf base = SC_BUF_INIT;

		if (m->listen[i] >= 0)
			close(m->listen[i]);
		/*
		 * Through the directory as created: the agent may have put a
		 * link to another directory at its path, and nothing of the
		 * person's is removed through it.
		 */
		sc_buf_addf(&base, "%s.sock", m->servers[i]);
		if (m->paths[i] && m->dirfd >= 0)
			(void)unlinkat(m->dirfd, base.data, 0);
		sc_buf_release(&base);
		free(m->paths[i]);
		free(m->servers[i]);
	}
	if (m->dirfd >= 0)
		close(m->dirfd);
	free(m->dir);
	free(m->paths);
	free(m->servers);
	free(m->listen);
	sc_acpmcp_tools_release(&m->tools);
	memset(m, 0, sizeof(*m));
}

/*
 * Bind a listening socket at DIR/NAME.sock.  A path too long for
 * sun_path is reached through the directory's descriptor.
 */
static int listen_at(int dirfd, const char *path, const char *base)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0)
		return -1;
	if (strlen(path) < sizeof(sa.sun_path))
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	else
		snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s",
			 dirfd, base);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, SC_ACPMCP_MAX_CONNS) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int sc_acpmcp_open(struct sc_acpmcp *m, const char *home,
		   char *const *servers, size_t nr)
{
	struct sc_buf b = SC_BUF_INIT;
	int dirfd;

	sc_buf_addf(&b, "%s/mcp", home);
	/* New, so no socket or link planted before the session is in it. */
	if (mkdir(b.data, 0700) < 0) {
		sc_error_errno("MCP-RELAY", "cannot create '%s'", b.data);
		sc_buf_release(&b);
		return -1;
	}
	m->dir = sc_buf_detach(&b, NULL);
	dirfd = open(m->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0)
		return sc_error_errno("MCP-RELAY", "cannot open '%s'", m->dir);
	m->dirfd = dirfd;
	m->servers = sc_xcalloc(nr + 1, sizeof(*m->servers));
	m->paths = sc_xcalloc(nr + 1, sizeof(*m->paths));
	m->listen = sc_xcalloc(nr + 1, sizeof(*m->listen));
	for (size_t i = 0; i < nr; i++) {
		struct sc_buf base = SC_BUF_INIT, path = SC_BUF_INIT;

		sc_buf_addf(&base, "%s.sock", servers[i]);
		sc_buf_addf(&path, "%s/%s", m->dir, base.data);
		m->servers[i] = sc_xstrdup(servers[i]);
		m->paths[i] = sc_buf_detach(&path, NULL);
		m->listen[i] = listen_at(dirfd, m->paths[i], base.data);
		m->nr++;
		sc_buf_release(&base);
		if (m->listen[i] < 0) {
			sc_error_errno("MCP-RELAY", "cannot listen on '%s'",
				       m->paths[i]);
			free(m->paths[i]);
			m->paths[i] = NULL;
			return -1;
		}
	}
	return 0;
}

json_t *sc_acpmcp_servers(const struct sc_acpmcp *m, const char *relay)
{
	json_t *list = json_array();

	for (size_t i = 0; i < m->nr; i++) {
		int offered = 0;

		for (size_t k = 0; k < m->tools.nr && !offered; k++)
			offered = !strcmp(m->tools.v[k].server, m->servers[i]);
		if (offered)
			json_array_append_new(list, json_pack(
				"{s:s, s:s, s:[s, s], s:[]}", "name",
				m->servers[i], "command", relay, "args",
				"--relay", m->paths[i], "env"));
	}
	return list;
}

size_t sc_acpmcp_pollfds(const struct sc_acpmcp *m, struct pollfd *p)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nr; i++)
		p[n++] = (struct pollfd){ m->listen[i], POLLIN, 0 };
	for (size_t i = 0; i < m->nr_conns; i++)
		p[n++] = (struct pollfd){ m->conns[i].rpc.in_fd, POLLIN, 0 };
	return n;
}

void sc_acpmcp_accept(struct sc_acpmcp *m, size_t i)
{
	struct sc_acpmcp_conn *c;
	int fd = accept4(m->listen[i], NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (m->nr_conns == SC_ACPMCP_MAX_CONNS) {
		sc_warning("MCP-RELAY", "more than %d MCP connections: one "
			   "closed", SC_ACPMCP_MAX_CONNS);
		close(fd);
		return;
	}
	c = &m->conns[m->nr_conns++];
	sc_rpc_init(&c->rpc, fd, fd);
	c->rpc.max_line = SC_ACPMCP_MAX_LINE;
	c->server = i;
}

void sc_acpmcp_drop(struct sc_acpmcp *m, size_t i)
{
	close(m->conns[i].rpc.in_fd);
	sc_rpc_release(&m->conns[i].rpc);
	m->conns[i] = m->conns[--m->nr_conns];
}
