/*
 * sc-agent: the loop of one task of an attempt (sc-agent(1)).  This main
 * reads options, the programs file and the messages that open the
 * conversation; lib/agent.c decides what happens to every call.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "alloc.h"
#include "approve.h"
#include "diag.h"
#include "io.h"
#include "opt.h"
#include "record.h"
#include "rectable.h"

static const char *const synopsis[] = {
	"--root DIR --conversation FILE --programs FILE [--system FILE] "
	"[--trusted FILE]... [--untrusted FILE]... [--grants FILE] "
	"[--no-prompt] [--answers FILE] [--budget N] [--before FILE] [--max-turns N] "
	"[--read-max BYTES] [--output-max BYTES] [--progress] [--status-line]",
	NULL,
};

static const struct sc_tool tool = {
	"sc-agent", synopsis,
	"    --root DIR            the worktree the calls work in\n"
	"    --conversation FILE   the conversation (records), created when "
	"absent\n"
	"    --programs FILE       the model, classify, sandbox, mask and "
	"guard argvs\n"
	"    --system FILE         the system prompt of a new conversation\n"
	"    --trusted FILE        add a message from speccoder or the person\n"
	"    --untrusted FILE      add a message of command output\n"
	"    --grants FILE         where grants for this run are added\n"
	"    --no-prompt           nobody is asked: ask is deny\n"
	"    --answers FILE        scripted answers instead of the terminal\n"
	"    --budget N            questions the run may ask (default 20)\n"
	"    --before FILE         the end record of the run's loop before\n"
	"    --max-turns N         model turns before the task stops "
	"(default 50)\n"
	"    --read-max BYTES      bytes of a file read (default 262144)\n"
	"    --output-max BYTES    bytes of a command's output (default "
	"1048576)\n"
	"    --progress            describe each call on stderr\n"
	"    --status-line         the model's progress on stderr, a line "
	"rewritten in place\n"
	"    -z, --records         records even when stdout is a terminal\n"
	"    -h, --help            show this help\n"
	"    --version             show the version\n",
	0,
};

/* The largest message file: a spec or a check's output, 4 MiB. */
#define MESSAGE_MAX ((size_t)4 << 20)

enum { OPT_ROOT = 0x100, OPT_CONV, OPT_PROGRAMS, OPT_SYSTEM, OPT_TRUSTED,
       OPT_UNTRUSTED, OPT_GRANTS, OPT_NO_PROMPT, OPT_ANSWERS, OPT_BUDGET,
       OPT_MAX_TURNS, OPT_READ_MAX, OPT_OUTPUT_MAX, OPT_PROGRESS,
       OPT_STATUS_LINE, OPT_BEFORE };

struct message {
	const char *label, *source, *file;
};

struct cmdline {
	struct sc_agent_opts o;
	const char *programs, *system, *answers, *before;
	struct message *msgs;
	size_t nr_msgs, alloc_msgs;
	int progress, status_line;
};

static unsigned long long number(const char *text, unsigned long long max,
				 const char *what)
{
	unsigned long long v;

	if (sc_parse_uint(text, max, &v) < 0 || v == 0)
		sc_die(SC_EXIT_USAGE, "USAGE", "%s must be a number from 1 to "
		       "%llu", what, max);
	return v;
}

static void add_message(struct cmdline *c, const char *label,
			const char *source, const char *file)
{
	SC_ALLOC_GROW(c->msgs, c->nr_msgs + 1, c->alloc_msgs);
	c->msgs[c->nr_msgs].label = label;
	c->msgs[c->nr_msgs].source = source;
	c->msgs[c->nr_msgs].file = file;
	c->nr_msgs++;
}

static void parse_options(int argc, char **argv, struct cmdline *c)
{
	static const struct option longopts[] = {
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "conversation", required_argument, NULL, OPT_CONV },
		{ "programs", required_argument, NULL, OPT_PROGRAMS },
		{ "system", required_argument, NULL, OPT_SYSTEM },
		{ "trusted", required_argument, NULL, OPT_TRUSTED },
		{ "untrusted", required_argument, NULL, OPT_UNTRUSTED },
		{ "grants", required_argument, NULL, OPT_GRANTS },
		{ "no-prompt", no_argument, NULL, OPT_NO_PROMPT },
		{ "answers", required_argument, NULL, OPT_ANSWERS },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "before", required_argument, NULL, OPT_BEFORE },
		{ "max-turns", required_argument, NULL, OPT_MAX_TURNS },
		{ "read-max", required_argument, NULL, OPT_READ_MAX },
		{ "output-max", required_argument, NULL, OPT_OUTPUT_MAX },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "status-line", no_argument, NULL, OPT_STATUS_LINE },
		{ "records", no_argument, NULL, 'z' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long v;
	int opt;

	while ((opt = sc_getopt(argc, argv, "hz", longopts, &tool)) != -1) {
		switch (opt) {
		case 'z': c->o.force_records = 1; break;
		case OPT_ROOT: c->o.root = optarg; break;
		case OPT_CONV: c->o.conversation = optarg; break;
		case OPT_PROGRAMS: c->programs = optarg; break;
		case OPT_SYSTEM: c->system = optarg; break;
		case OPT_TRUSTED: add_message(c, "trusted", "speccoder", optarg); break;
		case OPT_UNTRUSTED: add_message(c, "untrusted", "command", optarg); break;
		case OPT_GRANTS: c->o.grants = optarg; break;
		case OPT_NO_PROMPT: c->o.no_prompt = 1; break;
		case OPT_ANSWERS: c->answers = optarg; break;
		case OPT_BUDGET:
			/* 0: the run's questions are spent; every ask is no. */
			if (sc_parse_uint(optarg, 1000, &v) < 0)
				sc_die(SC_EXIT_USAGE, "USAGE", "--budget must be "
				       "a number from 0 to 1000");
			c->o.budget = (unsigned)v;
			break;
		case OPT_BEFORE: c->before = optarg; break;
		case OPT_MAX_TURNS:
			c->o.max_turns = (unsigned)number(optarg, 10000, "--max-turns");
			break;
		case OPT_READ_MAX:
			c->o.read_max = number(optarg, SC_RECORD_MAX / 2, "--read-max");
			break;
		case OPT_OUTPUT_MAX:
			c->o.output_max = number(optarg, SC_RECORD_MAX / 2,
						 "--output-max");
			break;
		case OPT_PROGRESS: c->progress = 1; break;
		case OPT_STATUS_LINE: c->status_line = 1; break;
		default: sc_usage_error(&tool, NULL);
		}
	}
	if (optind != argc)
		sc_usage_error(&tool, "unexpected argument");
	if (!c->o.root || !c->o.conversation || !c->programs)
		sc_usage_error(&tool, "--root, --conversation and --programs "
			       "are required");
}

/* ---- the programs file --------------------------------------------- */

static char **copy_argv(const struct sc_record *r)
{
	char **v = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < r->nr; i++) {
		if (strcmp(r->fields[i].name, "argv"))
			continue;
		if (memchr(r->fields[i].value, '\0', r->fields[i].value_len))
			return NULL;
		SC_ALLOC_GROW(v, n + 2, alloc);
		v[n++] = sc_xstrdup(r->fields[i].value);
	}
	if (v)
		v[n] = NULL;
	return v;
}

static int load_programs(const char *path, struct sc_agent_programs *p)
{
	static const char *const names[] = { "classify", "sandbox", "mask",
					     "model", "guard", "executor",
					     "snapshot" };
	char ***slots[] = { &p->classify, &p->sandbox, &p->mask, &p->model,
			    &p->guard, &p->executor, &p->snapshot };
	struct sc_input *in;
	struct sc_reader rd;
	struct sc_record r;
	int fd = open(path, O_RDONLY | O_CLOEXEC), st, ret = 0;

	if (fd < 0) {
		sc_error_errno("PROGRAMS-UNREADABLE", "cannot open '%s'", path);
		return SC_EXIT_UNAVAILABLE;
	}
	in = sc_xmalloc(sizeof(*in));
	sc_input_init_fd(in, fd);
	sc_reader_init(&rd, in);
	sc_record_init(&r);
	while ((st = sc_reader_next(&rd, &r)) == SC_READ_RECORD) {
		const char *type = sc_record_type(&r);
		if (type && !strcmp(type, "mcp")) {
			/* One sc-mcp a server: the record repeats. */
			p->mcp = sc_xrealloc(p->mcp, (p->nr_mcp + 1) *
					     sizeof(*p->mcp));
			p->mcp[p->nr_mcp] = copy_argv(&r);
			if (!p->mcp[p->nr_mcp++]) {
				sc_error("BAD-PROGRAMS", "the mcp record has no "
					 "argv");
				ret = SC_EXIT_MALFORMED;
			}
		}
		for (size_t i = 0; type && i < 7; i++) {
			if (strcmp(type, names[i]))
				continue;
			*slots[i] = copy_argv(&r);
			if (!*slots[i]) {
				sc_error("BAD-PROGRAMS", "the %s record has no "
					 "argv", type);
				ret = SC_EXIT_MALFORMED;
			}
		}
	}
	if (st < 0)
		ret = sc_reader_report(&rd, st);
	for (size_t i = 0; !ret && i < 3; i++)
		if (!*slots[i]) {
			sc_error("BAD-PROGRAMS", "the programs file names no %s",
				 names[i]);
			ret = SC_EXIT_MALFORMED;
		}
	if (!ret && !p->model && !p->executor) {
		sc_error("BAD-PROGRAMS", "the programs file names no model and "
			 "no executor");
		ret = SC_EXIT_MALFORMED;
	}
	sc_record_release(&r);
	free(in);
	close(fd);
	return ret;
}

/* ---- opening the conversation -------------------------------------- */

static int read_message(const char *path, struct sc_buf *out)
{
	int st = sc_read_file_max(path, MESSAGE_MAX, out);

	if (st == -2)
		return sc_error("MESSAGE-TOO-LARGE", "'%s' is larger than %zu "
				"bytes", path, MESSAGE_MAX);
	if (st < 0)
		return sc_error_errno("MESSAGE-UNREADABLE", "cannot read '%s'",
				      path);
	return 0;
}

/*
 * Add a record holding FILE's text to WIRE; a message's text is also added
 * to PROMPT (what an external agent is given), when PROMPT is set.
 */
static int add_text_record(struct sc_buf *wire, const char *type,
			   const char *label, const char *source,
			   const char *file, struct sc_buf *prompt)
{
	struct sc_buf text = SC_BUF_INIT;
	struct sc_record r;

	if (read_message(file, &text) < 0) {
		sc_buf_release(&text);
		return -1;
	}
	if (prompt) {
		if (prompt->len)
			sc_buf_adds(prompt, "\n\n");
		sc_buf_add(prompt, text.data ? text.data : "", text.len);
	}
	sc_record_init(&r);
	sc_record_adds(&r, "type", type);
	if (!strcmp(type, "message"))
		sc_record_adds(&r, "role", "user");
	sc_record_adds(&r, "label", label);
	sc_record_adds(&r, "source", source);
	sc_record_add(&r, "text", text.data ? text.data : "", text.len);
	sc_record_encode(&r, wire);
	sc_record_release(&r);
	sc_buf_release(&text);
	return 0;
}

/*
 * A new conversation opens with the system prompt and the tools; every run
 * then adds its messages.  The records are written whole or not at all.
 */
static int open_conversation(const struct cmdline *c, struct sc_buf *prompt)
{
	struct sc_buf wire = SC_BUF_INIT;
	struct stat st;
	int fd, ret = 0, fresh;

	fd = open(c->o.conversation, O_WRONLY | O_APPEND | O_CREAT |
		  O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || fstat(fd, &st) < 0) {
		sc_error_errno("CONVERSATION", "cannot open the conversation");
		if (fd >= 0)
			close(fd);
		return SC_EXIT_UNAVAILABLE;
	}
	fresh = st.st_size == 0;
	if (fresh && c->system &&
	    add_text_record(&wire, "system", "trusted", "speccoder", c->system,
			    NULL) < 0)
		ret = SC_EXIT_UNAVAILABLE;
	if (fresh)
		sc_agent_tool_records(&wire);
	for (size_t i = 0; !ret && i < c->nr_msgs; i++)
		if (add_text_record(&wire, "message", c->msgs[i].label,
				    c->msgs[i].source, c->msgs[i].file,
				    prompt) < 0)
			ret = SC_EXIT_UNAVAILABLE;
	if (!ret && wire.len && sc_write_all(fd, wire.data, wire.len) < 0) {
		sc_error_errno("CONVERSATION", "cannot write the conversation");
		ret = SC_EXIT_INTERNAL;
	}
	sc_buf_release(&wire);
	close(fd);
	return ret;
}

static void write_end(const struct sc_agent_opts *o,
		      const struct sc_agent_stats *s, int status)
{
	struct sc_output out;
	struct sc_record r;

	sc_output_init_records(&out, STDOUT_FILENO, o->force_records);
	sc_record_init(&r);
	sc_agent_end_record(o, s, status, &r);
	sc_record_write(&out, &r);
	sc_output_flush(&out);
	sc_output_release(&out);
	sc_record_release(&r);
}

int main(int argc, char **argv)
{
	struct cmdline c;
	struct sc_agent_programs prog;
	struct sc_agent_stats stats;
	struct sc_asker asker;
	struct sc_buf prompt = SC_BUF_INIT;
	int ret;

	sc_diag_init("sc-agent");
	/* A tool that dies mid-answer is a failed call, not our death. */
	signal(SIGPIPE, SIG_IGN);
	memset(&c, 0, sizeof(c));
	memset(&prog, 0, sizeof(prog));
	memset(&stats, 0, sizeof(stats));
	c.o.budget = 20;
	c.o.max_turns = 50;
	c.o.read_max = 256 << 10;
	c.o.output_max = 1 << 20;
	parse_options(argc, argv, &c);
	ret = load_programs(c.programs, &prog);
	if (ret)
		return ret;
	if (c.before && sc_agent_read_before(c.before, &c.o.before) < 0)
		return SC_EXIT_UNAVAILABLE;
	ret = open_conversation(&c, &prompt);
	if (ret)
		return ret;
	c.o.prompt = prompt.data;
	c.o.prompt_len = prompt.len;
	if (sc_asker_open(&asker, c.answers) < 0)
		return SC_EXIT_UNAVAILABLE;
	c.o.asker = &asker;
	c.o.events_fd = STDOUT_FILENO;
	c.o.progress_fd = c.progress ? STDERR_FILENO : -1;
	c.o.status_fd = c.status_line ? STDERR_FILENO : -1;
	ret = sc_agent_run(&c.o, &prog, &stats);
	if (ret <= SC_EXIT_NO || stats.code[0])
		write_end(&c.o, &stats, ret);
	if (ret == SC_EXIT_NO && stats.code[0])
		sc_error(stats.code, "%s", stats.reason.data);
	sc_asker_close(&asker);
	sc_buf_release(&stats.reason);
	sc_buf_release(&prompt);
	return ret;
}
