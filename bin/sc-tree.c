/*
 * sc-tree: the model's worktree as the trusted side of an attempt reads
 * it: the diff a tick would commit (for sc-classify to judge), the tree of
 * exactly the judged changes, a restore to the branch tip, and a file read
 * beneath the root.  Never through a symlink; the logic is lib/attempt/tree.c.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "include.h"
#include "io.h"
#include "opt.h"
#include "pattern.h"
#include "tree.h"

static const char *const synopsis[] = {
	"diff [-C DIR] [--ignored FILE]",
	"snapshot [-C DIR] [--ignored FILE]",
	"judge AUDIT",
	"write-tree [-C DIR] --audit AUDIT [--also PATH]...",
	"restore [-C DIR] [--keep PATTERN]...",
	"cat [-C DIR] PATH",
	"include [-C DIR] --from CHECKOUT --candidates FILE [--pattern PATTERN]... "
	"[--secrets FILE] [--to DIR] [--dry-run]",
	NULL,
};

static const struct sc_tool tool = {
	"sc-tree", synopsis,
	"    -C DIR          the worktree (default .)\n"
	"    --ignored FILE  diff, snapshot: NUL-separated paths git ignored when an\n"
	"                    in-place run started, left out ('/' ends a dir)\n"
	"    --audit AUDIT   diff's records after sc-classify: every change\n"
	"                    must have an allow verdict\n"
	"    --also PATH     write-tree: also take PATH (speccoder's own\n"
	"                    change, the ticked task list); repeatable\n"
	"    --keep PATTERN  restore: keep untracked files PATTERN selects\n"
	"                    (gitignore syntax); repeatable\n"
	"    --from CHECKOUT include: the person's checkout files are copied from\n"
	"    --candidates FILE  include: NUL-separated paths git ignores there\n"
	"    --pattern PATTERN  include: select files (gitignore syntax), besides\n"
	"                    HEAD's .worktreeinclude; repeatable\n"
	"    --secrets FILE  include: write their secrets as type=secret records\n"
	"    --to DIR        include: copy into DIR instead (the held-out copy)\n"
	"    --dry-run       include: select, check and read, copy nothing\n"
	"    -h, --help      show this help\n"
	"    --version       show the version\n",
	0,
};

enum { OPT_AUDIT = 0x100, OPT_ALSO, OPT_KEEP, OPT_IGNORED, OPT_FROM,
       OPT_CANDIDATES, OPT_PATTERN, OPT_SECRETS, OPT_DRY_RUN, OPT_TO };

struct args {
	const char *dir, *audit, *ignored;
	const char *pos[3];
	size_t nr;
	const char **also;
	size_t nalso, aalso;
	struct sc_buf keep;
	int nkeep;
	/* include */
	const char *from, *candidates, *secrets, *to;
	struct sc_buf pattern;
	int npattern, dry_run;
};

static void parse(int argc, char *argv[], struct args *a)
{
	static const struct option longopts[] = {
		{ "audit", required_argument, NULL, OPT_AUDIT },
		{ "also", required_argument, NULL, OPT_ALSO },
		{ "keep", required_argument, NULL, OPT_KEEP },
		{ "ignored", required_argument, NULL, OPT_IGNORED },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "candidates", required_argument, NULL, OPT_CANDIDATES },
		{ "pattern", required_argument, NULL, OPT_PATTERN },
		{ "secrets", required_argument, NULL, OPT_SECRETS },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "to", required_argument, NULL, OPT_TO },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = sc_getopt(argc, argv, "-hC:", longopts, &tool)) != -1) {
		if (c == 'C') {
			a->dir = optarg;
		} else if (c == OPT_AUDIT) {
			a->audit = optarg;
		} else if (c == OPT_ALSO) {
			SC_ALLOC_GROW(a->also, a->nalso + 1, a->aalso);
			a->also[a->nalso++] = optarg;
		} else if (c == OPT_IGNORED) {
			a->ignored = optarg;
		} else if (c == OPT_KEEP) {
			if (strchr(optarg, '\n'))
				sc_usage_error(&tool, "--keep: one pattern");
			sc_buf_adds(&a->keep, optarg);
			sc_buf_addch(&a->keep, '\n');
			a->nkeep++;
		} else if (c == OPT_FROM) {
			a->from = optarg;
		} else if (c == OPT_CANDIDATES) {
			a->candidates = optarg;
		} else if (c == OPT_SECRETS) {
			a->secrets = optarg;
		} else if (c == OPT_TO) {
			a->to = optarg;
		} else if (c == OPT_DRY_RUN) {
			a->dry_run = 1;
		} else if (c == OPT_PATTERN) {
			if (strchr(optarg, '\n'))
				sc_usage_error(&tool, "--pattern: one pattern");
			sc_buf_adds(&a->pattern, optarg);
			sc_buf_addch(&a->pattern, '\n');
			a->npattern++;
		} else if (c == 1 && a->nr < 3) {
			a->pos[a->nr++] = optarg;
		} else {
			sc_usage_error(&tool, "too many arguments");
		}
	}
	for (; optind < argc; optind++) {
		if (a->nr == 3)
			sc_usage_error(&tool, "too many arguments");
		a->pos[a->nr++] = argv[optind];
	}
}

static int restore(const struct args *a)
{
	struct sc_patterns keep;
	struct sc_pattern_error err;
	int ret;

	sc_patterns_init(&keep);
	if (sc_patterns_parse(&keep, a->keep.data ? a->keep.data : "",
			      a->keep.len, &err) < 0) {
		sc_patterns_release(&keep);
		sc_usage_error(&tool, "--keep: a bad pattern");
	}
	ret = sc_tree_restore_run(a->dir, a->nkeep ? &keep : NULL);
	sc_patterns_release(&keep);
	return ret;
}

static int include(const struct args *a, struct sc_output *out)
{
	struct sc_include_opts o;

	memset(&o, 0, sizeof(o));
	o.dir = a->dir;
	o.from = a->from;
	o.candidates = a->candidates;
	o.patterns = a->pattern.data ? a->pattern.data : "";
	o.patterns_len = a->pattern.len;
	o.secrets = a->secrets;
	o.dry_run = a->dry_run;
	o.to = a->to;
	return sc_tree_include_run(&o, out);
}

static int run(struct args *a, struct sc_output *out)
{
	const char *cmd = a->pos[0];
	int only_dir = !a->audit && !a->nalso && !a->nkeep && !a->ignored;
	int inc = a->from || a->candidates || a->secrets || a->npattern ||
		  a->dry_run || a->to;

	if (!a->dir)
		a->dir = ".";
	if (!strcmp(cmd, "include")) {
		if (a->nr != 1 || !only_dir || !a->from || !a->candidates)
			sc_usage_error(&tool, "include takes --from, --candidates, "
				       "--pattern, --secrets, --to and --dry-run");
		return include(a, out);
	}
	if (inc)
		sc_usage_error(&tool, "--from, --candidates, --pattern, "
			       "--secrets, --to and --dry-run go with include");
	if (!strcmp(cmd, "diff")) {
		if (a->nr != 1 || a->audit || a->nalso || a->nkeep)
			sc_usage_error(&tool, "diff takes -C and --ignored only");
		return sc_tree_diff_run(a->dir, a->ignored, out);
	}
	if (!strcmp(cmd, "snapshot")) {
		if (a->nr != 1 || a->audit || a->nalso || a->nkeep)
			sc_usage_error(&tool, "snapshot takes -C and --ignored only");
		return sc_tree_snapshot_run(a->dir, a->ignored, out);
	}
	if (!strcmp(cmd, "judge")) {
		if (a->nr != 2 || !only_dir)
			sc_usage_error(&tool, "judge takes AUDIT only");
		return sc_tree_judge_run(a->pos[1], out);
	}
	if (!strcmp(cmd, "write-tree")) {
		if (a->nr != 1 || !a->audit || a->nkeep || a->ignored)
			sc_usage_error(&tool, "write-tree takes --audit and --also");
		return sc_tree_write_tree_run(a->dir, a->audit, a->also, a->nalso,
					      out);
	}
	if (!strcmp(cmd, "restore")) {
		if (a->nr != 1 || a->audit || a->nalso || a->ignored)
			sc_usage_error(&tool, "restore takes --keep only");
		return restore(a);
	}
	if (!strcmp(cmd, "cat")) {
		if (a->nr != 2 || !only_dir)
			sc_usage_error(&tool, "cat takes PATH only");
		return sc_tree_cat_run(a->dir, a->pos[1], STDOUT_FILENO);
	}
	sc_usage_error(&tool, "unknown command");
}

int main(int argc, char *argv[])
{
	struct args a;
	struct sc_output out;
	int ret;

	memset(&a, 0, sizeof(a));
	sc_buf_init(&a.keep);
	sc_buf_init(&a.pattern);
	sc_diag_init(tool.name);
	parse(argc, argv, &a);
	if (!a.nr)
		sc_usage_error(&tool, "no command");
	sc_output_init(&out, STDOUT_FILENO);
	ret = run(&a, &out);
	if (sc_output_flush(&out) < 0 && !ret) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = SC_EXIT_INTERNAL;
	}
	sc_output_release(&out);
	sc_buf_release(&a.keep);
	sc_buf_release(&a.pattern);
	free(a.also);
	return ret;
}
