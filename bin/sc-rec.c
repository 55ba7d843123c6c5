/*
 * sc-rec: convert sc-record(5) streams to and from JSON Lines, and build a
 * record from the command line for scripts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "io.h"
#include "opt.h"
#include "recjson.h"
#include "record.h"
#include "rectable.h"
#include "termtext.h"

static const char *const synopsis[] = {
	"--to-json",
	"--from-json",
	"--clean",
	"--clean-line",
	"NAME=VALUE...",
	NULL,
};

static const struct sc_tool tool = {
	"sc-rec", synopsis,
	"    --to-json      records on stdin -> one JSON object a line on stdout\n"
	"    --from-json    JSON Lines on stdin -> records on stdout\n"
	"    --clean        text on stdin -> the same, safe for a terminal\n"
	"    --clean-line   the same, newlines and tabs replaced too\n"
	"    NAME=VALUE...  write one record made of these fields (type= first)\n"
	"    -z, --records  records even when stdout is a terminal\n"
	"    -h, --help     show this help\n"
	"    --version      show the version\n",
	0,
};

/*
 * The longest JSON line accepted: a record at its size limit with every
 * byte escaped as \u00XX, plus room for names and punctuation.
 */
#define JSON_LINE_MAX (6 * SC_RECORD_MAX + 65536)

static int output_failed(void)
{
	sc_error_errno("WRITE-FAILED", "cannot write output");
	return SC_EXIT_INTERNAL;
}

static int to_json(void)
{
	struct sc_input in;
	struct sc_output out;
	struct sc_reader rd;
	struct sc_record rec;
	int status, ret = SC_EXIT_OK;

	sc_input_init_fd(&in, STDIN_FILENO);
	sc_output_init(&out, STDOUT_FILENO);
	sc_input_set_idle(&in, sc_output_idle, &out);
	sc_reader_init(&rd, &in);
	sc_record_init(&rec);
	while ((status = sc_reader_next(&rd, &rec)) == SC_READ_RECORD) {
		sc_record_to_json(&rec, &out.buf);
		sc_output_add(&out, "\n", 1);
		if (sc_output_unit_done(&out) < 0)
			break;
	}
	/* The good records go out before the diagnostic about the bad one. */
	if (sc_output_flush(&out) < 0)
		ret = output_failed();
	else if (status < 0)
		ret = sc_reader_report(&rd, status);
	sc_record_release(&rec);
	sc_output_release(&out);
	return ret;
}

/*
 * Untrusted text (a commit subject, a file name, a check's output) as the
 * drivers may print it: what sc_term_clean leaves, streamed, so a line of
 * any length costs no more memory than a read.
 */
static int clean(int flags)
{
	static char chunk[SC_IO_CHUNK];
	struct sc_output out;
	size_t have = 0, used;
	ssize_t n;
	int ret = SC_EXIT_OK;

	sc_output_init(&out, STDOUT_FILENO);
	for (;;) {
		n = read(STDIN_FILENO, chunk + have, sizeof(chunk) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		/* A UTF-8 sequence cut by the read waits for the next one. */
		used = sc_term_clean_some(&out.buf, chunk, have,
					  flags | SC_TERM_MORE);
		memmove(chunk, chunk + used, have - used);
		have -= used;
		/* Live output: what is cleaned goes out before the next read. */
		if (sc_output_flush(&out) < 0)
			break;
	}
	if (n < 0) {
		sc_error_errno("READ-FAILED", "cannot read input");
		ret = SC_EXIT_INTERNAL;
	}
	(void)sc_term_clean_some(&out.buf, chunk, have, flags);
	if (sc_output_flush(&out) < 0)
		ret = output_failed();
	sc_output_release(&out);
	return ret;
}

static int report_json(const struct sc_json_error *err, int status,
		       unsigned long lineno)
{
	if (status == SC_JSON_TOO_LARGE) {
		sc_error("RECORD-TOO-LARGE",
			 "line %lu: record larger than %zu bytes", lineno,
			 SC_RECORD_MAX);
		return SC_EXIT_MALFORMED;
	}
	if (err->name[0])
		sc_error("MALFORMED-JSON", "line %lu: member '%s': %s", lineno,
			 err->name, err->what);
	else if (err->column > 0)
		sc_error("MALFORMED-JSON", "line %lu, column %d: %s", lineno,
			 err->column, err->what);
	else
		sc_error("MALFORMED-JSON", "line %lu: %s", lineno, err->what);
	return SC_EXIT_MALFORMED;
}

static int from_json(int force_records)
{
	struct sc_input in;
	struct sc_output out;
	struct sc_record rec;
	struct sc_json_error err;
	struct sc_buf line = SC_BUF_INIT;
	unsigned long lineno = 0;
	int got, status = SC_JSON_OK, ret = SC_EXIT_OK;

	sc_input_init_fd(&in, STDIN_FILENO);
	sc_output_init_records(&out, STDOUT_FILENO, force_records);
	sc_input_set_idle(&in, sc_output_idle, &out);
	sc_record_init(&rec);
	while ((got = sc_input_read_line(&in, &line, JSON_LINE_MAX)) > 0) {
		lineno++;
		if (!line.len)
			continue;
		status = sc_record_from_json(line.data, line.len, &rec, &err);
		if (status || sc_record_write(&out, &rec) < 0)
			break;
	}
	/* The good records go out before the diagnostic about the bad one. */
	if (sc_output_flush(&out) < 0) {
		ret = output_failed();
	} else if (status) {
		ret = report_json(&err, status, lineno);
	} else if (got == -1) {
		sc_error_errno("READ-FAILED", "cannot read input");
		ret = SC_EXIT_INTERNAL;
	} else if (got == -2) {
		sc_error("RECORD-TOO-LARGE", "line %lu: longer than %zu bytes",
			 lineno + 1, (size_t)JSON_LINE_MAX);
		ret = SC_EXIT_MALFORMED;
	}
	sc_buf_release(&line);
	sc_record_release(&rec);
	sc_output_release(&out);
	return ret;
}

static void add_arg(struct sc_record *rec, const char *arg, const char *eq)
{
	char *name = sc_xmemdup(arg, (size_t)(eq - arg));

	sc_record_adds(rec, name, eq + 1);
	free(name);
}

/* Build one record from NAME=VALUE arguments. */
static int from_args(int argc, char *const argv[], int force_records)
{
	struct sc_output out;
	struct sc_record rec;
	int i, ret = SC_EXIT_OK;

	sc_record_init(&rec);
	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (!eq || !sc_field_name_valid(argv[i], (size_t)(eq - argv[i])))
			sc_usage_error(&tool, "an argument is not NAME=VALUE "
					      "with NAME matching [a-z][a-z0-9_.-]*");
		if (!i && strncmp(argv[i], "type=", 5))
			sc_usage_error(&tool, "the first field must be type=");
		add_arg(&rec, argv[i], eq);
	}
	if (rec.wire_size > SC_RECORD_MAX) {
		sc_error("RECORD-TOO-LARGE", "record larger than %zu bytes",
			 SC_RECORD_MAX);
		ret = SC_EXIT_USAGE;
	}
	if (ret == SC_EXIT_OK) {
		sc_output_init_records(&out, STDOUT_FILENO, force_records);
		if (sc_record_write(&out, &rec) < 0 || sc_output_flush(&out) < 0)
			ret = output_failed();
		sc_output_release(&out);
	}
	sc_record_release(&rec);
	return ret;
}

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "to-json", no_argument, NULL, 'j' },
		{ "from-json", no_argument, NULL, 'J' },
		{ "clean", no_argument, NULL, 'c' },
		{ "clean-line", no_argument, NULL, 'l' },
		{ "records", no_argument, NULL, 'z' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	int mode = 0, force_records = 0, c;

	sc_diag_init(tool.name);
	while ((c = sc_getopt(argc, argv, "+hz", longopts, &tool)) != -1) {
		if (c == 'z') {
			force_records = 1;
			continue;
		}
		if (mode)
			sc_usage_error(&tool, "choose one mode");
		mode = c;
	}
	argc -= optind;
	argv += optind;
	if (mode && argc)
		sc_usage_error(&tool, "--to-json, --from-json and --clean take "
			       "no arguments");
	if (force_records && (mode == 'j' || mode == 'c' || mode == 'l'))
		sc_usage_error(&tool, "-z goes with --from-json and NAME=VALUE");
	if (mode == 'j')
		return to_json();
	if (mode == 'c' || mode == 'l')
		return clean(mode == 'c' ? SC_TERM_KEEP_NEWLINE |
				 SC_TERM_KEEP_TAB : 0);
	if (mode == 'J')
		return from_json(force_records);
	if (!argc)
		sc_usage_error(&tool, "nothing to do");
	return from_args(argc, argv, force_records);
}
