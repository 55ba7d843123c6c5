/*
 * The MCP servers of an sc-agent loop: see agentmcp.h.
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "agentmcp.h"
#include "alloc.h"
#include "coproc.h"
#include "record.h"

static int to_events(struct sc_agent_mcp *am, const struct sc_record *r)
{
	return am->sink.event(am->sink.ctx, r);
}

/* A record of sc-mcp's renamed for the journal (its stop is not ours). */
static int event_as(struct sc_agent_mcp *am, const struct sc_record *r,
		    const char *type)
{
	struct sc_record ev;
	int ret;

	sc_record_init(&ev);
	sc_record_adds(&ev, "type", type);
	for (size_t i = 0; i < r->nr; i++)
		if (strcmp(r->fields[i].name, "type"))
			sc_record_add(&ev, r->fields[i].name, r->fields[i].value,
				      r->fields[i].value_len);
	ret = to_events(am, &ev);
	sc_record_release(&ev);
	return ret;
}

static struct sc_agent_mcp_tool *find(const struct sc_agent_mcp *am,
				      const char *name)
{
	for (size_t i = 0; name && i < am->nr_tools; i++)
		if (!strcmp(am->tools[i].name, name))
			return &am->tools[i];
	return NULL;
}

static int offered(struct sc_agent_mcp *am, size_t server,
		   const struct sc_record *r)
{
	const char *name = sc_record_str(r, "name");
	const char *tool = sc_record_str(r, "tool");
	const char *digest = sc_record_str(r, "digest");
	struct sc_agent_mcp_tool *t;

	if (!name || !tool || !digest || find(am, name))
		return 0;   /* sc-mcp names each tool once */
	SC_ALLOC_GROW(am->tools, am->nr_tools + 1, am->alloc_tools);
	t = &am->tools[am->nr_tools++];
	t->name = sc_xstrdup(name);
	t->tool = sc_xstrdup(tool);
	t->digest = sc_xstrdup(digest);
	t->server = server;
	if (am->sink.conversation(am->sink.ctx, r) < 0)
		return -1;
	return event_as(am, r, "mcp-tool");
}

/* A tool the model no longer gets: out of the table and the conversation. */
static int withdraw(struct sc_agent_mcp *am, const struct sc_record *r)
{
	struct sc_agent_mcp_tool *t = find(am, sc_record_str(r, "name"));
	struct sc_record w;
	int ret;

	if (to_events(am, r) < 0)
		return -1;
	if (!t)
		return 0;
	sc_record_init(&w);
	sc_record_adds(&w, "type", "tool");
	sc_record_adds(&w, "name", t->name);
	sc_record_adds(&w, "withdrawn", "1");
	sc_record_adds(&w, "label", "untrusted");
	sc_record_adds(&w, "source", am->servers[t->server].source);
	ret = am->sink.conversation(am->sink.ctx, &w);
	sc_record_release(&w);
	free(t->name);
	free(t->tool);
	free(t->digest);
	*t = am->tools[--am->nr_tools];
	return ret;
}

static void server_gone(struct sc_agent_mcp_server *s)
{
	(void)sc_coproc_end(s->cp);
	s->cp = NULL;
}

/* One record of server S that answers no call. */
static int handle(struct sc_agent_mcp *am, size_t s, const struct sc_record *r)
{
	const char *type = sc_record_type(r);

	if (!strcmp(type, "tool"))
		return offered(am, s, r);
	if (!strcmp(type, "withdrawn"))
		return withdraw(am, r);
	if (!strcmp(type, "stop"))
		return event_as(am, r, "mcp-failed");
	return 0;
}

static int ended(struct sc_agent_mcp *am, struct sc_agent_mcp_server *srv);

/*
 * Read server S's records until one of type UNTIL (with id ID when set):
 * 1 with it in R, 0 when the server ended first, -1 when a sink failed.
 * What comes before is handled: tools offered, withdrawn, failures.
 */
static int read_until(struct sc_agent_mcp *am, size_t s, const char *until,
		      const char *id, struct sc_record *r)
{
	struct sc_agent_mcp_server *srv = &am->servers[s];

	while (srv->cp && sc_reader_next(&srv->cp->rd, r) == SC_READ_RECORD) {
		const char *type = sc_record_type(r);
		const char *rid = sc_record_str(r, "id");

		if (!type)
			continue;
		if (!strcmp(type, until) && (!id || (rid && !strcmp(rid, id))))
			return 1;
		if (handle(am, s, r) < 0)
			return -1;
	}
	return ended(am, srv);
}

/*
 * What the servers said since the last call (a withdrawal while the loop
 * was busy elsewhere), read without waiting, before a call is judged.
 */
static int drain(struct sc_agent_mcp *am)
{
	struct sc_record r;
	int ret = 0;

	sc_record_init(&r);
	for (size_t s = 0; !ret && s < am->nr_servers; s++) {
		struct sc_agent_mcp_server *srv = &am->servers[s];

		while (!ret && srv->cp) {
			struct pollfd p = { srv->cp->in.fd, POLLIN, 0 };

			if (srv->cp->in.pos >= srv->cp->in.end &&
			    poll(&p, 1, 0) <= 0)
				break;
			if (sc_reader_next(&srv->cp->rd, &r) != SC_READ_RECORD)
				ret = ended(am, srv);
			else if (sc_record_type(&r))
				ret = handle(am, s, &r);
		}
	}
	sc_record_release(&r);
	return ret;
}

static int ended(struct sc_agent_mcp *am, struct sc_agent_mcp_server *srv)
{
	int st = 0;

	if (srv->cp) {
		struct sc_record gone;

		sc_record_init(&gone);
		sc_record_adds(&gone, "type", "mcp-failed");
		sc_record_adds(&gone, "code", "MCP-FAILED");
		sc_record_adds(&gone, "server", srv->name);
		sc_record_adds(&gone, "reason", "sc-mcp ended");
		st = to_events(am, &gone);
		sc_record_release(&gone);
		server_gone(srv);
	}
	return st < 0 ? -1 : 0;
}

int sc_agent_mcp_start(struct sc_agent_mcp *am, char ***argvs, size_t nr,
		       const struct sc_agent_mcp_sink *sink)
{
	struct sc_record r;
	int ret = 0;

	memset(am, 0, sizeof(*am));
	am->sink = *sink;
	am->servers = sc_xcalloc(nr ? nr : 1, sizeof(*am->servers));
	am->nr_servers = nr;
	sc_record_init(&r);
	for (size_t i = 0; !ret && i < nr; i++) {
		struct sc_agent_mcp_server *s = &am->servers[i];
		struct sc_buf src = SC_BUF_INIT;
		const char *name = NULL;

		/* sc-mcp ... --server NAME ...: the name the journal uses. */
		for (size_t k = 0; argvs[i][k] && argvs[i][k + 1]; k++)
			if (!strcmp(argvs[i][k], "--server") && !name)
				name = argvs[i][k + 1];
		s->name = sc_xstrdup(name ? name : "?");
		sc_buf_addf(&src, "mcp:%s", s->name);
		s->source = sc_buf_detach(&src, NULL);
		s->cp = sc_coproc_start(argvs[i]);
		if (read_until(am, i, "ready", NULL, &r) < 0)
			ret = -1;
	}
	sc_record_release(&r);
	return ret;
}

void sc_agent_mcp_end(struct sc_agent_mcp *am)
{
	for (size_t i = 0; i < am->nr_servers; i++) {
		server_gone(&am->servers[i]);
		free(am->servers[i].name);
		free(am->servers[i].source);
	}
	for (size_t i = 0; i < am->nr_tools; i++) {
		free(am->tools[i].name);
		free(am->tools[i].tool);
		free(am->tools[i].digest);
	}
	free(am->servers);
	free(am->tools);
	memset(am, 0, sizeof(*am));
}

int sc_agent_mcp_judged(struct sc_agent_mcp *am,
			const struct sc_record *call, struct sc_record *out)
{
	const char *name = sc_record_str(call, "tool");
	const struct sc_agent_mcp_tool *t;
	const struct sc_field *args = sc_record_get(call, "arguments");
	const char *src = sc_record_str(call, "source");

	if (drain(am) < 0)
		return -1;
	t = find(am, name);

	sc_record_adds(out, "type", "call");
	sc_record_adds(out, "id", sc_record_str(call, "id") ?
		       sc_record_str(call, "id") : "");
	sc_record_adds(out, "tool", "mcp");
	if (t) {
		sc_record_adds(out, "server", am->servers[t->server].name);
		sc_record_adds(out, "name", t->tool);
		sc_record_adds(out, "digest", t->digest);
	} else {
		/* Not offered: judged by its name, with no definition. */
		const char *p = name ? name + 5 : "";
		const char *sep = strstr(p, "__");
		struct sc_buf server = SC_BUF_INIT;

		sc_buf_add(&server, p, sep ? (size_t)(sep - p) : strlen(p));
		sc_record_adds(out, "server", server.data ? server.data : "");
		sc_record_adds(out, "name", sep ? sep + 2 : "");
		sc_buf_release(&server);
	}
	sc_record_adds(out, "source", src ? src : "model");
	if (args)
		sc_record_add(out, "arguments", args->value, args->value_len);
	return 0;
}

int sc_agent_mcp_call(struct sc_agent_mcp *am, const struct sc_record *call,
		      size_t max, struct sc_buf *text, int *ok, int *truncated,
		      const char **source)
{
	const struct sc_agent_mcp_tool *t = find(am, sc_record_str(call, "tool"));
	struct sc_agent_mcp_server *s;
	struct sc_record r;
	const struct sc_field *f;
	const char *outcome;
	int st;

	*ok = 0;
	*source = "speccoder";
	if (!t) {
		sc_buf_adds(text, "no such MCP tool is offered (unknown, not "
			    "allowed, or withdrawn because its definition "
			    "changed)");
		return 0;
	}
	s = &am->servers[t->server];
	*source = s->source;
	if (!s->cp || sc_coproc_send(s->cp, call) < 0) {
		sc_buf_addf(text, "the MCP server '%s' is not running", s->name);
		return 0;
	}
	sc_record_init(&r);
	st = read_until(am, t->server, "tool-result",
			sc_record_str(call, "id") ? sc_record_str(call, "id") : "",
			&r);
	if (st > 0) {
		f = sc_record_get(&r, "text");
		outcome = sc_record_str(&r, "outcome");
		*ok = outcome && !strcmp(outcome, "ok");
		if (f) {
			size_t n = f->value_len > max ? max : f->value_len;

			sc_buf_add(text, f->value, n);
			*truncated = n < f->value_len;
		}
		if (sc_record_str(&r, "truncated") &&
		    !strcmp(sc_record_str(&r, "truncated"), "yes"))
			*truncated = 1;
	} else if (st == 0) {
		sc_buf_addf(text, "the MCP server '%s' ended", s->name);
	}
	sc_record_release(&r);
	return st < 0 ? -1 : 0;
}
