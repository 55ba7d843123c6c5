/*
 * sc-tasks: find a feature's tasks file, list its checkbox items, tick one.
 * The drivers never parse or edit a tasks file themselves; the logic is
 * lib/tasks.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "io.h"
#include "opt.h"
#include "record.h"
#include "rectable.h"
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

static void add_num(struct sc_record *rec, const char *name, size_t n)
{
	char num[32];

	snprintf(num, sizeof(num), "%zu", n);
	sc_record_adds(rec, name, num);
}

static void put_task(struct sc_output *out, const struct sc_buf *data,
		     const struct sc_task *t)
{
	struct sc_record rec;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "task");
	add_num(&rec, "n", t->n);
	add_num(&rec, "line", t->line);
	sc_record_adds(&rec, "state", t->done ? "done" : "open");
	sc_record_add(&rec, "text", data->data + t->text, t->text_len);
	sc_record_queue(out, &rec);
	sc_record_release(&rec);
}

static void put_feature(struct sc_output *out, const char *name,
			const struct sc_feature *f)
{
	struct sc_record rec;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "feature");
	sc_record_adds(&rec, "name", name);
	sc_record_adds(&rec, "layout", f->layout);
	sc_record_adds(&rec, "dir", f->dir);
	sc_record_adds(&rec, "tasks", f->tasks);
	if (f->spec)
		sc_record_adds(&rec, "spec", f->spec);
	if (f->plan)
		sc_record_adds(&rec, "plan", f->plan);
	sc_record_queue(out, &rec);
	sc_record_release(&rec);
}

/* Run the subcommand; records are queued on OUT only once it succeeded. */
static int run(const struct args *a, struct sc_output *out)
{
	const char *cmd = a->pos[0];
	struct sc_taskfile tf;
	struct sc_feature f;
	struct sc_task t;
	unsigned long long n;
	int ret;
	size_t i;

	if (!strcmp(cmd, "find")) {
		if (a->nr != 2 || a->text)
			sc_usage_error(&tool, "find takes FEATURE only");
		ret = sc_tasks_find(a->dir ? a->dir : ".", a->pos[1], &f);
		if (!ret)
			put_feature(out, a->pos[1], &f);
		if (!ret)
			sc_feature_release(&f);
		return ret;
	}
	sc_taskfile_init(&tf);
	if (!strcmp(cmd, "list")) {
		if (a->nr != 2 || a->text)
			sc_usage_error(&tool, "list takes FILE only");
		ret = sc_tasks_load(a->dir, a->pos[1], &tf);
		for (i = 0; !ret && i < tf.items.nr; i++)
			put_task(out, &tf.data, &tf.items.v[i]);
	} else if (!strcmp(cmd, "tick")) {
		if (a->nr != 3 || !a->text)
			sc_usage_error(&tool, "tick takes FILE, N and --text");
		if (sc_parse_uint(a->pos[2], SIZE_MAX, &n) < 0 || !n)
			sc_usage_error(&tool, "N is an item number, from 1");
		ret = sc_tasks_tick(a->dir, a->pos[1], (size_t)n, a->text,
				    &tf, &t);
		if (!ret)
			put_task(out, &tf.data, &t);
	} else {
		sc_usage_error(&tool, "unknown command");
	}
	sc_taskfile_release(&tf);
	return ret;
}

int main(int argc, char *argv[])
{
	struct args a = { 0, NULL, NULL, { NULL }, 0 };
	struct sc_output out;
	int ret;

	sc_diag_init(tool.name);
	parse(argc, argv, &a);
	if (!a.nr)
		sc_usage_error(&tool, "no command");
	sc_output_init_records(&out, STDOUT_FILENO, a.records);
	ret = sc_tasks_exit(run(&a, &out));
	if (ret == SC_EXIT_OK && sc_output_flush(&out) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = SC_EXIT_INTERNAL;
	}
	sc_output_release(&out);
	return ret;
}
