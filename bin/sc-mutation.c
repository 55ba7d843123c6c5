/*
 * sc-mutation: read a mutation tool's score, from the summary line of its
 * output or from its JSON report (opened beneath the root, never through
 * a symlink), and say whether it meets the minimum.  The driver runs the
 * tool; lib/attempt/mutation.c decides what its output means.
 */
#include "diag.h"
#include "mutation.h"
#include "opt.h"

static const char *const synopsis[] = {
	"--summary FILE [--minimum PERCENT] [-z]",
	"-C ROOT --report PATH [--minimum PERCENT] [-z]",
	NULL,
};

static const struct sc_tool tool = {
	"sc-mutation", synopsis,
	"    --summary FILE     the tool's output: its last line\n"
	"                       'mutation score: KILLED/TOTAL'\n"
	"    -C ROOT            the directory the report lies beneath\n"
	"    --report PATH      the tool's JSON report, relative to ROOT\n"
	"    --minimum PERCENT  exit 1 when the score is below PERCENT\n"
	"    -z                 records even when stdout is a terminal\n"
	"    -h, --help         show this help\n"
	"    --version          show the version\n",
	0,
};

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "summary", required_argument, NULL, 's' },
		{ "report", required_argument, NULL, 'r' },
		{ "minimum", required_argument, NULL, 'm' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	struct sc_mutation_opts o = { NULL, NULL, NULL, 0, 0, 0 };
	int c;

	sc_diag_init(tool.name);
	while ((c = sc_getopt(argc, argv, "+hzC:", longopts, &tool)) != -1) {
		if (c == 's')
			o.summary = optarg;
		else if (c == 'r')
			o.report = optarg;
		else if (c == 'C')
			o.root = optarg;
		else if (c == 'z')
			o.force_records = 1;
		else if (c == 'm') {
			o.minimum = sc_opt_number(&tool, optarg, 0, 100,
						  "--minimum");
			o.has_min = 1;
		}
	}
	if (optind < argc)
		sc_usage_error(&tool, "unexpected argument");
	if (!o.summary == !o.report)
		sc_usage_error(&tool, "give one of --summary, --report");
	if (o.report && !o.root)
		sc_usage_error(&tool, "--report needs -C ROOT");
	return sc_mutation_run(&o);
}
