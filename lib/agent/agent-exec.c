/*
 * What an allowed call of sc-agent(1) does: a file tool on the root, a
 * command in the sandbox (with the hosts its verdict gave, the proxy's
 * connections journaled, an external agent's terminal told and able to
 * kill it), the guard after anything that may change the root; and the
 * result, masked by the masker coprocess, sent back to the model or to
 * sc-acp.  Separate from deciding: nothing here asks whether a call may
 * run.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent-int.h"
#include "alloc.h"
#include "config.h"
#include "diag.h"
#include "env.h"
#include "filetool.h"
#include "io.h"
#include "paths.h"
#include "process.h"

/* A result is cut here so the conversation stays bounded whatever ran. */
#define MASK_OUT_MAX ((size_t)8 << 20)

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
int sc_agent_mask_text(struct loop *l, struct sc_buf *text, int *truncated)
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

const char *sc_agent_call_path(const struct sc_record *call,
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

void sc_agent_file_tool(struct loop *l, const char *tool, const char *path,
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
				sc_agent_emit(l, &r);
		sc_record_release(&r);
	}
	sc_buf_release(&b);
	unlink(path);
	free(path);
}

void sc_agent_run_command(struct loop *l, const struct sc_record *call,
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

int sc_agent_guard(struct loop *l)
{
	int out = sc_anon_file("sc-agent-guard"), st;
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record f;

	if (!l->prog->guard)
		return GO_ON;
	if (out < 0)
		return sc_agent_stop(l, "GUARD-FAILED", "cannot run the guard");
	st = sc_agent_run_tool(l->prog->guard, -1, out, -1, -1);
	if (st == 0) {
		close(out);
		return GO_ON;
	}
	if (st != 1) {
		close(out);
		return sc_agent_stop(l, "GUARD-FAILED", "the guard failed (status %d): "
				     "the repository cannot be checked", st);
	}
	lseek(out, 0, SEEK_SET);
	sc_input_init_fd(&in, out);
	sc_reader_init(&rd, &in);
	sc_record_init(&f);
	st = sc_agent_stop(l, "INTEGRITY", "the guard found a change it cannot name");
	while (sc_reader_next(&rd, &f) == SC_READ_RECORD) {
		const char *code = sc_record_str(&f, "code");
		const char *what = sc_record_str(&f, "path");
		const char *change = sc_record_str(&f, "change");

		if (!code)
			continue;
		if (!what)
			what = sc_record_str(&f, "item");
		sc_agent_emit(l, &f);
		st = sc_agent_stop(l, code, "%s was %s by a command",
				   what ? what : "a protected input",
				   change ? change : "changed");
		break;
	}
	sc_record_release(&f);
	close(out);
	return st;
}

/* ---- the result, sent back ----------------------------------------- */

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
	ret = sc_agent_append_conversation(l, &r) < 0 ? FAILED : 0;
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
		ret = sc_agent_stop(l, "ACP-EXITED",
				    "the external agent's session is gone");
	sc_record_release(&r);
	return ret;
}

int sc_agent_add_result(struct loop *l, const char *id, const char *tool,
			struct result *res)
{
	struct sc_record r;
	int ret;

	if (sc_agent_mask_text(l, &res->text, &res->truncated) < 0)
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
	if (!ret && sc_agent_emit(l, &r) < 0)
		ret = FAILED;
	sc_record_release(&r);
	return ret;
}

/* ---- a change a person approved ------------------------------------ */

/*
 * Write or delete PATH for a call a person approved, by speccoder's file
 * tool: the guard checks first (anything changed before is still found),
 * and its manifest is taken again after, so the approved change itself is
 * not a finding later.  An agent context file (CLAUDE.md) the person let
 * the agent write must not end the attempt as INTEGRITY.
 */
int sc_agent_approved_file_change(struct loop *l, const char *tool,
				  const char *path, const struct sc_record *call,
				  struct result *res)
{
	int ret = sc_agent_guard(l), st;

	if (ret != GO_ON)
		return ret;
	sc_agent_file_tool(l, tool, path, call, res);
	if (!l->prog->snapshot || strcmp(res->outcome, "ok"))
		return GO_ON;
	st = sc_agent_run_tool(l->prog->snapshot, -1, -1, -1, -1);
	if (st != 0)
		return sc_agent_stop(l, "GUARD-FAILED", "the guard's manifest cannot be "
				     "taken again (status %d)", st);
	return GO_ON;
}
