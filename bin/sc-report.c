/*
 * sc-report: an attempt's journal as one self-contained HTML page, with
 * the ticks' diffs and attestations read from git objects, or as text for
 * a terminal.  The logic is lib/attempt/report.c and reporttext.c; every
 * byte of the journal is escaped by lib/attempt/html.c or cleaned by
 * lib/termtext.c.
 */
#include <unistd.h>

#include "diag.h"
#include "opt.h"
#include "report.h"
#include "reporttext.h"

static const char *const synopsis[] = {
	"--html [-C DIR] [--run RUN] JOURNAL",
	"--text [--run RUN] JOURNAL",
	NULL,
};

static const struct sc_tool tool = {
	"sc-report", synopsis,
	"    --html       write the page\n"
	"    --text       write the journal as text for a terminal, and the\n"
	"                 model's usage summed\n"
	"    -C DIR       the repository the ticks' commits are in; without it\n"
	"                 the page shows no diff and no attestation\n"
	"    --run RUN    the run id the page is titled with, or the text headed\n"
	"    -h, --help   show this help\n"
	"    --version    show the version\n",
	0,
};

enum { OPT_HTML = 0x100, OPT_TEXT, OPT_RUN };

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "html", no_argument, NULL, OPT_HTML },
		{ "text", no_argument, NULL, OPT_TEXT },
		{ "run", required_argument, NULL, OPT_RUN },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	struct sc_report_opts o = { NULL, NULL, NULL };
	struct sc_output out;
	int c, html = 0, text = 0, ret;

	sc_diag_init(tool.name);
	while ((c = sc_getopt(argc, argv, "hC:", longopts, &tool)) != -1) {
		switch (c) {
		case 'C':
			o.repo_dir = optarg;
			break;
		case OPT_HTML:
			html = 1;
			break;
		case OPT_TEXT:
			text = 1;
			break;
		case OPT_RUN:
			o.run = optarg;
			break;
		}
	}
	if (html == text)
		sc_usage_error(&tool, "--html or --text, one of them");
	if (text && o.repo_dir)
		sc_usage_error(&tool, "-C is for --html: the text shows no diff");
	if (optind + 1 != argc)
		sc_usage_error(&tool, "one journal");
	o.journal = argv[optind];
	sc_output_init(&out, STDOUT_FILENO);
	ret = text ? sc_report_text_run(&o, &out) : sc_report_run(&o, &out);
	sc_output_release(&out);
	return ret;
}
