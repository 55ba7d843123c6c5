/*
 * sc-mutation: read a mutation tool's score, from the summary line of its
 * output or from its JSON report (opened beneath the root, never through
 * a symlink), and say whether it meets the minimum.  The driver runs the
 * tool; this decides what its output means.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "filetool.h"
#include "io.h"
#include "mutation.h"
#include "opt.h"
#include "record.h"
#include "rectable.h"

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

/* FILE, the driver's own log of the tool's output: never a symlink. */
static int read_summary(const char *file, struct sc_buf *text)
{
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	int truncated = 0, ret;

	if (fd < 0) {
		sc_error_errno("MUTATION-REPORT", "cannot open the summary");
		return SC_EXIT_MALFORMED;
	}
	ret = sc_read_fd_capped(fd, SC_MUTATION_MAX, text, &truncated);
	close(fd);
	if (ret < 0) {
		sc_error_errno("MUTATION-REPORT", "cannot read the summary");
		return SC_EXIT_MALFORMED;
	}
	return SC_EXIT_OK;
}

/* PATH beneath ROOT, a regular file of at most SC_MUTATION_MAX bytes. */
static int read_report(const char *root, const char *path,
		       struct sc_buf *text)
{
	struct sc_buf why = SC_BUF_INIT;
	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int truncated = 0, ret = SC_EXIT_OK;

	if (rootfd < 0) {
		sc_error_errno("ROOT", "cannot open the root");
		return SC_EXIT_USAGE;
	}
	if (sc_file_read(rootfd, path, SC_MUTATION_MAX, text, &truncated,
			 &why) < 0) {
		sc_error("MUTATION-REPORT", "the report: %s (a regular file "
			 "beneath the root, no symlink on the way)",
			 why.data ? why.data : "cannot read");
		ret = SC_EXIT_MALFORMED;
	} else if (truncated) {
		sc_error("MUTATION-REPORT", "the report is larger than %u bytes",
			 SC_MUTATION_MAX);
		ret = SC_EXIT_MALFORMED;
	}
	close(rootfd);
	sc_buf_release(&why);
	return ret;
}

static int write_score(const struct sc_mutation_score *s, int has_min,
		       unsigned long long minimum, int nul)
{
	struct sc_output out;
	struct sc_record rec;
	char n[32];
	int meets = !has_min || sc_mutation_meets(s, minimum), ret;

	sc_output_init_records(&out, STDOUT_FILENO, nul);
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "mutation-score");
	snprintf(n, sizeof(n), "%llu", s->killed);
	sc_record_adds(&rec, "killed", n);
	snprintf(n, sizeof(n), "%llu", s->total);
	sc_record_adds(&rec, "total", n);
	if (has_min) {
		snprintf(n, sizeof(n), "%llu", minimum);
		sc_record_adds(&rec, "minimum", n);
	}
	sc_record_adds(&rec, "result", meets ? "pass" : "below");
	sc_record_queue(&out, &rec);
	sc_record_release(&rec);
	ret = sc_output_flush(&out);
	sc_output_release(&out);
	if (ret < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		return SC_EXIT_INTERNAL;
	}
	return meets ? SC_EXIT_OK : SC_EXIT_NO;
}

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "summary", required_argument, NULL, 's' },
		{ "report", required_argument, NULL, 'r' },
		{ "minimum", required_argument, NULL, 'm' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	const char *summary = NULL, *report = NULL, *root = NULL, *why = NULL;
	struct sc_buf text = SC_BUF_INIT;
	struct sc_mutation_score s;
	unsigned long long minimum = 0;
	int has_min = 0, nul = 0, c, ret;

	sc_diag_init(tool.name);
	while ((c = sc_getopt(argc, argv, "+hzC:", longopts, &tool)) != -1) {
		if (c == 's')
			summary = optarg;
		else if (c == 'r')
			report = optarg;
		else if (c == 'C')
			root = optarg;
		else if (c == 'z')
			nul = 1;
		else if (c == 'm') {
			if (sc_parse_uint(optarg, 100, &minimum) < 0)
				sc_usage_error(&tool, "--minimum takes a "
					       "percentage from 0 to 100");
			has_min = 1;
		}
	}
	if (optind < argc)
		sc_usage_error(&tool, "unexpected argument");
	if (!summary == !report)
		sc_usage_error(&tool, "give one of --summary, --report");
	if (report && !root)
		sc_usage_error(&tool, "--report needs -C ROOT");
	ret = summary ? read_summary(summary, &text) :
		read_report(root, report, &text);
	if (!ret) {
		if ((summary ? sc_mutation_parse_summary(text.data ? text.data : "",
							 text.len, &s, &why) :
			       sc_mutation_parse_report(text.data ? text.data : "",
							text.len, &s, &why)) < 0) {
			sc_error("MUTATION-REPORT", "%s: %s",
				 summary ? "the summary" : "the report", why);
			ret = SC_EXIT_MALFORMED;
		} else {
			ret = write_score(&s, has_min, minimum, nul);
		}
	}
	sc_buf_release(&text);
	return ret;
}
