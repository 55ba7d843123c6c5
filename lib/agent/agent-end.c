/*
 * The end record of sc-agent(1) (type=done or type=stop with the loop's
 * counts and the run's), and the run's counts read back from the last
 * one: a contract with the driver and the report, apart from the loop.
 */
#include <errno.h>
#include <string.h>

#include "agent.h"
#include "diag.h"
#include "io.h"
#include "opt.h"
#include "record.h"

/* ---- the end record ------------------------------------------------ */

void sc_agent_end_record(const struct sc_agent_opts *o,
			 const struct sc_agent_stats *s, int status,
			 struct sc_record *r)
{
	const struct sc_agent_counts *b = &o->before;

	sc_record_adds(r, "type", status == 0 ? "done" : "stop");
	if (status == 0) {
		sc_record_adds(r, "reason", "end-turn");
	} else {
		sc_record_adds(r, "code", s->code[0] ? s->code : "FAILED");
		sc_record_adds(r, "reason", s->reason.len ? s->reason.data :
			       "the loop failed (see the error above)");
	}
	sc_record_addu(r, "turns", s->turns);
	sc_record_addu(r, "allowed", s->allowed);
	sc_record_addu(r, "asked", s->asked);
	sc_record_addu(r, "denied", s->denied);
	sc_record_addu(r, "run-turns", b->turns + s->turns);
	sc_record_addu(r, "run-allowed", b->allowed + s->allowed);
	sc_record_addu(r, "run-asked", b->asked + s->asked);
	sc_record_addu(r, "run-denied", b->denied + s->denied);
	sc_agent_stamp(r);
}

/* The count NAME of R into *N: 0, or -1 when absent or not a number. */
static int read_count(const struct sc_record *r, const char *name,
		      unsigned *n)
{
	const char *v = sc_record_str(r, name);
	unsigned long long x;

	if (!v || sc_parse_uint(v, 1000000000, &x) < 0)
		return -1;
	*n = (unsigned)x;
	return 0;
}

int sc_agent_parse_before(const void *data, size_t len,
			  struct sc_agent_counts *before)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record r;
	int st, found = 0;

	memset(before, 0, sizeof(*before));
	sc_input_init_mem(&in, data, len);
	sc_reader_init(&rd, &in);
	sc_record_init(&r);
	/* The last end record counts: the loops of a run follow each other. */
	while ((st = sc_reader_next(&rd, &r)) == SC_READ_RECORD) {
		const char *type = sc_record_type(&r);

		if (!type || (strcmp(type, "done") && strcmp(type, "stop")))
			continue;
		found = 1;
		if (read_count(&r, "run-turns", &before->turns) < 0 ||
		    read_count(&r, "run-allowed", &before->allowed) < 0 ||
		    read_count(&r, "run-asked", &before->asked) < 0 ||
		    read_count(&r, "run-denied", &before->denied) < 0)
			found = -1;
	}
	sc_record_release(&r);
	if (st < 0 || found <= 0) {
		memset(before, 0, sizeof(*before));
		return -1;
	}
	return 0;
}

int sc_agent_read_before(const char *file, struct sc_agent_counts *before)
{
	struct sc_buf b = SC_BUF_INIT;
	int st = sc_read_file_max(file, 1 << 20, &b), ret = 0;

	memset(before, 0, sizeof(*before));
	if (st == -1 && errno == ENOENT)
		ret = 0;   /* the run's first loop */
	else if (st == -2)
		ret = sc_error("BEFORE-UNREADABLE", "'%s' is larger than 1 MiB",
			       file);
	else if (st < 0)
		ret = sc_error_errno("BEFORE-UNREADABLE", "cannot read '%s'",
				     file);
	else if (sc_agent_parse_before(b.data ? b.data : "", b.len, before) < 0)
		ret = sc_error("BEFORE-MALFORMED", "'%s' holds no end record "
			       "with the run's counts", file);
	sc_buf_release(&b);
	return ret;
}
