/*
 * sc-hash-git: the manifest of everything in a repository that can make git
 * run code or change what it shows (config, hooks, info, refs, HEAD), plus
 * protected worktree files; or, with --check, what changed since one.
 * Reads through libgit2 only (see lib/gitopen.h); the tool is
 * lib/attest/hashgittool.c, the manifest lib/attest/githash.c.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "hashgittool.h"
#include "opt.h"
#include "pattern.h"

static const char *const synopsis[] = {
	"[-C DIR] [--exclude-ref GLOB]... [--protect FILE] [--protect-records FILE] [--protect-tree REV] [--status] [-o FILE]",
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
	"    -o, --output FILE   write the manifest to FILE, replaced whole\n"
	"                        or left as it was (not with --check)\n"
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
		{ "output", required_argument, NULL, 'o' },
		{ "records", no_argument, NULL, 'z' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	struct sc_hash_git_opts o;
	const char **excludes = NULL, *what;
	size_t alloc = 0;
	int c, ret;

	sc_diag_init(tool.name);
	memset(&o, 0, sizeof(o));
	o.dir = ".";
	while ((c = sc_getopt(argc, argv, "hzC:o:", longopts, &tool)) != -1) {
		switch (c) {
		case 'C': o.dir = optarg; break;
		case 'o': o.output = optarg; break;
		case OPT_EXCLUDE:
			if (sc_glob_check(optarg, &what) < 0)
				sc_usage_error(&tool, "--exclude-ref: a bad glob");
			SC_ALLOC_GROW(excludes, o.hg.nr_exclude + 1, alloc);
			excludes[o.hg.nr_exclude++] = optarg;
			break;
		case OPT_PROTECT: o.protect_file = optarg; break;
		case OPT_PROTECT_RECORDS: o.protect_records = optarg; break;
		case OPT_STATUS: o.hg.status = 1; break;
		case OPT_CHECK: o.check = optarg; break;
		case OPT_PROTECT_TREE: o.hg.protect_tree = optarg; break;
		case 'z': o.hg.records = 1; break;
		}
	}
	if (optind != argc)
		sc_usage_error(&tool, "no arguments are taken");
	/* A check compares the worktree as it is now with a baseline. */
	if (o.check && o.hg.protect_tree)
		sc_usage_error(&tool, "--protect-tree is for the manifest, not --check");
	if (o.check && o.output)
		sc_usage_error(&tool, "--output is for the manifest, not --check");
	o.hg.exclude_refs = excludes;
	ret = sc_hash_git_run(&o);
	free(excludes);
	return ret;
}
