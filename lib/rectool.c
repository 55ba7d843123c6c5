/*
 * sc-rec(1), the tool: sc-record(5) streams to and from JSON Lines, one
 * record from the command line, and text cleaned for a terminal with the
 * one cleaner every tool uses (termtext.h).
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
#include "recjson.h"
#include "record.h"
#include "rectable.h"
#include "rectool.h"
#include "termtext.h"

/* How a mode ends; rec_exit() makes the exit status of it. */
enum rec_status {
	REC_OK = 0,
	REC_FAILED = -1,        /* a read or a write failed */
	REC_MALFORMED = -2,     /* the input */
	REC_TOO_LARGE = -3,     /* the record the arguments make */
};

static int rec_exit(int st)
{
	switch (st) {
	case REC_OK:
		return SC_EXIT_OK;
	case REC_MALFORMED:
		return SC_EXIT_MALFORMED;
	case REC_TOO_LARGE:
		return SC_EXIT_USAGE;
	default:
		return SC_EXIT_INTERNAL;
	}
}

/*
 * The longest JSON line accepted: a record at its size limit with every
 * byte escaped as \u00XX, plus room for names and punctuation.
 */
#define JSON_LINE_MAX (6 * SC_RECORD_MAX + 65536)

static int output_failed(void)
{
	sc_error_errno("WRITE-FAILED", "cannot write output");
	return REC_FAILED;
}

static int to_json(void)
{
	struct sc_input in;
	struct sc_output out;
	struct sc_reader rd;
	struct sc_record rec;
	int status, ret = REC_OK;

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
	else if (status < 0) {
		sc_reader_report(&rd, status);
		ret = status == SC_READ_IO ? REC_FAILED : REC_MALFORMED;
	}
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
		return REC_MALFORMED;
	}
	if (err->name[0])
		sc_error("MALFORMED-JSON", "line %lu: member '%s': %s", lineno,
			 err->name, err->what);
	else if (err->column > 0)
		sc_error("MALFORMED-JSON", "line %lu, column %d: %s", lineno,
			 err->column, err->what);
	else
		sc_error("MALFORMED-JSON", "line %lu: %s", lineno, err->what);
	return REC_MALFORMED;
}

static int from_json(int force_records)
{
	struct sc_input in;
	struct sc_output out;
	struct sc_record rec;
	struct sc_json_error err;
	struct sc_buf line = SC_BUF_INIT;
	unsigned long lineno = 0;
	int got, status = SC_JSON_OK, ret = REC_OK;

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
		ret = REC_FAILED;
	} else if (got == -2) {
		sc_error("RECORD-TOO-LARGE", "line %lu: longer than %zu bytes",
			 lineno + 1, (size_t)JSON_LINE_MAX);
		ret = REC_MALFORMED;
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
	int ret = REC_OK, eof = 0;

	while (!eof) {
		ssize_t n = read(STDIN_FILENO, in + have, sizeof(in) - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			sc_error_errno("READ-FAILED", "cannot read input");
			ret = REC_FAILED;
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
	int i, ret = REC_OK;

	sc_record_init(&rec);
	/* The main checked each is NAME=VALUE, type= first. */
	for (i = 0; i < argc; i++)
		add_arg(&rec, argv[i], strchr(argv[i], '='));
	if (rec.wire_size > SC_RECORD_MAX) {
		sc_error("RECORD-TOO-LARGE", "record larger than %zu bytes",
			 SC_RECORD_MAX);
		ret = REC_TOO_LARGE;
	}
	if (ret == REC_OK) {
		sc_output_init_records(&out, STDOUT_FILENO, force_records);
		if (sc_record_write(&out, &rec) < 0 || sc_output_flush(&out) < 0)
			ret = output_failed();
		sc_output_release(&out);
	}
	sc_record_release(&rec);
	return ret;
}

int sc_rec_run(const struct sc_rec_opts *o)
{
	switch (o->mode) {
	case SC_REC_TO_JSON:
		return rec_exit(to_json());
	case SC_REC_FROM_JSON:
		return rec_exit(from_json(o->force_records));
	case SC_REC_FOR_TERMINAL:
		return rec_exit(for_terminal());
	default:
		return rec_exit(from_args(o->nfields, o->fields,
					  o->force_records));
	}
}
