/*
 * sc-tasks: find a feature's tasks file, list its checkbox items, tick one.
 * The drivers never parse or edit a tasks file themselves; the logic is
 * lib/attempt/tasks.c.
 */
#include <stdint.h>
#include <string.h>

#include "diag.h"
#include "opt.h"
#include "tasks.h"

static const char *const synopsis[] = {
	"find [-C DIR] FEATURE",
	"list [-C DIR] FILE",
	"tick [-C DIR] FILE N --text TEXT",
	NULL,
};

static const struct sc_tool tool = {
	"sc-tasks", synopsis,
	"    -C DIR       look below DIR (find: default .); list and tick:\n"
	"                 FILE is relative to DIR and no symlink is followed\n"
	"    --text TEXT  tick: the item's text, exactly as list wrote it\n"
	"    -z, --records  records even when stdout is a terminal\n"
	"    -h, --help   show this help\n"
	"    --version    show the version\n",
	0,
};

enum { OPT_TEXT = 0x100 };

struct args {
	int records;
	const char *dir, *text;
	const char *pos[4];
	size_t nr;
};

static void parse(int argc, char *argv[], struct args *a)
{
	static const struct option longopts[] = {
		{ "text", required_argument, NULL, OPT_TEXT },
		{ "records", no_argument, NULL, 'z' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	/* "-": operands come back in order as 1, so options may follow them
	 * ("tick FILE N --text TEXT") whatever POSIXLY_CORRECT says. */
	while ((c = sc_getopt(argc, argv, "-hzC:", longopts, &tool)) != -1) {
		if (c == 'z')
			a->records = 1;
		else if (c == 'C')
			a->dir = optarg;
		else if (c == OPT_TEXT)
			a->text = optarg;
		else if (c == 1 && a->nr < 4)
			a->pos[a->nr++] = optarg;
		else
			sc_usage_error(&tool, "too many arguments");
	}
	for (; optind < argc; optind++) {
		if (a->nr == 4)
			sc_usage_error(&tool, "too many arguments");
		a->pos[a->nr++] = argv[optind];
	}
}

/* The command and its operands, checked, as sc_tasks_run takes them. */
static void command(const struct args *a, struct sc_tasks_opts *o)
{
	const char *cmd = a->pos[0];
	unsigned long long n;

	o->dir = a->dir;
	o->text = a->text;
	o->force_records = a->records;
	o->target = a->pos[1];
	if (!strcmp(cmd, "find")) {
		if (a->nr != 2 || a->text)
			sc_usage_error(&tool, "find takes FEATURE only");
		o->cmd = SC_TASKS_CMD_FIND;
	} else if (!strcmp(cmd, "list")) {
		if (a->nr != 2 || a->text)
			sc_usage_error(&tool, "list takes FILE only");
		o->cmd = SC_TASKS_CMD_LIST;
	} else if (!strcmp(cmd, "tick")) {
		if (a->nr != 3 || !a->text)
			sc_usage_error(&tool, "tick takes FILE, N and --text");
		if (sc_parse_uint(a->pos[2], SIZE_MAX, &n) < 0 || !n)
			sc_usage_error(&tool, "N is an item number, from 1");
		o->cmd = SC_TASKS_CMD_TICK;
		o->n = (size_t)n;
	} else {
		sc_usage_error(&tool, "unknown command");
	}
}

int main(int argc, char *argv[])
{
	struct args a = { 0, NULL, NULL, { NULL }, 0 };
	struct sc_tasks_opts o = { SC_TASKS_CMD_FIND, NULL, NULL, 0, NULL, 0 };

	sc_diag_init(tool.name);
	parse(argc, argv, &a);
	if (!a.nr)
		sc_usage_error(&tool, "no command");
	command(&a, &o);
	return sc_tasks_run(&o);
}
