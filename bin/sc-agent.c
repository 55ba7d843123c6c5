/*
 * sc-agent: the loop of one task of an attempt (sc-agent(1)).  This main
 * reads options; lib/agent/agent-task.c reads the programs file and opens the
 * conversation, lib/agent/agent.c decides what happens to every call.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "agent-task.h"
#include "alloc.h"
#include "diag.h"
#include "opt.h"
#include "record.h"

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

enum { OPT_ROOT = 0x100, OPT_CONV, OPT_PROGRAMS, OPT_SYSTEM, OPT_TRUSTED,
       OPT_UNTRUSTED, OPT_GRANTS, OPT_NO_PROMPT, OPT_ANSWERS, OPT_BUDGET,
       OPT_MAX_TURNS, OPT_READ_MAX, OPT_OUTPUT_MAX, OPT_PROGRESS,
       OPT_STATUS_LINE, OPT_BEFORE };

struct cmdline {
	struct sc_agent_task t;
	struct sc_agent_message *msgs;
	size_t alloc_msgs;
};

static void add_message(struct cmdline *c, const char *label,
			const char *source, const char *file)
{
	SC_ALLOC_GROW(c->msgs, c->t.nr_msgs + 1, c->alloc_msgs);
	c->msgs[c->t.nr_msgs].label = label;
	c->msgs[c->t.nr_msgs].source = source;
	c->msgs[c->t.nr_msgs].file = file;
	c->t.msgs = c->msgs;
	c->t.nr_msgs++;
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
	int opt;

	while ((opt = sc_getopt(argc, argv, "hz", longopts, &tool)) != -1) {
		switch (opt) {
		case 'z': c->t.o.force_records = 1; break;
		case OPT_ROOT: c->t.o.root = optarg; break;
		case OPT_CONV: c->t.o.conversation = optarg; break;
		case OPT_PROGRAMS: c->t.programs = optarg; break;
		case OPT_SYSTEM: c->t.system = optarg; break;
		case OPT_TRUSTED: add_message(c, "trusted", "speccoder", optarg); break;
		case OPT_UNTRUSTED: add_message(c, "untrusted", "command", optarg); break;
		case OPT_GRANTS: c->t.o.grants = optarg; break;
		case OPT_NO_PROMPT: c->t.o.no_prompt = 1; break;
		case OPT_ANSWERS: c->t.answers = optarg; break;
		case OPT_BUDGET:
			/* 0: the run's questions are spent; every ask is no. */
			c->t.o.budget = (unsigned)sc_opt_number(&tool, optarg, 0,
								1000, "--budget");
			break;
		case OPT_BEFORE: c->t.before = optarg; break;
		case OPT_MAX_TURNS:
			c->t.o.max_turns = (unsigned)sc_opt_number(&tool, optarg, 1,
								   10000, "--max-turns");
			break;
		case OPT_READ_MAX:
			c->t.o.read_max = sc_opt_number(&tool, optarg, 1,
							SC_RECORD_MAX / 2, "--read-max");
			break;
		case OPT_OUTPUT_MAX:
			c->t.o.output_max = sc_opt_number(&tool, optarg, 1,
							  SC_RECORD_MAX / 2, "--output-max");
			break;
		case OPT_PROGRESS: c->t.progress = 1; break;
		case OPT_STATUS_LINE: c->t.status_line = 1; break;
		default: sc_usage_error(&tool, NULL);
		}
	}
	if (optind != argc)
		sc_usage_error(&tool, "unexpected argument");
	if (!c->t.o.root || !c->t.o.conversation || !c->t.programs)
		sc_usage_error(&tool, "--root, --conversation and --programs "
			       "are required");
}

int main(int argc, char **argv)
{
	struct cmdline c;
	int ret;

	sc_diag_init("sc-agent");
	/* A tool that dies mid-answer is a failed call, not our death. */
	signal(SIGPIPE, SIG_IGN);
	memset(&c, 0, sizeof(c));
	c.t.o.budget = 20;
	c.t.o.max_turns = 50;
	c.t.o.read_max = 256 << 10;
	c.t.o.output_max = 1 << 20;
	parse_options(argc, argv, &c);
	ret = sc_agent_task_run(&c.t);
	free(c.msgs);
	return ret;
}
