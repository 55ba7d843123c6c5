/*
 * sc-hash-git: the manifest of everything in a repository that can make git
 * run code or change what it shows (config, hooks, info, refs, HEAD), plus
 * protected worktree files; or, with --check, what changed since one.
 * Reads through libgit2 only (see lib/gitopen.h); the logic is lib/githash.c.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "githash.h"
#include "opt.h"
#include "pattern.h"

static const char *const synopsis[] = {
	"[-C DIR] [--exclude-ref GLOB]... [--protect FILE] [--protect-records FILE] [--protect-tree REV] [--status]",
	"--check MANIFEST [-C DIR] [--exclude-ref GLOB]... [--protect FILE] [--protect-records FILE] [--status]",
	NULL,
};

static const struct sc_tool tool = {
	"sc-hash-git", synopsis,
	"    -C DIR              the repository at or above DIR (default .)\n"
	"    --exclude-ref GLOB  leave out refs GLOB matches ('*' stays within\n"
	"                        one component, '**' crosses them); repeatable\n"
	"    --protect FILE      also hash the worktree files FILE's patterns\n"
	"                        select (gitignore syntax), ignored ones too\n"
	"    --protect-records FILE  the same, from the watched type=protected\n"
	"                        records of sc-classify --print-protected\n"
	"    --protect-tree REV  take the protected files from the tree of REV,\n"
	"                        not the worktree (not with --check)\n"
	"    --status            also hash the index and the tracked changes\n"
	"    --check MANIFEST    compare with MANIFEST ('-': stdin) and write\n"
	"                        findings; exit 1 when anything changed\n"
	"    -z, --records       records even when stdout is a terminal\n"
	"    -h, --help          show this help\n"
	"    --version           show the version\n",
	0,
};

enum { OPT_EXCLUDE = 0x100, OPT_PROTECT, OPT_PROTECT_RECORDS, OPT_STATUS,
	OPT_CHECK, OPT_PROTECT_TREE };

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "exclude-ref", required_argument, NULL, OPT_EXCLUDE },
		{ "protect", required_argument, NULL, OPT_PROTECT },
		{ "protect-records", required_argument, NULL,
		  OPT_PROTECT_RECORDS },
		{ "protect-tree", required_argument, NULL, OPT_PROTECT_TREE },
		{ "status", no_argument, NULL, OPT_STATUS },
		{ "check", required_argument, NULL, OPT_CHECK },
		{ "records", no_argument, NULL, 'z' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	struct sc_hg_options opt = { NULL, 0, NULL, 0, NULL, 0 };
	struct sc_patterns protect;
	const char **excludes = NULL;
	const char *dir = ".", *protect_file = NULL, *protect_records = NULL;
	const char *check = NULL, *what;
	size_t alloc = 0;
	int c, ret;

	sc_diag_init(tool.name);
	while ((c = sc_getopt(argc, argv, "hzC:", longopts, &tool)) != -1) {
		switch (c) {
		case 'C':
			dir = optarg;
			break;
		case OPT_EXCLUDE:
			if (sc_glob_check(optarg, &what) < 0)
				sc_usage_error(&tool, "--exclude-ref: a bad glob");
			SC_ALLOC_GROW(excludes, opt.nr_exclude + 1, alloc);
			excludes[opt.nr_exclude++] = optarg;
			break;
		case OPT_PROTECT:
			protect_file = optarg;
			break;
		case OPT_PROTECT_RECORDS:
			protect_records = optarg;
			break;
		case OPT_STATUS:
			opt.status = 1;
			break;
		case OPT_CHECK:
			check = optarg;
			break;
		case OPT_PROTECT_TREE:
			opt.protect_tree = optarg;
			break;
		case 'z':
			opt.records = 1;
			break;
		}
	}
	if (optind != argc)
		sc_usage_error(&tool, "no arguments are taken");
	/* A check compares the worktree as it is now with a baseline. */
	if (check && opt.protect_tree)
		sc_usage_error(&tool, "--protect-tree is for the manifest, not --check");
	opt.exclude_refs = excludes;
	sc_patterns_init(&protect);
	if (protect_file || protect_records) {
		ret = protect_file ? sc_hg_load_protect(protect_file, &protect)
				   : 0;
		if (!ret && protect_records)
			ret = sc_hg_load_protect_records(protect_records,
							 &protect);
		if (ret)
			goto out;
		opt.protect = &protect;
	}
	ret = sc_hg_run(dir, &opt, check, STDOUT_FILENO);
out:
	sc_patterns_release(&protect);
	free(excludes);
	return ret;
}
