/*
 * sc-classify: one verdict for each tool call, by the rules of
 * sc-classify(1).  This main reads the options; the tool is
 * lib/policy/classify.c, the rules lib/policy*.c.
 */
#include "classify.h"
#include "diag.h"
#include "opt.h"
#include "policy.h"

static const char *const synopsis[] = {
	"--root DIR [--mode worktree|in-place|spec|explore] [--no-prompt] "
	"[--config FILE] [--grants FILE] [--ignored FILE] [--frozen FILE] "
	"[--feature NAME] [--included FILE] [--no-stop]",
	"--print-protected [--mode worktree|in-place|spec|explore] "
	"[--feature NAME]",
	"--git-neutral",
	NULL,
};

static const struct sc_tool tool = {
	"sc-classify", synopsis,
	"    --root DIR       the worktree every path is judged against\n"
	"    --mode MODE      worktree (default), in-place, spec or explore\n"
	"    --no-prompt      nobody can be asked: ask becomes deny\n"
	"    --config FILE    the project's speccoder.conf\n"
	"    --grants FILE    type=grant records of objects a person approved\n"
	"    --ignored FILE   NUL-separated paths git ignored at the start\n"
	"    --frozen FILE    tests that existed before the attempt\n"
	"    --feature NAME   spec mode: write only this feature's artifacts\n"
	"    --included FILE  NUL-separated paths of the person's included files\n"
	"    --no-stop        judge every call, however many are denied in a row\n"
	"    --print-protected  write the protected names as patterns and exit\n"
	"    --git-neutral    name the git config keys (NUL-separated on stdin)\n"
	"                     that sc-git must override, and exit\n"
	"    -z, --records    records even when stdout is a terminal\n"
	"    -h, --help       show this help\n"
	"    --version        show the version\n",
	0,
};

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "mode", required_argument, NULL, 'm' },
		{ "no-prompt", no_argument, NULL, 'n' },
		{ "config", required_argument, NULL, 'c' },
		{ "grants", required_argument, NULL, 'g' },
		{ "ignored", required_argument, NULL, 'i' },
		{ "frozen", required_argument, NULL, 'f' },
		{ "feature", required_argument, NULL, 'F' },
		{ "included", required_argument, NULL, 'I' },
		{ "no-stop", no_argument, NULL, 'S' },
		{ "print-protected", no_argument, NULL, 'P' },
		{ "git-neutral", no_argument, NULL, 'G' },
		{ "records", no_argument, NULL, 'z' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	struct sc_classify_opts o = { .mode = SC_MODE_WORKTREE };
	int c;

	sc_diag_init(tool.name);
	while ((c = sc_getopt(argc, argv, "+hz", longopts, &tool)) != -1) {
		switch (c) {
		case 'r': o.root = optarg; break;
		case 'm':
			if (sc_policy_parse_mode(optarg, &o.mode) < 0)
				sc_usage_error(&tool, "--mode takes worktree, "
					       "in-place, spec or explore");
			break;
		case 'n': o.no_prompt = 1; break;
		case 'c': o.config = optarg; break;
		case 'g': o.grants = optarg; break;
		case 'i': o.ignored = optarg; break;
		case 'f': o.frozen = optarg; break;
		case 'F': o.feature = optarg; break;
		case 'I': o.included = optarg; break;
		case 'S': o.no_stop = 1; break;
		case 'P': o.print_protected = 1; break;
		case 'G': o.git_neutral = 1; break;
		case 'z': o.records = 1; break;
		default: sc_usage_error(&tool, NULL);
		}
	}
	if (optind != argc)
		sc_usage_error(&tool, "no arguments are taken");
	if (o.print_protected && o.git_neutral)
		sc_usage_error(&tool, "--print-protected or --git-neutral, "
			       "not both");
	if (!o.root && !o.print_protected && !o.git_neutral)
		sc_usage_error(&tool, "--root is required");
	return sc_classify_run(&o);
}
