/*
 * sc-classify(1), the tool: the files its options name, the records it
 * moves, the stop after three denials in a row.  The rules are
 * lib/policy*.c.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "classify.h"
#include "config.h"
#include "diag.h"
#include "gitkeys.h"
#include "io.h"
#include "policy.h"
#include "protected.h"
#include "record.h"
#include "rectable.h"

/* The most bytes a --ignored, --frozen or --included list may hold: 64 MiB. */
#define LIST_MAX ((size_t)64 << 20)

/*
 * How a step of sc-classify ends; classify_exit() makes the exit status.
 */
enum classify_status {
	CL_OK = 0,
	CL_STOPPED = 1,         /* three denials in a row */
	CL_FAILED = -1,         /* a read or a write failed */
	CL_MALFORMED = -2,      /* the config, a grant or a call record */
	CL_UNAVAILABLE = -3,    /* a file the options name cannot be read */
	CL_BAD_ROOT = -4,       /* --root is not a usable directory */
};

static int classify_exit(int st)
{
	switch (st) {
	case CL_OK:
		return SC_EXIT_OK;
	case CL_STOPPED:
		return SC_EXIT_NO;
	case CL_MALFORMED:
		return SC_EXIT_MALFORMED;
	case CL_UNAVAILABLE:
		return SC_EXIT_UNAVAILABLE;
	case CL_BAD_ROOT:
		return SC_EXIT_USAGE;
	default:
		return SC_EXIT_INTERNAL;
	}
}

/* The status for a reader's sc_read_status ST < 0, reported. */
static int read_status(int st)
{
	return st == SC_READ_IO ? CL_FAILED : CL_MALFORMED;
}

static int read_file(const char *path, struct sc_buf *out)
{
	return sc_read_file_or_error(path, LIST_MAX, "FILE-TOO-LARGE",
				     "FILE-UNREADABLE", out);
}

/* Load config, grants and lists into P; a classify_status. */
static int load(const struct sc_classify_opts *o, struct sc_policy *p)
{
	struct sc_config cfg;
	struct sc_buf b = SC_BUF_INIT;
	int st, fd;

	sc_config_init(&cfg);
	if (o->config && (st = sc_config_load(&cfg, o->config)) != SC_CONFIG_OK)
		return st == SC_CONFIG_BAD ? CL_MALFORMED : CL_UNAVAILABLE;
	if (sc_policy_init(p, o->root, o->mode, o->no_prompt, &cfg) < 0) {
		sc_config_release(&cfg);
		sc_error_errno("BAD-ROOT", "cannot use '%s' as the root", o->root);
		return CL_BAD_ROOT;
	}
	if (o->grants) {
		fd = open(o->grants, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			sc_error_errno("FILE-UNREADABLE", "cannot open '%s'",
				       o->grants);
			return CL_UNAVAILABLE;
		}
		st = sc_policy_load_grants(p, fd);
		close(fd);
		if (st < 0)
			return read_status(st);
	}
	if (o->ignored) {
		if (read_file(o->ignored, &b) < 0)
			return CL_UNAVAILABLE;
		sc_policy_load_paths(p, &p->ignored, b.data ? b.data : "", b.len);
		sc_buf_reset(&b);
	}
	if (o->frozen) {
		if (read_file(o->frozen, &b) < 0)
			return CL_UNAVAILABLE;
		sc_policy_load_paths(p, &p->frozen, b.data ? b.data : "", b.len);
		sc_buf_reset(&b);
	}
	if (o->included) {
		if (read_file(o->included, &b) < 0)
			return CL_UNAVAILABLE;
		sc_policy_load_paths(p, &p->included, b.data ? b.data : "", b.len);
	}
	sc_buf_release(&b);
	if (o->feature)
		sc_policy_set_feature(p, o->feature);
	return CL_OK;
}

static int classify(const struct sc_policy *p, int records, int no_stop)
{
	struct sc_input in;
	struct sc_output out;
	struct sc_reader rd;
	struct sc_record call, answer;
	struct sc_verdict v;
	int st, ret = CL_OK, denied = 0;

	sc_input_init_fd(&in, STDIN_FILENO);
	sc_output_init_records(&out, STDOUT_FILENO, records);
	sc_input_set_idle(&in, sc_output_idle, &out);
	sc_reader_init(&rd, &in);
	sc_record_init(&call);
	sc_record_init(&answer);
	sc_verdict_init(&v);
	while ((st = sc_reader_next(&rd, &call)) == SC_READ_RECORD) {
		const char *type = sc_record_type(&call);

		if (!type || strcmp(type, "call")) {
			sc_record_write(&out, &call);   /* not ours: pass it on */
			continue;
		}
		sc_policy_judge(p, &call, &v);
		sc_verdict_record(&v, sc_record_str(&call, "id"), &answer);
		if (sc_record_write(&out, &answer) < 0)
			break;
		denied = v.decision == SC_DENY ? denied + 1 : 0;
		if (denied == 3 && !no_stop) {
			sc_record_reset(&answer);
			sc_record_adds(&answer, "type", "stop");
			sc_record_adds(&answer, "code", "DENIED-THRICE");
			sc_record_write(&out, &answer);
			ret = CL_STOPPED;
			break;
		}
	}
	if (st < 0) {
		sc_reader_report(&rd, st);
		ret = read_status(st);
	}
	if (sc_output_flush(&out) < 0 || out.failed) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = CL_FAILED;
	}
	sc_verdict_release(&v);
	sc_record_release(&call);
	sc_record_release(&answer);
	sc_output_release(&out);
	return ret;
}

/* The protected names of the policy, as patterns for the guard. */
static int print_protected(const struct sc_classify_opts *o)
{
	struct sc_output out;
	int ret = CL_OK;

	sc_output_init_records(&out, STDOUT_FILENO, o->records);
	if (sc_protected_print(o->mode == SC_MODE_SPEC, o->feature, &out) < 0 ||
	    sc_output_flush(&out) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = CL_FAILED;
	}
	sc_output_release(&out);
	return ret;
}

/* The keys of a repository's config that sc-git overrides. */
static int git_neutral(int records)
{
	struct sc_input in;
	struct sc_output out;
	int ret = CL_OK;

	sc_input_init_fd(&in, STDIN_FILENO);
	sc_output_init_records(&out, STDOUT_FILENO, records);
	if (sc_gitkeys_neutralise(&in, &out) < 0)
		ret = CL_MALFORMED;
	if (sc_output_flush(&out) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = CL_FAILED;
	}
	sc_output_release(&out);
	return ret;
}

int sc_classify_run(const struct sc_classify_opts *o)
{
	struct sc_policy p;
	int ret;

	if (o->print_protected)
		return classify_exit(print_protected(o));
	if (o->git_neutral)
		return classify_exit(git_neutral(o->records));
	memset(&p, 0, sizeof(p));
	ret = load(o, &p);
	if (ret == CL_OK)
		ret = classify(&p, o->records, o->no_stop);
	sc_policy_release(&p);
	return classify_exit(ret);
}
