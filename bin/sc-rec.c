/*
 * sc-rec: convert sc-record(5) streams to and from JSON Lines, build a
 * record from the command line for scripts, and clean text a script shows
 * on a terminal with the one cleaner every tool uses (termtext.h).
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
	"--for-terminal",
	"NAME=VALUE...",
	NULL,
};

static const struct sc_tool tool = {
	"sc-rec", synopsis,
	"    --to-json      records on stdin -> one JSON object a line on stdout\n"
	"    --from-json    JSON Lines on stdin -> records on stdout\n"
	"    --for-terminal text on stdin -> the same cleaned for a terminal\n"
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

/*
 * Text on stdin to stdout, each line cleaned for a terminal; newlines
 * kept.  Streams in bounded memory whatever the length of a line: a
 * character cut by a read waits for the next one.
 */
static int for_terminal(void)
{
	char in[65536];
	struct sc_buf out = SC_BUF_INIT;
	size_t have = 0, upto, keep, i, start;
	int ret = SC_EXIT_OK, eof = 0;

	while (!eof) {
		ssize_t n = read(STDIN_FILENO, in + have, sizeof(in) - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			sc_error_errno("READ-FAILED", "cannot read input");
			ret = SC_EXIT_INTERNAL;
			break;
		}
		eof = n == 0;
		have += (size_t)n;
		keep = eof ? 0 : sc_term_partial(in, have);
		upto = have - keep;
		sc_buf_reset(&out);
		for (i = start = 0; i <= upto; i++) {
			if (i < upto && in[i] != '\n')
				continue;
			sc_term_clean(&out, in + start, i - start);
			if (i < upto)
				sc_buf_addch(&out, '\n');
			start = i + 1;
		}
		if (out.len && sc_write_all(STDOUT_FILENO, out.data, out.len) < 0) {
			ret = output_failed();
			break;
		}
		memmove(in, in + upto, keep);
		have = keep;
	}
	sc_buf_release(&out);
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
		{ "for-terminal", no_argument, NULL, 'T' },
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
		sc_usage_error(&tool, "--to-json, --from-json and --for-terminal "
			       "take no arguments");
	if (force_records && (mode == 'j' || mode == 'T'))
		sc_usage_error(&tool, "-z goes with --from-json and NAME=VALUE");
	if (mode == 'j')
		return to_json();
	if (mode == 'J')
		return from_json(force_records);
	if (mode == 'T')
		return for_terminal();
	if (!argc)
		sc_usage_error(&tool, "nothing to do");
	return from_args(argc, argv, force_records);
}
