/*
 * sc-agent(1)'s loop (agent.h): the model's turns, or the task of an
 * external agent through sc-acp, each call handed to agent-decide.c; the
 * records the loop writes (events, conversation, progress); and
 * sc_agent_run, which starts the coprocesses and turns the loop's
 * outcome into an exit status.  The other pieces are named in agent-int.h.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent-int.h"
#include "alloc.h"
#include "diag.h"
#include "io.h"
#include "process.h"
#include "rectable.h"
#include "statusline.h"

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

void sc_agent_progress(struct loop *l, const char *fmt, ...)
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

/* Write R to the events with the time it happened, as the journal keeps it. */
int sc_agent_emit(struct loop *l, const struct sc_record *r)
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

int sc_agent_append_conversation(struct loop *l, const struct sc_record *r)
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

int sc_agent_stop(struct loop *l, const char *code, const char *fmt, ...)
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

/* ---- running the other tools --------------------------------------- */

/* Run ARGV with IN, OUT and ERR (-1: ours) in DIRFD; its status. */
int sc_agent_run_tool(char **argv, int in, int out, int err, int dirfd)
{
	pid_t pid = sc_spawn(argv, in, out, err, dirfd);

	if (pid < 0)
		return -1;
	return sc_wait(pid);
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
		return sc_agent_run_tool(argv, in, out, -1, -1);
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
		return sc_agent_stop(l, "MODEL-FAILED", "the model gave no reply "
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
		return sc_agent_stop(l, "MODEL-FAILED", "the model's reply is malformed");
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
			if (sc_agent_emit(l, r) < 0)
				return FAILED;
			continue;
		}
		if (!type || (strcmp(type, "text") && strcmp(type, "call")))
			continue;
		if (sc_agent_append_conversation(l, r) < 0 || sc_agent_emit(l, r) < 0)
			return FAILED;
		if (!strcmp(type, "call"))
			(*calls)++;
		else {
			const char *t = sc_record_str(r, "text");
			sc_agent_progress(l, "  model: %.160s", t ? t : "");
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
			ret = sc_agent_handle_call(l, &reply.recs[i]);
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

	if (sc_agent_emit(l, r) < 0)
		return FAILED;
	if (!strcmp(type, "text"))
		sc_agent_progress(l, "  agent: %.160s", sc_record_str(r, "text") ?
				  sc_record_str(r, "text") : "");
	else if (!strcmp(type, "mode") && sc_record_str(r, "decides-alone") &&
		 !strcmp(sc_record_str(r, "decides-alone"), "1"))
		sc_agent_progress(l, "  the agent decides alone (%s): what it does "
				  "without asking is outside speccoder's policy",
				  sc_record_str(r, "reason") ?
				  sc_record_str(r, "reason") : "its mode");
	else if (!strcmp(type, "end")) {
		/*
		 * The agent may have changed files with its own tools: the
		 * guard looks before anything (a check) runs them.
		 */
		int ret = sc_agent_guard(l);

		return ret == GO_ON ? ENDED : ret;
	} else if (!strcmp(type, "stop"))
		return sc_agent_stop(l, sc_record_str(r, "code") ?
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
		ret = sc_agent_stop(l, "ACP-EXITED",
				    "the external agent did not take the task");
	while (ret == GO_ON &&
	       (st = next_from_acp(l, &r)) == SC_READ_RECORD) {
		const char *type = sc_record_type(&r);

		if (!type || !strcmp(type, "kill"))
			continue;   /* a kill of a command that already ended */
		ret = !strcmp(type, "call") ? sc_agent_handle_call(l, &r) :
		      acp_event(l, &r);
	}
	if (ret == GO_ON)
		ret = sc_agent_stop(l, "ACP-EXITED", "the external agent's session ended "
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
			(void)sc_agent_emit(l, &r);
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
		struct sc_agent_mcp_sink sink = {
			sc_agent_servers_event, sc_agent_servers_conversation, l
		};

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
		ret = sc_agent_servers_acp_start(&l);
	if (ret == GO_ON && l.acp)
		ret = executor_task(&l);
	while (ret == GO_ON) {
		if (l.turn >= o->max_turns) {
			ret = sc_agent_stop(&l, "MAX-TURNS", "the model took %u turns "
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
