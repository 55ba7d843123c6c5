#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "agentmcp.h"
#include "coproc.h"
#include "alloc.h"
#include "config.h"
#include "diag.h"
#include "env.h"
#include "filetool.h"
#include "io.h"
#include "model.h"
#include "opt.h"
#include "paths.h"
#include "record.h"
#include "rectable.h"
#include "process.h"
#include "statusline.h"

/* A result is cut here so the conversation stays bounded whatever ran. */
#define MASK_OUT_MAX ((size_t)8 << 20)

/*
 * What each step of the loop returns.  Only sc_agent_run turns these into
 * an exit status: a step that fails has printed its diagnostic and returns
 * FAILED, never an exit code of its own.
 */
enum outcome {
	FAILED = -1,   /* the loop itself failed, after a diagnostic */
	GO_ON = 0,     /* the next call, the next turn */
	STOPPED = 1,   /* the attempt must stop: stats->code says why */
	ENDED = 2,     /* the model (or the agent) ended its turn */
};


struct loop {
	const struct sc_agent_opts *o;
	const struct sc_agent_programs *prog;
	struct sc_agent_stats *stats;
	int rootfd;
	int conv;
	struct sc_coproc *cls;
	struct sc_coproc *mask;       /* sc-mask --records-stream */
	unsigned mask_seq;            /* the id of the last text masked */
	/* A program the loop was given cannot be used (the masker died, a
	 * coprocess did not start): the environment's failure, exit 4. */
	int unusable_program;
	struct sc_coproc *acp;        /* an external agent's session, or NULL */
	/* sc-acp's records read while a command ran, for the task loop. */
	struct sc_record held[16];
	size_t nheld;
	struct sc_output events;
	unsigned denied_in_a_row;
	unsigned turn;
	/*
	 * Objects a person approved in an external agent's permission request,
	 * each covering one later call of that object through the client
	 * methods (its write, its command): the person is not asked twice
	 * for one decision.  A ring: the oldest is forgotten.
	 */
	char *approved[8];
	size_t next_approved;
	struct sc_agent_mcp mcp;   /* the MCP servers of the attempt */
};

static const struct {
	const char *name, *description, *schema;
} tools[] = {
	{ "read", "Read a file of the project (a path relative to its root).",
	  "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},"
	  "\"required\":[\"path\"]}" },
	{ "list", "List a directory of the project.",
	  "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},"
	  "\"required\":[\"path\"]}" },
	{ "write", "Create or replace a file of the project with content.",
	  "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
	  "\"content\":{\"type\":\"string\"}},\"required\":[\"path\",\"content\"]}" },
	{ "delete", "Delete a file of the project.",
	  "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},"
	  "\"required\":[\"path\"]}" },
	{ "run", "Run a command in the project's sandbox: argv (a list of words) "
	  "or shell (one shell line), in cwd (relative to the root).",
	  "{\"type\":\"object\",\"properties\":{\"argv\":{\"type\":\"array\","
	  "\"items\":{\"type\":\"string\"}},\"shell\":{\"type\":\"string\"},"
	  "\"cwd\":{\"type\":\"string\"}}}" },
};

void sc_agent_tool_records(struct sc_buf *out)
{
	struct sc_record r;

	sc_record_init(&r);
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		sc_record_reset(&r);
		sc_record_adds(&r, "type", "tool");
		sc_record_adds(&r, "name", tools[i].name);
		sc_record_adds(&r, "description", tools[i].description);
		sc_record_adds(&r, "schema", tools[i].schema);
		sc_record_adds(&r, "label", "trusted");
		sc_record_adds(&r, "source", "speccoder");
		sc_record_encode(&r, out);
	}
	sc_record_release(&r);
}

/* ---- small helpers ------------------------------------------------- */

static void progress(struct loop *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void progress(struct loop *l, const char *fmt, ...)
{
	char raw[1024], clean[1024];
	va_list ap;
	int n;

	if (l->o->progress_fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* Calls and objects are the model's words: no control bytes reach
	 * the screen. */
	sc_sanitize(clean, sizeof(clean) - 1, raw, strlen(raw));
	strcat(clean, "\n");
	if (sc_write_all(l->o->progress_fd, clean, strlen(clean)) < 0) {
		/* The screen is gone; the events still record everything. */
	}
}

void sc_agent_stamp(struct sc_record *r)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;

	if (gmtime_r(&now, &tm) &&
	    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
		sc_record_adds(r, "time", when);
}

/* ---- the end record ------------------------------------------------ */

void sc_agent_end_record(const struct sc_agent_opts *o,
			 const struct sc_agent_stats *s, int status,
			 struct sc_record *r)
{
	const struct sc_agent_counts *b = &o->before;

	sc_record_adds(r, "type", status == 0 ? "done" : "stop");
	if (status == 0) {
		sc_record_adds(r, "reason", "end-turn");
	} else {
		sc_record_adds(r, "code", s->code[0] ? s->code : "FAILED");
		sc_record_adds(r, "reason", s->reason.len ? s->reason.data :
			       "the loop failed (see the error above)");
	}
	sc_record_addu(r, "turns", s->turns);
	sc_record_addu(r, "allowed", s->allowed);
	sc_record_addu(r, "asked", s->asked);
	sc_record_addu(r, "denied", s->denied);
	sc_record_addu(r, "run-turns", b->turns + s->turns);
	sc_record_addu(r, "run-allowed", b->allowed + s->allowed);
	sc_record_addu(r, "run-asked", b->asked + s->asked);
	sc_record_addu(r, "run-denied", b->denied + s->denied);
	sc_agent_stamp(r);
}

/* The count NAME of R into *N: 0, or -1 when absent or not a number. */
static int read_count(const struct sc_record *r, const char *name,
		      unsigned *n)
{
	const char *v = sc_record_str(r, name);
	unsigned long long x;

	if (!v || sc_parse_uint(v, 1000000000, &x) < 0)
		return -1;
	*n = (unsigned)x;
	return 0;
}

int sc_agent_parse_before(const void *data, size_t len,
			  struct sc_agent_counts *before)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record r;
	int st, found = 0;

	memset(before, 0, sizeof(*before));
	sc_input_init_mem(&in, data, len);
	sc_reader_init(&rd, &in);
	sc_record_init(&r);
	/* The last end record counts: the loops of a run follow each other. */
	while ((st = sc_reader_next(&rd, &r)) == SC_READ_RECORD) {
		const char *type = sc_record_type(&r);

		if (!type || (strcmp(type, "done") && strcmp(type, "stop")))
			continue;
		found = 1;
		if (read_count(&r, "run-turns", &before->turns) < 0 ||
		    read_count(&r, "run-allowed", &before->allowed) < 0 ||
		    read_count(&r, "run-asked", &before->asked) < 0 ||
		    read_count(&r, "run-denied", &before->denied) < 0)
			found = -1;
	}
	sc_record_release(&r);
	if (st < 0 || found <= 0) {
		memset(before, 0, sizeof(*before));
		return -1;
	}
	return 0;
}

int sc_agent_read_before(const char *file, struct sc_agent_counts *before)
{
	struct sc_buf b = SC_BUF_INIT;
	int st = sc_read_file_max(file, 1 << 20, &b), ret = 0;

	memset(before, 0, sizeof(*before));
	if (st == -1 && errno == ENOENT)
		ret = 0;   /* the run's first loop */
	else if (st < 0)
		ret = sc_error_errno("BEFORE-UNREADABLE", "cannot read '%s'",
				     file);
	else if (sc_agent_parse_before(b.data ? b.data : "", b.len, before) < 0)
		ret = sc_error("BEFORE-MALFORMED", "'%s' holds no end record "
			       "with the run's counts", file);
	sc_buf_release(&b);
	return ret;
}

/* Write R to the events with the time it happened, as the journal keeps it. */
static int emit(struct loop *l, const struct sc_record *r)
{
	struct sc_record ev;
	int ret = 0;

	sc_record_init(&ev);
	for (size_t i = 0; i < r->nr; i++)
		if (strcmp(r->fields[i].name, "time"))
			sc_record_add(&ev, r->fields[i].name, r->fields[i].value,
				      r->fields[i].value_len);
	sc_agent_stamp(&ev);
	if (sc_record_write(&l->events, &ev) < 0 ||
	    sc_output_flush(&l->events) < 0)
		ret = sc_error_errno("WRITE-FAILED", "cannot write the events");
	sc_record_release(&ev);
	return ret;
}

static int append_conversation(struct loop *l, const struct sc_record *r)
{
	struct sc_buf b = SC_BUF_INIT;
	int ret = 0;

	sc_record_encode(r, &b);
	if (sc_write_all(l->conv, b.data, b.len) < 0)
		ret = sc_error_errno("WRITE-FAILED",
				     "cannot append to the conversation");
	sc_buf_release(&b);
	return ret;
}

static int stop(struct loop *l, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int stop(struct loop *l, const char *code, const char *fmt, ...)
{
	va_list ap;

	snprintf(l->stats->code, sizeof(l->stats->code), "%s", code);
	sc_buf_reset(&l->stats->reason);
	va_start(ap, fmt);
	{
		char text[1024];
		vsnprintf(text, sizeof(text), fmt, ap);
		sc_buf_adds(&l->stats->reason, text);
	}
	va_end(ap);
	return STOPPED;
}

/* The values of every field NAME of R, as a NULL-terminated array. */
static char **field_list(const struct sc_record *r, const char *name,
			 size_t *nr)
{
	char **v = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < r->nr; i++) {
		if (strcmp(r->fields[i].name, name))
			continue;
		SC_ALLOC_GROW(v, n + 2, alloc);
		v[n++] = (char *)r->fields[i].value;
	}
	if (!v)
		v = sc_xcalloc(1, sizeof(*v));
	v[n] = NULL;
	*nr = n;
	return v;
}

static char **concat_argv(char **prefix, const char *sep, char **rest)
{
	size_t np = 0, nr = 0, k = 0;
	char **v;

	while (prefix[np])
		np++;
	while (rest[nr])
		nr++;
	v = sc_xcalloc(np + nr + 2, sizeof(*v));
	for (size_t i = 0; i < np; i++)
		v[k++] = prefix[i];
	if (sep)
		v[k++] = (char *)sep;
	for (size_t i = 0; i < nr; i++)
		v[k++] = rest[i];
	return v;
}

/* ---- running the other tools --------------------------------------- */

/* Run ARGV with IN, OUT and ERR (-1: ours) in DIRFD; its status. */
static int run_tool(char **argv, int in, int out, int err, int dirfd)
{
	pid_t pid = sc_spawn(argv, in, out, err, dirfd);

	if (pid < 0)
		return -1;
	return sc_wait(pid);
}

/* ---- the masker coprocess ----------------------------------------- */

/*
 * The masker is gone or broke the framing: it is ended, and every later
 * result fails too, so nothing unmasked ever goes on.
 */
static int mask_failed(struct loop *l)
{
	l->unusable_program = 1;
	if (l->mask) {
		int st = sc_coproc_end(l->mask);

		l->mask = NULL;
		return sc_error("MASK-FAILED", "the masker failed (status %d): "
				"nothing unmasked goes on", st);
	}
	return sc_error("MASK-FAILED", "the masker is not running: nothing "
			"unmasked goes on");
}

/*
 * Mask TEXT (replaced by its masked form) through the masker coprocess
 * (sc-mask --records-stream): one type=text record out with an id of its
 * own, and the answer must be the type=text record with that id, so a
 * masker that dies, hangs up or answers out of turn is a failure, never a
 * result passed on unmasked.
 */
static int mask_text(struct loop *l, struct sc_buf *text, int *truncated)
{
	static const char *const answer[] = { "text", NULL };
	struct sc_record req, ans;
	const struct sc_field *f = NULL;
	char id[32];

	snprintf(id, sizeof(id), "mask-%u", ++l->mask_seq);
	sc_record_init(&req);
	sc_record_init(&ans);
	sc_record_adds(&req, "type", "text");
	sc_record_adds(&req, "id", id);
	sc_record_add(&req, "text", text->data ? text->data : "", text->len);
	if (l->mask && sc_coproc_ask(l->mask, &req, answer, id, &ans) == 0)
		f = sc_record_get(&ans, "text");
	sc_buf_wipe(text);
	if (f) {
		size_t n = f->value_len > MASK_OUT_MAX ? MASK_OUT_MAX :
			   f->value_len;

		sc_buf_add(text, f->value, n);
		*truncated |= n < f->value_len;
	}
	sc_buf_wipe(&req.store);
	sc_record_release(&req);
	sc_buf_wipe(&ans.store);
	sc_record_release(&ans);
	return f ? 0 : mask_failed(l);
}

/* ---- executing one allowed call ------------------------------------ */

struct result {
	struct sc_buf text;
	const char *source;     /* worktree, command, speccoder */
	const char *outcome;    /* ok, error, denied */
	int exit_status;        /* for a command; -1 otherwise */
	int truncated;
	int missing;            /* the file or directory does not exist */
};

static const char *call_path(const struct sc_record *call,
			     const struct sc_record *verdict)
{
	const char *cls = sc_record_str(verdict, "class");
	const char *obj = sc_record_str(verdict, "object");

	/* The policy's object is the canonical name it judged: open that. */
	if (cls && obj && (!strcmp(cls, "read") || !strcmp(cls, "write")))
		return strcmp(obj, ".") ? obj : "";
	return NULL;
	(void)call;
}

static void file_tool(struct loop *l, const char *tool, const char *path,
		      const struct sc_record *call, struct result *res)
{
	struct sc_buf why = SC_BUF_INIT;
	int rc;

	res->source = "worktree";
	if (!strcmp(tool, "read"))
		rc = sc_file_read(l->rootfd, path, l->o->read_max, &res->text,
				  &res->truncated, &why);
	else if (!strcmp(tool, "list"))
		rc = sc_file_list(l->rootfd, path, l->o->read_max, &res->text,
				  &res->truncated, &why);
	else if (!strcmp(tool, "write")) {
		const struct sc_field *c = sc_record_get(call, "content");
		rc = sc_file_write(l->rootfd, path, c ? c->value : "",
				   c ? c->value_len : 0, &why);
		if (!rc)
			sc_buf_addf(&res->text, "wrote %s (%zu bytes)", path,
				    c ? c->value_len : 0);
	} else {
		rc = sc_file_delete(l->rootfd, path, &why);
		if (!rc)
			sc_buf_addf(&res->text, "deleted %s", path);
	}
	if (rc < 0) {
		res->missing = errno == ENOENT;
		res->outcome = "error";
		sc_buf_reset(&res->text);
		sc_buf_addf(&res->text, "%s %s failed: %s", tool, path, why.data);
	}
	if (res->truncated)
		sc_buf_addf(&res->text, "\n[truncated at %zu bytes]",
			    l->o->read_max);
	sc_buf_release(&why);
}

static int command_dir(struct loop *l, const struct sc_record *call,
		       struct sc_buf *why)
{
	const char *cwd = sc_record_str(call, "cwd");
	struct sc_buf norm = SC_BUF_INIT;
	int fd;

	if (!cwd || !*cwd)
		cwd = ".";
	if (sc_path_normalize(cwd, strlen(cwd), &norm) < 0) {
		sc_buf_adds(why, "the working directory climbs out of the root");
		sc_buf_release(&norm);
		return -1;
	}
	fd = sc_file_opendir(l->rootfd, norm.data ? norm.data : "", why);
	sc_buf_release(&norm);
	return fd;
}

/* Tell sc-acp that the command of call ID started: the agent gets its
 * terminal at once. */
static int tell_started(struct loop *l, const char *id)
{
	struct sc_record r;
	int ret = 0;

	sc_record_init(&r);
	sc_record_adds(&r, "type", "started");
	sc_record_adds(&r, "id", id ? id : "");
	if (sc_coproc_send(l->acp, &r) < 0)
		ret = -1;
	sc_record_release(&r);
	return ret;
}

/*
 * While a terminal's command runs, read what sc-acp says: a kill of this
 * command stops it; anything else waits for the task loop (held).  1
 * when the command must be stopped, 0 otherwise.
 */
static int watch_acp(struct loop *l, const char *id)
{
	struct pollfd p = { l->acp->in.fd, POLLIN, 0 };
	struct sc_record r;
	int st, stop_it = 0;

	if (l->nheld == sizeof(l->held) / sizeof(l->held[0]))
		return poll(NULL, 0, 100), 0;
	if (l->acp->in.pos >= l->acp->in.end && poll(&p, 1, 100) <= 0)
		return 0;
	sc_record_init(&r);
	st = sc_reader_next(&l->acp->rd, &r);
	if (st != SC_READ_RECORD) {
		sc_record_release(&r);
		return 1;   /* sc-acp is gone: nobody waits for the command */
	}
	if (sc_record_type(&r) && !strcmp(sc_record_type(&r), "kill") &&
	    sc_record_str(&r, "id") && !strcmp(sc_record_str(&r, "id"), id))
		stop_it = 1;
	else if (sc_record_type(&r) && !strcmp(sc_record_type(&r), "kill"))
		;   /* a kill of a command that already ended */
	else {
		l->held[l->nheld++] = r;
		return 0;
	}
	sc_record_release(&r);
	return stop_it;
}

/*
 * Run ARGV for CALL.  An external agent's terminal (terminal=1) is told
 * when the command starts and may kill it while it runs; any other
 * command is waited for.  The status as sc_wait gives it.
 */
static int run_watched(struct loop *l, const struct sc_record *call,
		       char **argv, int in, int out, int dirfd)
{
	const char *id = sc_record_str(call, "id");
	pid_t pid = sc_spawn(argv, in, out, out, dirfd), w;
	int status, killed = 0;

	if (pid < 0)
		return -1;
	if (!l->acp || !sc_record_str(call, "terminal") || !id ||
	    tell_started(l, id) < 0)
		return sc_wait(pid);
	for (;;) {
		w = waitpid(pid, &status, WNOHANG);
		if (w < 0 && errno != EINTR)
			return -1;
		if (w == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) :
			       128 + WTERMSIG(status);
		if (!killed && watch_acp(l, id)) {
			/* The sandbox ends everything the command started. */
			(void)kill(pid, SIGTERM);
			killed = 1;
		} else if (killed) {
			(void)poll(NULL, 0, 50);
		}
	}
}

/*
 * 1 when the loop's sandbox prefix ends up with --network hosts: named
 * there, or given by the [sandbox] of the speccoder.conf it names with
 * --config, as sc-sandbox-exec will read it (config.h decides).
 */
static int prefix_hosts_mode(const struct loop *l)
{
	const char *net = NULL, *config = NULL;
	struct sc_sandbox_policy none, pol;
	struct sc_config cfg;
	int hosts;

	for (char **a = l->prog->sandbox; a[0] && a[1]; a++)
		if (!strcmp(a[0], "--network"))
			net = a[1];
		else if (!strcmp(a[0], "--config"))
			config = a[1];
	if (net || !config)
		return net && !strcmp(net, "hosts");
	sc_config_init(&cfg);
	/* a file it cannot read, sc-sandbox-exec refuses: nothing runs */
	if (sc_config_load(&cfg, config) != SC_CONFIG_OK)
		return 0;
	sc_sandbox_policy_init(&none);
	sc_config_sandbox_policy(&cfg, &none, &pol);
	hosts = pol.net == SC_NET_HOSTS;
	sc_sandbox_policy_release(&pol);
	sc_config_release(&cfg);
	return hosts;
}

/*
 * The sandbox prefix for one command: the loop's, plus --network hosts
 * and one --allow-host per host= field when the verdict gave the command
 * its hosts (allow.network-hosts), and --connections CONN when the
 * command runs with the proxy (CONN not NULL).  A new array of borrowed
 * strings.
 */
static char **sandbox_prefix(const struct loop *l, const struct sc_record *verdict,
			     char *conn)
{
	static char net[] = "--network", hosts[] = "hosts", allow[] = "--allow-host",
		    conns[] = "--connections";
	size_t nh, k = 0;
	char **h = field_list(verdict, "host", &nh), **opts, **v;

	opts = sc_xcalloc(2 * nh + 5, sizeof(*opts));
	if (nh) {
		opts[k++] = net;
		opts[k++] = hosts;
	}
	for (size_t i = 0; i < nh; i++) {
		opts[k++] = allow;
		opts[k++] = h[i];
	}
	if (conn) {
		opts[k++] = conns;
		opts[k++] = conn;
	}
	v = concat_argv(l->prog->sandbox, NULL, opts);
	free(opts);
	free(h);
	return v;
}

/*
 * Where the proxy writes the command's connection records: a private
 * file, NULL when the command has no proxy.
 */
static char *connections_file(const struct loop *l, const struct sc_record *verdict)
{
	struct sc_buf b = SC_BUF_INIT;
	int fd;

	if (!sc_record_get(verdict, "host") && !prefix_hosts_mode(l))
		return NULL;
	sc_buf_addf(&b, "%s/sc-agent-conn.XXXXXX", sc_env_tmpdir());
	fd = mkstemp(b.data);
	if (fd < 0) {
		sc_buf_release(&b);
		return NULL;
	}
	close(fd);
	return sc_buf_detach(&b, NULL);
}

/* Every connection the command made, into the events (masked there). */
static void journal_connections(struct loop *l, char *path)
{
	struct sc_buf b = SC_BUF_INIT;
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record r;

	if (!path)
		return;
	if (sc_read_file_max(path, 16 << 20, &b) == 0) {
		sc_input_init_mem(&in, b.data, b.len);
		sc_reader_init(&rd, &in);
		sc_record_init(&r);
		while (sc_reader_next(&rd, &r) == SC_READ_RECORD)
			if (sc_record_type(&r) &&
			    !strcmp(sc_record_type(&r), "connection"))
				emit(l, &r);
		sc_record_release(&r);
	}
	sc_buf_release(&b);
	unlink(path);
	free(path);
}

static void run_command(struct loop *l, const struct sc_record *call,
			const struct sc_record *verdict, struct result *res)
{
	const char *shell = sc_record_str(call, "shell");
	char *sh_argv[] = { "/bin/sh", "-c", (char *)shell, NULL };
	struct sc_buf why = SC_BUF_INIT, out = SC_BUF_INIT;
	size_t nr;
	char **words = field_list(call, "argv", &nr), **argv, **prefix;
	char *conn;
	int dirfd, raw, devnull, st = -1;

	res->source = "command";
	res->outcome = "error";
	if (!nr && !shell) {
		sc_buf_adds(&res->text, "run needs argv or shell");
		free(words);
		return;
	}
	conn = connections_file(l, verdict);
	prefix = sandbox_prefix(l, verdict, conn);
	argv = concat_argv(prefix, "--", nr ? words : sh_argv);
	free(prefix);
	dirfd = command_dir(l, call, &why);
	raw = sc_anon_file("sc-agent-command");
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (dirfd >= 0 && raw >= 0 && devnull >= 0)
		st = run_watched(l, call, argv, devnull, raw, dirfd);
	if (st >= 0 && lseek(raw, 0, SEEK_SET) == 0 &&
	    sc_read_fd_capped(raw, l->o->output_max, &out,
					 &res->truncated) == 0) {
		res->outcome = "ok";
		res->exit_status = st;
		/* An external agent reads a terminal: the output as it came,
		 * its status and truncation in fields of their own. */
		if (!l->acp)
			sc_buf_addf(&res->text, "exit status %d\n", st);
		sc_buf_add(&res->text, out.data ? out.data : "", out.len);
		if (res->truncated && !l->acp)
			sc_buf_addf(&res->text, "\n[output truncated at %zu "
				    "bytes]", l->o->output_max);
	} else {
		sc_buf_addf(&res->text, "the command could not be started: %s",
			    why.len ? why.data : "the sandbox did not start");
	}
	sc_buf_wipe(&out);
	sc_buf_release(&why);
	if (dirfd >= 0)
		close(dirfd);
	if (raw >= 0)
		close(raw);
	if (devnull >= 0)
		close(devnull);
	journal_connections(l, conn);
	free(argv);
	free(words);
}

/* ---- the guard ----------------------------------------------------- */

static int guard(struct loop *l)
{
	int out = sc_anon_file("sc-agent-guard"), st;
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record f;

	if (!l->prog->guard)
		return GO_ON;
	if (out < 0)
		return stop(l, "GUARD-FAILED", "cannot run the guard");
	st = run_tool(l->prog->guard, -1, out, -1, -1);
	if (st == 0) {
		close(out);
		return GO_ON;
	}
	if (st != 1) {
		close(out);
		return stop(l, "GUARD-FAILED", "the guard failed (status %d): "
			    "the repository cannot be checked", st);
	}
	lseek(out, 0, SEEK_SET);
	sc_input_init_fd(&in, out);
	sc_reader_init(&rd, &in);
	sc_record_init(&f);
	st = stop(l, "INTEGRITY", "the guard found a change it cannot name");
	while (sc_reader_next(&rd, &f) == SC_READ_RECORD) {
		const char *code = sc_record_str(&f, "code");
		const char *what = sc_record_str(&f, "path");
		const char *change = sc_record_str(&f, "change");

		if (!code)
			continue;
		if (!what)
			what = sc_record_str(&f, "item");
		emit(l, &f);
		st = stop(l, code, "%s was %s by a command",
			  what ? what : "a protected input",
			  change ? change : "changed");
		break;
	}
	sc_record_release(&f);
	close(out);
	return st;
}

/* ---- deciding one call --------------------------------------------- */

static const char *describe(const struct sc_record *call, struct sc_buf *b)
{
	const char *tool = sc_record_str(call, "tool");

	sc_buf_reset(b);
	sc_buf_adds(b, tool ? tool : "?");
	for (size_t i = 0; i < call->nr; i++) {
		const char *n = call->fields[i].name;
		if (!strcmp(n, "argv") || !strcmp(n, "path") ||
		    !strcmp(n, "shell") || !strcmp(n, "url") ||
		    !strcmp(n, "arguments")) {
			sc_buf_addch(b, ' ');
			sc_buf_add(b, call->fields[i].value,
				   strnlen(call->fields[i].value,
					   call->fields[i].value_len));
		}
		if (b->len > 200) {
			sc_buf_setlen(b, 200);
			sc_buf_adds(b, "...");
			break;
		}
	}
	return b->data;
}

/*
 * Grant the NR objects of PARTS for the rest of the run, all at once,
 * each with the HOSTS the answer named (the classifier gives them to
 * every later call it allows by these grants).
 */
static int add_grant(struct loop *l, const struct sc_ask_part *parts,
		     size_t nr, const struct sc_strlist *hosts)
{
	struct sc_record g;
	struct sc_buf b = SC_BUF_INIT;
	int fd, ret = 0;
	size_t k;

	if (!l->o->grants)
		return 0;
	fd = open(l->o->grants, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
		  O_NOFOLLOW, 0600);
	if (fd < 0)
		return sc_error_errno("GRANTS-FAILED", "cannot add the grant");
	sc_record_init(&g);
	for (k = 0; k < nr; k++) {
		sc_record_reset(&g);
		sc_record_adds(&g, "type", "grant");
		sc_record_adds(&g, "object", parts[k].object);
		for (size_t i = 0; hosts && i < hosts->nr; i++)
			sc_record_adds(&g, "host", hosts->v[i]);
		sc_record_encode(&g, &b);
	}
	if (sc_write_all(fd, b.data, b.len) < 0 || fsync(fd) < 0)
		ret = sc_error_errno("GRANTS-FAILED", "cannot add the grant");
	close(fd);
	sc_record_release(&g);
	sc_buf_release(&b);
	if (ret < 0)
		return -1;
	/* The classifier reads grants when it starts: start it again. */
	sc_coproc_end(l->cls);
	l->cls = sc_coproc_start(l->prog->classify);
	if (!l->cls)
		return sc_error_errno("CLASSIFY-FAILED",
				      "cannot restart the classifier");
	return 0;
}

static void event_approval(struct loop *l, const char *id, const char *object,
			   const struct sc_ask_part *parts, size_t nr,
			   enum sc_answer ans, const char *how,
			   const struct sc_strlist *hosts)
{
	struct sc_record r;
	size_t k;

	sc_record_init(&r);
	sc_record_adds(&r, "type", "approval");
	sc_record_adds(&r, "id", id ? id : "");
	sc_record_adds(&r, "object", object ? object : "");
	for (k = 0; nr > 1 && k < nr; k++)   /* what the answer covered */
		sc_record_adds(&r, "part-object", parts[k].object);
	sc_record_adds(&r, "answer", sc_answer_name(ans));
	sc_record_adds(&r, "by", how);
	/* The network the answer gave, if it named hosts. */
	for (k = 0; hosts && (ans == SC_ANSWER_ONCE || ans == SC_ANSWER_RUN) &&
	     k < hosts->nr; k++)
		sc_record_adds(&r, "host", hosts->v[k]);
	emit(l, &r);
	sc_record_release(&r);
}

/*
 * The parts of verdict V that ask (part-rule/part-object pairs), or its
 * rule and object alone from a classifier that lists none.  *PARTS points
 * into V; free the array only.
 */
static size_t verdict_parts(const struct sc_record *v,
			    struct sc_ask_part **parts)
{
	size_t k, nr = 0, alloc = 0;
	const char *rule = NULL;

	*parts = NULL;
	for (k = 0; k < v->nr; k++) {
		const struct sc_field *f = &v->fields[k];

		if (!strcmp(f->name, "part-rule")) {
			rule = f->value;
		} else if (!strcmp(f->name, "part-object") && rule) {
			SC_ALLOC_GROW(*parts, nr + 1, alloc);
			(*parts)[nr].object = f->value;
			(*parts)[nr++].rule = rule;
			rule = NULL;
		}
	}
	if (!nr) {
		const char *o = sc_record_str(v, "object");
		const char *r = sc_record_str(v, "rule");

		*parts = sc_xcalloc(1, sizeof(**parts));
		(*parts)[0].object = o ? o : "";
		(*parts)[0].rule = r ? r : "";
		nr = 1;
	}
	return nr;
}

/*
 * The decision after a person was asked when the policy said ask: allow
 * (1), deny (0), or stop (-1, STOPPED set).  HOSTS (NULL for a call the
 * sandbox cannot give hosts) receives the hosts a person's answer named:
 * the call runs with the network to those only (and, for the run, every
 * later call the grant covers).
 */
static int ask_person(struct loop *l, const struct sc_record *call,
		      const struct sc_record *v, struct sc_strlist *hosts,
		      int *ret)
{
	const char *id = sc_record_str(call, "id");
	const char *object = sc_record_str(v, "object");
	const char *how = "budget";
	struct sc_buf what = SC_BUF_INIT;
	enum sc_answer ans = SC_ANSWER_NO;
	struct sc_ask_part *parts;
	size_t nr = verdict_parts(v, &parts);

	l->stats->asked++;
	if (l->o->no_prompt)
		how = "no-prompt";
	else if (l->o->before.asked + l->stats->asked <= l->o->budget)
		ans = sc_ask(l->o->asker, describe(call, &what), parts, nr,
			     sc_record_str(v, "reason"), hosts, &how);
	sc_buf_release(&what);
	event_approval(l, id, object, parts, nr, ans, how, hosts);
	switch (ans) {
	case SC_ANSWER_STOP:
		*ret = stop(l, "STOPPED", "the person stopped the attempt");
		return -1;
	case SC_ANSWER_RUN:
		if (add_grant(l, parts, nr, hosts) < 0) {
			free(parts);
			*ret = FAILED;
			return -1;
		}
		free(parts);
		return 1;
	case SC_ANSWER_ONCE:
		free(parts);
		return 1;
	default:
		free(parts);
		return 0;
	}
}

/* The result goes back into the conversation, for the model's next turn. */
static int answer_model(struct loop *l, const char *id,
			const struct result *res)
{
	struct sc_record r;
	int ret;

	sc_record_init(&r);
	sc_record_adds(&r, "type", "tool-result");
	sc_record_adds(&r, "id", id ? id : "");
	sc_record_adds(&r, "label", "untrusted");
	sc_record_adds(&r, "source", res->source);
	sc_record_add(&r, "text", res->text.data ? res->text.data : "",
		      res->text.len);
	ret = append_conversation(l, &r) < 0 ? FAILED : 0;
	sc_record_release(&r);
	return ret;
}

/* The result goes to sc-acp, which answers the external agent with it. */
static int answer_executor(struct loop *l, const char *id,
			   const struct result *res)
{
	struct sc_record r;
	int ret = 0;

	sc_record_init(&r);
	sc_record_adds(&r, "type", "result");
	sc_record_adds(&r, "id", id ? id : "");
	sc_record_adds(&r, "decision", strcmp(res->outcome, "ok") ? "deny" :
		       "allow");
	/* An MCP tool's own error is not a refusal: sc-acp tells them apart. */
	sc_record_adds(&r, "outcome", res->outcome);
	sc_record_add(&r, "text", res->text.data ? res->text.data : "",
		      res->text.len);
	if (res->exit_status >= 0) {
		char st[16];
		snprintf(st, sizeof(st), "%d", res->exit_status);
		sc_record_adds(&r, "status", st);
	}
	if (res->truncated)
		sc_record_adds(&r, "truncated", "1");
	if (res->missing)
		sc_record_adds(&r, "error", "not-found");
	if (sc_coproc_send(l->acp, &r) < 0)
		ret = stop(l, "ACP-EXITED", "the external agent's session is gone");
	sc_record_release(&r);
	return ret;
}

static int add_result(struct loop *l, const char *id, const char *tool,
		      struct result *res)
{
	struct sc_record r;
	int ret;

	if (mask_text(l, &res->text, &res->truncated) < 0)
		return FAILED;
	sc_record_init(&r);
	ret = l->acp ? answer_executor(l, id, res) : answer_model(l, id, res);
	sc_record_reset(&r);
	sc_record_adds(&r, "type", "result");
	sc_record_adds(&r, "id", id ? id : "");
	sc_record_adds(&r, "tool", tool ? tool : "");
	sc_record_adds(&r, "outcome", res->outcome);
	if (res->exit_status >= 0) {
		char st[16];
		snprintf(st, sizeof(st), "%d", res->exit_status);
		sc_record_adds(&r, "exit", st);
	}
	sc_record_addu(&r, "bytes", res->text.len);
	sc_record_adds(&r, "truncated", res->truncated ? "yes" : "no");
	if (!ret && emit(l, &r) < 0)
		ret = FAILED;
	sc_record_release(&r);
	return ret;
}

static int judge(struct loop *l, const struct sc_record *call,
		 struct sc_record *v)
{
	/* A verdict (0), or the classifier's stop record (1). */
	static const char *const answers[] = { "verdict", "stop", NULL };
	int st = sc_coproc_ask(l->cls, call, answers, NULL, v);

	if (st < 0) {
		sc_error("CLASSIFY-FAILED", "the classifier gave no verdict");
		return FAILED;
	}
	if (st == 1)
		return stop(l, sc_record_str(v, "code") ?
			    sc_record_str(v, "code") : "CLASSIFY-STOPPED",
			    "the policy ended the attempt");
	return emit(l, v) < 0 ? FAILED : GO_ON;
}

/* ---- MCP tools (lib/agent/agentmcp.c) ------------------------------------ */

static int mcp_event(void *ctx, const struct sc_record *r)
{
	return emit(ctx, r);
}

/*
 * An MCP tool's definition is the server's words, and the server holds
 * the keys its configuration passes it: description and schema are
 * masked like any result before the model sees them.
 */
static int masked_tool(struct loop *l, const struct sc_record *r,
		       struct sc_record *m)
{
	int ret = 0, trunc = 0;

	for (size_t i = 0; !ret && i < r->nr; i++) {
		const struct sc_field *f = &r->fields[i];
		struct sc_buf text = SC_BUF_INIT;

		if (strcmp(f->name, "description") && strcmp(f->name, "schema")) {
			sc_record_add(m, f->name, f->value, f->value_len);
			continue;
		}
		sc_buf_add(&text, f->value, f->value_len);
		if (mask_text(l, &text, &trunc) < 0)
			ret = -1;
		else
			sc_record_add(m, f->name, text.data ? text.data : "",
				      text.len);
		sc_buf_release(&text);
	}
	return ret;
}

static int mcp_conversation(void *ctx, const struct sc_record *r)
{
	struct loop *l = ctx;
	struct sc_record m;
	int ret;

	sc_record_init(&m);
	ret = masked_tool(l, r, &m);
	if (!ret)
		ret = append_conversation(l, &m);
	sc_record_release(&m);
	return ret;
}

/*
 * An external agent gets the same tools, masked alike, through sc-acp
 * (sc-acp(1) --mcp): an offer or a withdrawal goes to it as it comes.
 */
static int mcp_to_acp(void *ctx, const struct sc_record *r)
{
	struct loop *l = ctx;
	struct sc_record m;
	int ret;

	sc_record_init(&m);
	ret = masked_tool(l, r, &m);
	if (!ret && sc_coproc_send(l->acp, &m) < 0)
		ret = -1;
	sc_record_release(&m);
	return ret;
}

/* Start the servers for the external agent, then tell sc-acp the list
 * is complete: it opens the session with them. */
static int acp_mcp_start(struct loop *l)
{
	struct sc_agent_mcp_sink sink = { mcp_event, mcp_to_acp, l };
	struct sc_record r;
	int ret = 0;

	if (sc_agent_mcp_start(&l->mcp, l->prog->mcp, l->prog->nr_mcp,
			       &sink) < 0)
		return FAILED;
	sc_record_init(&r);
	sc_record_adds(&r, "type", "mcp-ready");
	if (sc_coproc_send(l->acp, &r) < 0)
		ret = stop(l, "ACP-EXITED", "the external agent's session is gone");
	sc_record_release(&r);
	return ret ? ret : GO_ON;
}

/* The policy judges an MCP call as tool=mcp server= name= digest=. */
static int judge_mcp(struct loop *l, const struct sc_record *call,
		     struct sc_record *v)
{
	struct sc_record j;
	int ret;

	sc_record_init(&j);
	ret = sc_agent_mcp_judged(&l->mcp, call, &j) < 0 ? FAILED :
	      judge(l, &j, v);
	sc_record_release(&j);
	return ret;
}

/* Carry an allowed MCP call; its result is capped like a command's. */
static int mcp_call(struct loop *l, const struct sc_record *call,
		    struct result *res)
{
	int ok = 0;

	if (sc_agent_mcp_call(&l->mcp, call, l->o->output_max, &res->text, &ok,
			      &res->truncated, &res->source) < 0)
		return FAILED;
	res->outcome = ok ? "ok" : "error";
	if (res->truncated)
		sc_buf_addf(&res->text, "\n[output truncated at %zu bytes]",
			    l->o->output_max);
	return GO_ON;
}

/*
 * A request of an external agent that sc-acp cannot map to one object
 * (tool=other): the policy cannot judge it, so a person decides, shown
 * the agent's whole request; --no-prompt refuses it.
 */
static int unmapped(struct loop *l, const struct sc_record *call,
		    struct sc_record *v)
{
	const struct sc_field *req = sc_record_get(call, "request");
	const char *title = sc_record_str(call, "title");

	sc_record_adds(v, "type", "verdict");
	sc_record_adds(v, "id", sc_record_str(call, "id") ?
		       sc_record_str(call, "id") : "");
	sc_record_adds(v, "decision", "ask");
	sc_record_adds(v, "rule", "ask.executor-unmapped");
	sc_record_adds(v, "reason", "The agent's own tool cannot be judged as "
		       "one object: a person decides on the whole request.");
	sc_record_adds(v, "class", "other");
	if (req)
		sc_record_add(v, "object", req->value, req->value_len);
	else
		sc_record_adds(v, "object", title ? title : "");
	return emit(l, v) < 0 ? FAILED : GO_ON;
}

/*
 * Write or delete PATH for a call a person approved, by speccoder's file
 * tool: the guard checks first (anything changed before is still found),
 * and its manifest is taken again after, so the approved change itself is
 * not a finding later.  An agent context file (CLAUDE.md) the person let
 * the agent write must not end the attempt as INTEGRITY.
 */
static int approved_file_change(struct loop *l, const char *tool,
				const char *path, const struct sc_record *call,
				struct result *res)
{
	int ret = guard(l), st;

	if (ret != GO_ON)
		return ret;
	file_tool(l, tool, path, call, res);
	if (!l->prog->snapshot || strcmp(res->outcome, "ok"))
		return GO_ON;
	st = run_tool(l->prog->snapshot, -1, -1, -1, -1);
	if (st != 0)
		return stop(l, "GUARD-FAILED", "the guard's manifest cannot be "
			    "taken again (status %d)", st);
	return GO_ON;
}

/* Remember OBJECT, approved by a person in a permission request. */
static void remember_approval(struct loop *l, const char *object)
{
	size_t i = l->next_approved++ % (sizeof(l->approved) /
					 sizeof(l->approved[0]));

	free(l->approved[i]);
	l->approved[i] = sc_xstrdup(object);
}

/* 1 when OBJECT was approved in a permission request, now used up. */
/* 1 when verdict V has at most one part that asks. */
static int one_part(const struct sc_record *v)
{
	struct sc_ask_part *parts;
	size_t nr = verdict_parts(v, &parts);

	free(parts);
	return nr <= 1;
}

static int take_approval(struct loop *l, const char *object)
{
	for (size_t i = 0; i < sizeof(l->approved) / sizeof(l->approved[0]); i++)
		if (l->approved[i] && !strcmp(l->approved[i], object)) {
			free(l->approved[i]);
			l->approved[i] = NULL;
			return 1;
		}
	return 0;
}

static int handle_call(struct loop *l, const struct sc_record *call)
{
	const char *id = sc_record_str(call, "id");
	const char *tool = sc_record_str(call, "tool");
	const char *outside = sc_record_str(call, "outside");
	const char *permission = sc_record_str(call, "permission");
	struct result res = { SC_BUF_INIT, "speccoder", "denied", -1, 0, 0 };
	struct sc_record v;
	struct sc_buf what = SC_BUF_INIT;
	struct sc_strlist hosts = { NULL, 0, 0 };
	const char *decision;
	int ret, allow = 0, asked = 0;

	sc_record_init(&v);
	if (l->acp && tool && !strcmp(tool, "other"))
		ret = unmapped(l, call, &v);
	else if (sc_call_is_mcp(tool))
		ret = judge_mcp(l, call, &v);
	else
		ret = judge(l, call, &v);
	if (ret != GO_ON)
		goto out;
	decision = sc_record_str(&v, "decision");
	if (!decision)
		decision = "deny";
	/* A command an external agent runs itself is outside the sandbox:
	 * a person decides it, whatever the policy would allow. */
	if (!strcmp(decision, "allow") && outside && !strcmp(outside, "1"))
		decision = "ask";
	progress(l, "  %-5s %s  [%s]", decision, describe(call, &what),
		 sc_record_str(&v, "rule") ? sc_record_str(&v, "rule") : "");
	if (!strcmp(decision, "allow"))
		allow = 1;
	else if (!strcmp(decision, "ask") && l->acp && !permission &&
		 sc_record_str(&v, "object") && one_part(&v) &&
		 take_approval(l, sc_record_str(&v, "object"))) {
		/* The agent does what the person approved in its request;
		 * an approval names one object, so it never covers a call
		 * with two parts that ask. */
		event_approval(l, id, sc_record_str(&v, "object"), NULL, 0,
			       SC_ANSWER_ONCE, "permission", NULL);
		allow = asked = 1;
	} else if (!strcmp(decision, "ask")) {
		/* Only a command the sandbox runs can be given hosts: not
		 * one an external agent runs itself. */
		int sandboxed = tool && !strcmp(tool, "run") && !permission &&
				!(outside && !strcmp(outside, "1"));

		allow = ask_person(l, call, &v, sandboxed ? &hosts : NULL, &ret);
		if (allow < 0)
			goto out;
		asked = 1;
		/* As if the policy had given them: run_command reads them. */
		for (size_t k = 0; allow && k < hosts.nr; k++)
			sc_record_adds(&v, "host", hosts.v[k]);
		if (allow && l->acp && permission && !strcmp(permission, "1") &&
		    sc_record_str(&v, "object") && *sc_record_str(&v, "object"))
			remember_approval(l, sc_record_str(&v, "object"));
	}
	if (!allow) {
		l->stats->denied++;
		l->denied_in_a_row++;
		sc_buf_addf(&res.text, "denied by speccoder's policy (%s): %s",
			    sc_record_str(&v, "rule") ? sc_record_str(&v, "rule") : "deny",
			    sc_record_str(&v, "reason") ? sc_record_str(&v, "reason") : "");
		ret = add_result(l, id, tool, &res);
		if (!ret && l->denied_in_a_row >= 3)
			ret = stop(l, "DENIED-THRICE", "three calls in a row were denied");
		goto out;
	}
	l->stats->allowed++;
	l->denied_in_a_row = 0;
	res.outcome = "ok";
	if (l->acp && permission && !strcmp(permission, "1")) {
		/* The external agent acts with its own tools: only the answer. */
		ret = add_result(l, id, tool, &res);
	} else if (sc_call_is_mcp(tool)) {
		ret = mcp_call(l, call, &res);
		if (!ret)
			ret = add_result(l, id, tool, &res);
		/* A server writes the root like a command can: checked alike. */
		if (!ret)
			ret = guard(l);
	} else if (tool && !strcmp(tool, "run")) {
		run_command(l, call, &v, &res);
		ret = add_result(l, id, tool, &res);
		if (!ret)
			ret = guard(l);
	} else if (tool && asked && call_path(call, &v) &&
		   (!strcmp(tool, "write") || !strcmp(tool, "delete"))) {
		ret = approved_file_change(l, tool, call_path(call, &v), call,
					   &res);
		if (ret == GO_ON)
			ret = add_result(l, id, tool, &res);
	} else if (tool && call_path(call, &v) &&
		   (!strcmp(tool, "read") || !strcmp(tool, "list") ||
		    !strcmp(tool, "write") || !strcmp(tool, "delete"))) {
		file_tool(l, tool, call_path(call, &v), call, &res);
		ret = add_result(l, id, tool, &res);
	} else {
		res.outcome = "error";
		sc_buf_adds(&res.text, "this tool is not available here");
		ret = add_result(l, id, tool, &res);
	}
out:
	sc_buf_wipe(&res.text);
	sc_buf_release(&what);
	sc_strlist_release(&hosts);
	sc_record_release(&v);
	return ret;
}

/* ---- one turn of the model ----------------------------------------- */

struct reply {
	struct sc_record *recs;
	size_t nr, alloc;
};

static void reply_release(struct reply *r)
{
	for (size_t i = 0; i < r->nr; i++)
		sc_record_release(&r->recs[i]);
	free(r->recs);
}

/*
 * Run the model with IN and OUT.  With a status line, it also gets
 * --progress-fd 3, a pipe whose records become the line on the status
 * descriptor while it answers, and its standard error comes through the
 * same relay (statusline.h): a diagnostic erases the line first, and the
 * line is erased when the model is done.
 */
static int run_model(struct loop *l, int in, int out)
{
	char **argv = l->prog->model, **with;
	size_t n = 0;
	int p[2], e[2];
	pid_t pid = -1;

	if (l->o->status_fd < 0)
		return run_tool(argv, in, out, -1, -1);
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(e, O_CLOEXEC) < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	while (argv[n])
		n++;
	with = sc_xcalloc(n + 3, sizeof(*with));
	memcpy(with, argv, n * sizeof(*with));
	with[n] = "--progress-fd";
	with[n + 1] = "3";
	pid = sc_spawn_fd3(with, in, out, e[1], p[1], -1);
	free(with);
	close(p[1]);
	close(e[1]);
	if (pid >= 0)
		sc_status_relay(p[0], e[0], l->o->status_fd);
	close(p[0]);
	close(e[0]);
	return pid < 0 ? -1 : sc_wait(pid);
}

static int ask_model(struct loop *l, struct reply *reply)
{
	int in = open(l->o->conversation, O_RDONLY | O_CLOEXEC);
	int out = sc_anon_file("sc-agent-reply"), st = -1, rs;
	struct sc_input *input;
	struct sc_reader rd;

	if (in >= 0 && out >= 0)
		st = run_model(l, in, out);
	if (in >= 0)
		close(in);
	if (st != 0) {
		if (out >= 0)
			close(out);
		return stop(l, "MODEL-FAILED", "the model gave no reply "
			    "(status %d; see its error above)", st);
	}
	lseek(out, 0, SEEK_SET);
	input = sc_xmalloc(sizeof(*input));
	sc_input_init_fd(input, out);
	sc_reader_init(&rd, input);
	for (;;) {
		SC_ALLOC_GROW(reply->recs, reply->nr + 1, reply->alloc);
		sc_record_init(&reply->recs[reply->nr]);
		rs = sc_reader_next(&rd, &reply->recs[reply->nr]);
		if (rs != SC_READ_RECORD) {
			sc_record_release(&reply->recs[reply->nr]);
			break;
		}
		reply->nr++;
	}
	free(input);
	close(out);
	if (rs < 0)
		return stop(l, "MODEL-FAILED", "the model's reply is malformed");
	return GO_ON;
}

/* Append the model's words and calls to the conversation, as it gave them. */
static int take_reply(struct loop *l, const struct reply *reply,
		      size_t *calls)
{
	*calls = 0;
	for (size_t i = 0; i < reply->nr; i++) {
		const struct sc_record *r = &reply->recs[i];
		const char *type = sc_record_type(r);

		/* The usage goes to the journal, for report's totals. */
		if (type && !strcmp(type, "usage")) {
			if (emit(l, r) < 0)
				return FAILED;
			continue;
		}
		if (!type || (strcmp(type, "text") && strcmp(type, "call")))
			continue;
		if (append_conversation(l, r) < 0 || emit(l, r) < 0)
			return FAILED;
		if (!strcmp(type, "call"))
			(*calls)++;
		else {
			const char *t = sc_record_str(r, "text");
			progress(l, "  model: %.160s", t ? t : "");
		}
	}
	return GO_ON;
}

static int turn(struct loop *l)
{
	struct reply reply = { NULL, 0, 0 };
	size_t calls = 0;
	int ret;

	l->turn++;
	l->stats->turns = l->turn;
	ret = ask_model(l, &reply);
	if (ret == GO_ON)
		ret = take_reply(l, &reply, &calls);
	for (size_t i = 0; ret == GO_ON && i < reply.nr; i++) {
		const char *type = sc_record_type(&reply.recs[i]);
		if (type && !strcmp(type, "call"))
			ret = handle_call(l, &reply.recs[i]);
	}
	reply_release(&reply);
	if (ret == GO_ON && !calls)
		return ENDED;
	return ret;
}

/* sc-acp's next record: one held while a command ran, else read. */
static int next_from_acp(struct loop *l, struct sc_record *r)
{
	if (l->nheld) {
		sc_record_release(r);
		*r = l->held[0];
		memmove(l->held, l->held + 1, --l->nheld * sizeof(l->held[0]));
		return SC_READ_RECORD;
	}
	return sc_reader_next(&l->acp->rd, r);
}

/* One record of sc-acp's that is not a call: an event, maybe the end. */
static int acp_event(struct loop *l, const struct sc_record *r)
{
	const char *type = sc_record_type(r);

	if (emit(l, r) < 0)
		return FAILED;
	if (!strcmp(type, "text"))
		progress(l, "  agent: %.160s", sc_record_str(r, "text") ?
			 sc_record_str(r, "text") : "");
	else if (!strcmp(type, "mode") && sc_record_str(r, "decides-alone") &&
		 !strcmp(sc_record_str(r, "decides-alone"), "1"))
		progress(l, "  the agent decides alone (%s): what it does "
			 "without asking is outside speccoder's policy",
			 sc_record_str(r, "reason") ?
			 sc_record_str(r, "reason") : "its mode");
	else if (!strcmp(type, "end")) {
		/*
		 * The agent may have changed files with its own tools: the
		 * guard looks before anything (a check) runs them.
		 */
		int ret = guard(l);

		return ret == GO_ON ? ENDED : ret;
	} else if (!strcmp(type, "stop"))
		return stop(l, sc_record_str(r, "code") ?
			    sc_record_str(r, "code") : "ACP-EXITED",
			    "the external agent's session failed");
	return GO_ON;
}

/*
 * One task made by an external agent: the prompt goes to the sc-acp
 * coprocess; each request it reports is a call like the model's, and its
 * answer goes back to it; the turn ends when the agent ends it.
 */
static int executor_task(struct loop *l)
{
	struct sc_record r;
	int st, ret = GO_ON;

	l->turn++;
	l->stats->turns = l->turn;
	sc_record_init(&r);
	sc_record_adds(&r, "type", "prompt");
	sc_record_add(&r, "text", l->o->prompt ? l->o->prompt : "",
		      l->o->prompt_len);
	if (sc_coproc_send(l->acp, &r) < 0)
		ret = stop(l, "ACP-EXITED", "the external agent did not take the task");
	while (ret == GO_ON &&
	       (st = next_from_acp(l, &r)) == SC_READ_RECORD) {
		const char *type = sc_record_type(&r);

		if (!type || !strcmp(type, "kill"))
			continue;   /* a kill of a command that already ended */
		ret = !strcmp(type, "call") ? handle_call(l, &r) : acp_event(l, &r);
	}
	if (ret == GO_ON)
		ret = stop(l, "ACP-EXITED", "the external agent's session ended "
			   "before the task");
	sc_record_release(&r);
	return ret;
}

/*
 * End the external agent's session.  When the loop stopped in the middle
 * of a turn, sc-acp cancels it (session/cancel, a bounded wait, then the
 * agent's process group is killed); what it says until it exits goes to
 * the events, so the journal holds the whole session and nobody writes
 * into a closed pipe.
 */
static void acp_end(struct loop *l)
{
	struct sc_record r;

	if (!l->acp)
		return;
	sc_output_release(&l->acp->out);
	close(l->acp->to);
	l->acp->to = -1;
	sc_record_init(&r);
	while (next_from_acp(l, &r) == SC_READ_RECORD) {
		const char *type = sc_record_type(&r);

		if (type && strcmp(type, "call") && strcmp(type, "kill"))
			(void)emit(l, &r);
	}
	sc_record_release(&r);
	close(l->acp->in.fd);
	(void)sc_wait(l->acp->pid);
	free(l->acp);
	l->acp = NULL;
}

/* The exit status of the loop that ended with outcome RET (agent.h). */
static int loop_exit(const struct loop *l, int ret)
{
	switch (ret) {
	case ENDED: return SC_EXIT_OK;
	case STOPPED: return SC_EXIT_NO;
	default:
		return l->unusable_program ? SC_EXIT_UNAVAILABLE :
		       SC_EXIT_INTERNAL;
	}
}

/* The coprocess WHAT did not start: FAILED, after error[CODE]. */
static int not_started(struct loop *l, const char *code, const char *what)
{
	l->unusable_program = 1;
	sc_error_errno(code, "cannot start %s", what);
	return FAILED;
}

/*
 * Start the coprocesses the loop keeps: the classifier, the masker, the
 * MCP servers, an external agent.  GO_ON, or FAILED after a diagnostic.
 */
static int start_programs(struct loop *l)
{
	const struct sc_agent_programs *prog = l->prog;

	l->cls = sc_coproc_start(prog->classify);
	if (!l->cls)
		return not_started(l, "CLASSIFY-FAILED", "the classifier");
	/* One masker for the run: its matcher is compiled once. */
	l->mask = sc_coproc_start(prog->mask);
	if (!l->mask)
		return not_started(l, "MASK-FAILED", "the masker");
	if (prog->nr_mcp && !prog->executor) {
		struct sc_agent_mcp_sink sink = { mcp_event, mcp_conversation, l };

		/* Servers start once per attempt, before the first turn. */
		if (sc_agent_mcp_start(&l->mcp, prog->mcp, prog->nr_mcp, &sink) < 0)
			return FAILED;
	}
	if (prog->executor) {
		l->acp = sc_coproc_start(prog->executor);
		if (!l->acp)
			return not_started(l, "ACP-START", "the external agent");
	}
	return GO_ON;
}

int sc_agent_run(const struct sc_agent_opts *o,
		 const struct sc_agent_programs *prog,
		 struct sc_agent_stats *stats)
{
	struct loop l;
	int ret, status;

	memset(&l, 0, sizeof(l));
	l.o = o;
	l.prog = prog;
	l.stats = stats;
	l.rootfd = open(o->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (l.rootfd < 0)
		return sc_error_errno("BAD-ROOT", "cannot open the root"), SC_EXIT_USAGE;
	l.conv = open(o->conversation, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (l.conv < 0) {
		close(l.rootfd);
		sc_error_errno("CONVERSATION", "cannot open the conversation");
		return SC_EXIT_UNAVAILABLE;
	}
	sc_output_init_records(&l.events, o->events_fd, o->force_records);
	ret = start_programs(&l);
	if (ret == GO_ON && l.acp && prog->nr_mcp)
		ret = acp_mcp_start(&l);
	if (ret == GO_ON && l.acp)
		ret = executor_task(&l);
	while (ret == GO_ON) {
		if (l.turn >= o->max_turns) {
			ret = stop(&l, "MAX-TURNS", "the model took %u turns "
				   "without ending the task", o->max_turns);
			break;
		}
		ret = turn(&l);
	}
	status = loop_exit(&l, ret);
	acp_end(&l);
	sc_agent_mcp_end(&l.mcp);
	sc_coproc_end(l.cls);
	sc_coproc_end(l.mask);
	for (size_t i = 0; i < sizeof(l.approved) / sizeof(l.approved[0]); i++)
		free(l.approved[i]);
	sc_output_flush(&l.events);
	sc_output_release(&l.events);
	close(l.conv);
	close(l.rootfd);
	return status;
}
