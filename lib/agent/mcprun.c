/*
 * sc-mcp's session: see mcprun.h.
 *
 * One thread: while the caller has nothing to say, the server's pipe is
 * read too (the input's idle hook), so a list_changed withdraws a changed
 * tool when the server sends it, not only at the next call.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "config.h"
#include "diag.h"
#include "io.h"
#include "mcp.h"
#include "mcpconf.h"
#include "mcprun.h"
#include "rectable.h"
#include "record.h"

/* How the session went, worst news last written; session_exit maps it. */
enum session_status {
	SESSION_OK = 0,
	SESSION_SERVER_GONE,    /* the server did not start or failed */
	SESSION_SERVER_BROKEN,  /* the server broke the protocol */
	SESSION_INPUT_BAD,      /* the caller's records are malformed */
	SESSION_IO,             /* our input or output failed */
};

struct session {
	const struct sc_mcp_opts *o;
	const struct sc_config *cfg;  /* the allow entries */
	struct sc_mcp m;
	struct sc_mcp_tools tools;    /* the server's current definitions */
	char **offered;               /* names offered, each with its digest */
	char (*digests)[72];
	size_t nr_offered;
	struct sc_output out;
	struct sc_input *in;
	int failed;                   /* the server is gone: an MCP-* status */
	enum session_status status;   /* so far */
};

const char *sc_mcp_tool_status(const struct sc_config *cfg, const char *server,
			       const char *name, const char *digest,
			       const char **pinned)
{
	int named = 0, ok = 0;

	*pinned = NULL;
	for (size_t i = 0; i < cfg->nr_mcp; i++) {
		const struct sc_mcp_allow *a = &cfg->mcp[i];

		if (strcmp(a->server, server) || strcmp(a->tool, name))
			continue;
		named = 1;
		if (a->digest && !*pinned)
			*pinned = a->digest;
		if (!a->digest || !strcmp(a->digest, digest))
			ok = 1;
	}
	return ok ? "allowed" : named ? "changed" : "new";
}

static int write_rec(struct session *s, const struct sc_record *r)
{
	if (sc_record_write(&s->out, r) < 0 || sc_output_flush(&s->out) < 0) {
		s->status = SESSION_IO;
		return sc_error_errno("WRITE-FAILED", "cannot write records");
	}
	return 0;
}

static void model_name(struct sc_buf *b, const char *server, const char *tool)
{
	sc_buf_reset(b);
	sc_buf_addf(b, "mcp__%s__%s", server, tool);
}

/* A type=tool record: the definition, labelled as the server's words. */
static int tool_record(struct session *s, const struct sc_mcp_tool *t,
		       const char *status, const char *pinned)
{
	struct sc_record r;
	struct sc_buf name = SC_BUF_INIT, source = SC_BUF_INIT;
	int ret;

	model_name(&name, s->o->server, t->name);
	sc_buf_addf(&source, "mcp:%s", s->o->server);
	sc_record_init(&r);
	sc_record_adds(&r, "type", "tool");
	sc_record_adds(&r, "name", name.data);
	sc_record_adds(&r, "description", t->description);
	sc_record_adds(&r, "schema", t->schema);
	sc_record_adds(&r, "label", "untrusted");
	sc_record_adds(&r, "source", source.data);
	sc_record_adds(&r, "digest", t->digest);
	sc_record_adds(&r, "server", s->o->server);
	sc_record_adds(&r, "tool", t->name);
	if (s->o->list) {
		sc_record_adds(&r, "status", status);
		if (pinned)
			sc_record_adds(&r, "pinned", pinned);
		sc_record_adds(&r, "definition", t->definition);
	}
	ret = write_rec(s, &r);
	sc_record_release(&r);
	sc_buf_release(&name);
	sc_buf_release(&source);
	return ret;
}

/* type=withdrawn: a tool the model no longer gets, and why. */
static int withdrawn(struct session *s, const char *tool, const char *digest,
		     const char *pinned)
{
	struct sc_record r;
	struct sc_buf name = SC_BUF_INIT;
	int ret;

	sc_warning("MCP-DEFINITION-CHANGED", "server '%s': tool '%s' changed "
		   "its definition: withdrawn until a person allows it again "
		   "(git speccoder mcp allow)", s->o->server, tool);
	model_name(&name, s->o->server, tool);
	sc_record_init(&r);
	sc_record_adds(&r, "type", "withdrawn");
	sc_record_adds(&r, "code", "MCP-DEFINITION-CHANGED");
	sc_record_adds(&r, "name", name.data);
	sc_record_adds(&r, "server", s->o->server);
	sc_record_adds(&r, "tool", tool);
	sc_record_adds(&r, "digest", digest ? digest : "");
	if (pinned)
		sc_record_adds(&r, "pinned", pinned);
	ret = write_rec(s, &r);
	sc_record_release(&r);
	sc_buf_release(&name);
	return ret;
}

static void offer(struct session *s, const struct sc_mcp_tool *t)
{
	s->offered = sc_xrealloc(s->offered, (s->nr_offered + 1) *
				 sizeof(*s->offered));
	s->digests = sc_xrealloc(s->digests, (s->nr_offered + 1) *
				 sizeof(*s->digests));
	s->offered[s->nr_offered] = sc_xstrdup(t->name);
	memcpy(s->digests[s->nr_offered], t->digest, sizeof(t->digest));
	s->nr_offered++;
}

static void unoffer(struct session *s, size_t i)
{
	free(s->offered[i]);
	s->nr_offered--;
	memmove(s->offered + i, s->offered + i + 1,
		(s->nr_offered - i) * sizeof(*s->offered));
	memmove(s->digests + i, s->digests + i + 1,
		(s->nr_offered - i) * sizeof(*s->digests));
}

/* End the session's server on STATUS: stop record, diagnostic, group killed. */
static int fail(struct session *s, int st)
{
	struct sc_record r;
	const char *code = sc_mcp_code(st);
	char reason[256];

	snprintf(reason, sizeof(reason), "server '%s': %s", s->o->server,
		 s->m.why ? s->m.why : "failed");
	sc_error(code, "%s", reason);
	sc_mcp_stop(&s->m);
	s->failed = st;
	if (!s->status)
		s->status = st == SC_MCP_FAILED || st == SC_MCP_START ?
			    SESSION_SERVER_GONE : SESSION_SERVER_BROKEN;
	sc_record_init(&r);
	sc_record_adds(&r, "type", "stop");
	sc_record_adds(&r, "code", code);
	sc_record_adds(&r, "server", s->o->server);
	sc_record_adds(&r, "reason", reason);
	(void)write_rec(s, &r);
	sc_record_release(&r);
	return -1;
}

/* The first listing: every tool judged, the allowed ones offered. */
static int first_list(struct session *s)
{
	size_t n = 0;
	int st = sc_mcp_list_tools(&s->m, &s->tools);

	if (st)
		return fail(s, st);
	for (size_t i = 0; i < s->tools.nr; i++) {
		const struct sc_mcp_tool *t = &s->tools.v[i];
		const char *pinned, *status;

		status = sc_mcp_tool_status(s->cfg, s->o->server, t->name,
					    t->digest, &pinned);
		if (s->o->list) {
			if (tool_record(s, t, status, pinned) < 0)
				return -1;
		} else if (!strcmp(status, "allowed")) {
			if (tool_record(s, t, status, pinned) < 0)
				return -1;
			offer(s, t);
			n++;
		} else if (!strcmp(status, "changed") &&
			   withdrawn(s, t->name, t->digest, pinned) < 0) {
			return -1;
		}
	}
	if (!s->o->list) {
		struct sc_record r;
		char num[24];
		int ret;

		snprintf(num, sizeof(num), "%zu", n);
		sc_record_init(&r);
		sc_record_adds(&r, "type", "ready");
		sc_record_adds(&r, "server", s->o->server);
		sc_record_adds(&r, "version", s->m.version);
		sc_record_adds(&r, "tools", num);
		ret = write_rec(s, &r);
		sc_record_release(&r);
		return ret;
	}
	return 0;
}

/*
 * The server said its tools changed: list them again; an offered tool
 * that is gone or whose digest moved is withdrawn.  Tools it adds are
 * not offered: a person has not seen them.
 */
static int relist(struct session *s)
{
	int st = sc_mcp_list_tools(&s->m, &s->tools);

	if (st)
		return fail(s, st);
	for (size_t i = 0; i < s->nr_offered;) {
		const struct sc_mcp_tool *t = sc_mcp_tools_find(&s->tools,
								s->offered[i]);

		if (t && !strcmp(t->digest, s->digests[i])) {
			i++;
			continue;
		}
		if (withdrawn(s, s->offered[i], t ? t->digest : NULL,
			      s->digests[i]) < 0)
			return -1;
		unoffer(s, i);
	}
	return 0;
}

/* The offered index of the call's tool (mcp__SERVER__TOOL or TOOL). */
static long find_offered(struct session *s, const char *tool)
{
	struct sc_buf name = SC_BUF_INIT;
	long found = -1;

	for (size_t i = 0; tool && found < 0 && i < s->nr_offered; i++) {
		model_name(&name, s->o->server, s->offered[i]);
		if (!strcmp(tool, name.data) || !strcmp(tool, s->offered[i]))
			found = (long)i;
	}
	sc_buf_release(&name);
	return found;
}

static int result_record(struct session *s, const char *id,
			 const char *outcome, const struct sc_buf *text,
			 int truncated, const char *digest)
{
	struct sc_record r;
	struct sc_buf source = SC_BUF_INIT;
	int ret;

	sc_buf_addf(&source, "mcp:%s", s->o->server);
	sc_record_init(&r);
	sc_record_adds(&r, "type", "tool-result");
	sc_record_adds(&r, "id", id ? id : "");
	sc_record_adds(&r, "label", "untrusted");
	sc_record_adds(&r, "source", source.data);
	sc_record_adds(&r, "outcome", outcome);
	if (digest)
		sc_record_adds(&r, "digest", digest);
	sc_record_adds(&r, "truncated", truncated ? "yes" : "no");
	if (digest && s->m.progress) {
		sc_record_addu(&r, "progress", s->m.progress);
	}
	sc_record_add(&r, "text", text->data ? text->data : "", text->len);
	ret = write_rec(s, &r);
	sc_record_release(&r);
	sc_buf_release(&source);
	return ret;
}

static int handle_call(struct session *s, const struct sc_record *call)
{
	const char *id = sc_record_str(call, "id");
	struct sc_buf text = SC_BUF_INIT;
	const struct sc_mcp_tool *t = NULL;
	const char *why = NULL;
	char digest[72] = "";
	int truncated = 0, is_error = 0, st, ret;
	long i;
	json_t *args;

	if (!s->failed && s->m.list_changed && relist(s) < 0 &&
	    s->status == SESSION_IO)
		return -1;
	i = find_offered(s, sc_record_str(call, "tool"));
	if (i >= 0)
		t = sc_mcp_tools_find(&s->tools, s->offered[i]);
	if (s->failed) {
		sc_buf_addf(&text, "the MCP server '%s' is not running (%s)",
			    s->o->server, sc_mcp_code(s->failed));
	} else if (!t) {
		sc_buf_adds(&text, "no such MCP tool is offered (unknown, not "
			    "allowed, or withdrawn because its definition "
			    "changed)");
	} else if (!(args = sc_mcp_call_args(call, t->schema_json, &why))) {
		sc_buf_addf(&text, "the call's arguments do not fit the tool's "
			    "schema: %s", why);
	} else {
		memcpy(digest, t->digest, sizeof(digest));
		st = sc_mcp_call(&s->m, t->name, args, s->o->max_output, &text,
				 &truncated, &is_error);
		/* A change announced during the call is known before its
		 * answer: the caller learns of it before its next call. */
		if (!st && s->m.list_changed && relist(s) < 0 &&
		    s->status == SESSION_IO) {
			sc_buf_wipe(&text);
			return -1;
		}
		if (st) {
			sc_buf_reset(&text);
			sc_buf_addf(&text, "the MCP server '%s' failed: %s",
				    s->o->server, s->m.why ? s->m.why : "");
			if (fail(s, st) < 0 && s->status == SESSION_IO)
				return -1;
			is_error = 1;
		}
		ret = result_record(s, id, is_error ? "error" : "ok", &text,
				    truncated, digest);
		sc_buf_wipe(&text);
		return ret;
	}
	ret = result_record(s, id, "error", &text, 0, NULL);
	sc_buf_release(&text);
	return ret;
}

/* The input's idle hook: flush, then serve the server until the caller
 * has something to say. */
static void idle(void *ctx)
{
	struct session *s = ctx;
	struct pollfd p[2];
	int st;

	if (sc_output_flush(&s->out) < 0)
		return;
	/* Messages read along with the last answer come first. */
	if (!s->failed && (st = sc_mcp_pump(&s->m, 0)))
		(void)fail(s, st);
	else if (!s->failed && s->m.list_changed)
		(void)relist(s);
	for (;;) {
		p[0] = (struct pollfd){ s->in->fd, POLLIN, 0 };
		p[1] = (struct pollfd){ s->failed ? -1 : s->m.rpc.in_fd, POLLIN, 0 };
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (p[1].revents) {
			st = sc_mcp_pump(&s->m, 1);
			if (st)
				(void)fail(s, st);
			else if (s->m.list_changed)
				(void)relist(s);
		}
		if (p[0].revents)
			return;
	}
}

/* The server's argv: the sandbox prefix, the server's settings, its command. */
static char **server_argv(const struct sc_mcp_opts *o,
			  const struct sc_mcp_conf *conf)
{
	size_t n = 0, k = 0;
	char **v;

	while (o->sandbox[n])
		n++;
	v = sc_xcalloc(n + 2 * conf->env.nr + 2 * conf->hosts.nr +
		       conf->argc + 8, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[k++] = o->sandbox[i];
	/* Its own network, only its named variables, our pipe as stdin:
	 * the last word of the sandbox's options wins. */
	v[k++] = "--network";
	v[k++] = (char *)conf->network;
	v[k++] = "--env";
	v[k++] = "short";
	v[k++] = "--stdin";
	for (size_t i = 0; i < conf->env.nr; i++) {
		v[k++] = "--env-keep";
		v[k++] = conf->env.v[i];
	}
	for (size_t i = 0; i < conf->hosts.nr; i++) {
		v[k++] = "--allow-host";
		v[k++] = conf->hosts.v[i];
	}
	v[k++] = "--";
	for (size_t i = 0; i < conf->argc; i++)
		v[k++] = conf->argv[i];
	return v;
}

static void serve(struct session *s, int in)
{
	struct sc_reader rd;
	struct sc_record r;
	int st = SC_READ_EOF;

	s->in = sc_xmalloc(sizeof(*s->in));
	sc_input_init_fd(s->in, in);
	sc_input_set_idle(s->in, idle, s);
	sc_reader_init(&rd, s->in);
	sc_record_init(&r);
	while (s->status != SESSION_IO &&
	       (st = sc_reader_next(&rd, &r)) == SC_READ_RECORD) {
		const char *type = sc_record_type(&r);

		if (type && !strcmp(type, "call") && handle_call(s, &r) < 0)
			break;
	}
	if (st < 0 && s->status != SESSION_IO) {
		sc_reader_report(&rd, st);
		s->status = st == SC_READ_IO ? SESSION_IO : SESSION_INPUT_BAD;
	}
	sc_record_release(&r);
	free(s->in);
}

/* The exit status of sc-mcp(1) for how the session went. */
static int session_exit(enum session_status st)
{
	switch (st) {
	case SESSION_OK:
		return SC_EXIT_OK;
	case SESSION_SERVER_GONE:
		return SC_EXIT_UNAVAILABLE;
	case SESSION_SERVER_BROKEN:
	case SESSION_INPUT_BAD:
		return SC_EXIT_MALFORMED;
	case SESSION_IO:
		break;
	}
	return SC_EXIT_INTERNAL;
}

/* The session with CONF's server on IN and OUT: how it went. */
static enum session_status run_session(const struct sc_mcp_opts *o,
				       const struct sc_config *cfg,
				       const struct sc_mcp_conf *conf,
				       int in, int out)
{
	struct session s;
	char **argv = server_argv(o, conf);
	int st;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.cfg = cfg;
	sc_mcp_init(&s.m, (int)conf->timeout * 1000);
	sc_output_init_records(&s.out, out, o->force_records);
	st = sc_mcp_start(&s.m, argv, o->keep_stderr ? STDERR_FILENO : -1);
	free(argv);
	if (!st)
		st = sc_mcp_initialize(&s.m);
	if (st)
		(void)fail(&s, st);
	else if (first_list(&s) == 0 && !o->list)
		serve(&s, in);
	sc_mcp_stop(&s.m);
	sc_mcp_tools_release(&s.tools);
	for (size_t i = 0; i < s.nr_offered; i++)
		free(s.offered[i]);
	free(s.offered);
	free(s.digests);
	if (sc_output_flush(&s.out) < 0 && !s.status)
		s.status = SESSION_IO;
	sc_output_release(&s.out);
	return s.status;
}

int sc_mcp_run(const struct sc_mcp_opts *o, int in, int out)
{
	struct sc_config cfg;
	struct sc_mcp_conf *conf;
	int ret;

	sc_config_init(&cfg);
	/* The configuration is named from where sc-mcp was started; the
	 * server then works in DIR (the root), as a command does. */
	if (sc_config_load(&cfg, o->config) != SC_CONFIG_OK)
		return SC_EXIT_USAGE;
	conf = sc_config_mcp(&cfg, o->server);
	if (!conf || !conf->argv) {
		sc_error("MCP-UNKNOWN-SERVER", "speccoder.conf has no "
			 "mcp.%s.command", o->server);
		ret = SC_EXIT_USAGE;
	} else if (o->cwd && chdir(o->cwd) < 0) {
		sc_error_errno("BAD-CWD", "cannot enter '%s'", o->cwd);
		ret = SC_EXIT_USAGE;
	} else {
		if (o->timeout)
			conf->timeout = o->timeout;
		ret = session_exit(run_session(o, &cfg, conf, in, out));
	}
	sc_config_release(&cfg);
	return ret;
}
