/*
 * Mutation scores: see mutation.h.
 */
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "filetool.h"
#include "io.h"

#include "mutation.h"
#include "record.h"
#include "rectable.h"

/* A cap far above any real count; K * 100 cannot overflow below it. */
#define COUNT_MAX 1000000000000ULL

/* Decimal digits at *P (no sign, no leading zero but "0"), P advanced. */
static int number(const char **p, const char *end, unsigned long long *out)
{
	const char *q = *p;
	unsigned long long v = 0;

	if (q == end || *q < '0' || *q > '9')
		return -1;
	if (*q == '0' && q + 1 < end && q[1] >= '0' && q[1] <= '9')
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		v = v * 10 + (unsigned long long)(*q - '0');
		if (v > COUNT_MAX)
			return -1;
	}
	*p = q;
	*out = v;
	return 0;
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* One line [P, END): 0 and S set when it is a summary line. */
static int summary_line(const char *p, const char *end,
			struct sc_mutation_score *s)
{
	static const char lead[] = "mutation score:";
	struct sc_mutation_score v;

	while (p < end && blank(*p))
		p++;
	if ((size_t)(end - p) < sizeof(lead) - 1 ||
	    strncasecmp(p, lead, sizeof(lead) - 1))
		return -1;
	p += sizeof(lead) - 1;
	while (p < end && blank(*p))
		p++;
	if (number(&p, end, &v.killed) || p == end || *p++ != '/' ||
	    number(&p, end, &v.total))
		return -1;
	if (p < end && !blank(*p))
		return -1;
	if (v.killed > v.total)
		return -1;
	*s = v;
	return 0;
}

int sc_mutation_parse_summary(const char *text, size_t len,
			      struct sc_mutation_score *s, const char **why)
{
	const char *p = text, *end = text + len;
	int found = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if (!summary_line(p, e, s))
			found = 1;
		p = nl ? nl + 1 : end;
	}
	if (!found)
		return *why = "no line 'mutation score: KILLED/TOTAL' "
			      "(KILLED at most TOTAL)", -1;
	return 0;
}

/* A member that is a count: an integer from 0 to COUNT_MAX. */
static int count(const json_t *o, const char *key, unsigned long long *out)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (unsigned long long)json_integer_value(v) > COUNT_MAX)
		return -1;
	*out = (unsigned long long)json_integer_value(v);
	return 0;
}

/* Stryker's status names: killed, survived, or not counted. */
static int stryker_status(const char *st, struct sc_mutation_score *s)
{
	if (!strcmp(st, "Killed") || !strcmp(st, "Timeout")) {
		s->killed++;
		s->total++;
	} else if (!strcmp(st, "Survived") || !strcmp(st, "NoCoverage")) {
		s->total++;
	} else if (strcmp(st, "CompileError") && strcmp(st, "RuntimeError") &&
		   strcmp(st, "Ignored") && strcmp(st, "Pending")) {
		return -1;
	}
	return 0;
}

static int stryker(const json_t *files, struct sc_mutation_score *s,
		   const char **why)
{
	const char *name;
	json_t *f, *m;
	size_t i;

	s->killed = s->total = 0;
	json_object_foreach((json_t *)files, name, f) {
		const json_t *mutants = json_object_get(f, "mutants");

		if (!json_is_array(mutants))
			return *why = "files.*.mutants must be an array", -1;
		json_array_foreach(mutants, i, m) {
			const char *st = json_string_value(json_object_get(m, "status"));

			if (!st || stryker_status(st, s))
				return *why = "a mutant without a known status", -1;
		}
	}
	return 0;
}

/* cargo-mutants: caught and timeout killed it; missed did not. */
static int cargo_mutants(const json_t *o, struct sc_mutation_score *s,
			 const char **why)
{
	unsigned long long caught, timeout, missed;

	if (count(o, "caught", &caught) || count(o, "timeout", &timeout) ||
	    count(o, "missed", &missed))
		return *why = "caught, timeout and missed must be counts", -1;
	s->killed = caught + timeout;
	s->total = s->killed + missed;
	return 0;
}

int sc_mutation_parse_report(const char *json, size_t len,
			     struct sc_mutation_score *s, const char **why)
{
	json_error_t jerr;
	json_t *o;
	int ret;

	if (len > SC_MUTATION_MAX)
		return *why = "the report is too large", -1;
	o = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!json_is_object(o)) {
		json_decref(o);
		return *why = "the report is not a JSON object", -1;
	}
	if (json_object_get(o, "killed") || json_object_get(o, "total")) {
		ret = count(o, "killed", &s->killed) || count(o, "total", &s->total)
			? (*why = "killed and total must be counts", -1) : 0;
	} else if (json_object_get(o, "total_mutants")) {
		ret = cargo_mutants(o, s, why);
	} else if (json_is_object(json_object_get(o, "files"))) {
		ret = stryker(json_object_get(o, "files"), s, why);
	} else {
		ret = -1;
		*why = "the report has none of killed/total, total_mutants, files";
	}
	if (!ret && s->killed > s->total)
		ret = -1, *why = "killed exceeds total";
	if (!ret && s->total > COUNT_MAX)
		ret = -1, *why = "the counts are too large";
	json_decref(o);
	return ret;
}

int sc_mutation_meets(const struct sc_mutation_score *s,
		      unsigned long long minimum)
{
	if (!s->total)
		return minimum == 0;
	return s->killed * 100 >= minimum * s->total;
}

/* ---- sc-mutation ---- */

/* How a step ends; mutation_exit() makes the exit status of it. */
enum mutation_status {
	MUT_OK = 0,
	MUT_BELOW = 1,          /* the score is below the minimum */
	MUT_FAILED = -1,        /* the output cannot be written */
	MUT_MALFORMED = -2,     /* the summary or the report */
	MUT_BAD_ROOT = -3,      /* -C ROOT cannot be opened */
};

static int mutation_exit(int st)
{
	switch (st) {
	case MUT_OK:
		return SC_EXIT_OK;
	case MUT_BELOW:
		return SC_EXIT_NO;
	case MUT_MALFORMED:
		return SC_EXIT_MALFORMED;
	case MUT_BAD_ROOT:
		return SC_EXIT_USAGE;
	default:
		return SC_EXIT_INTERNAL;
	}
}

/* FILE, the driver's own log of the tool's output: never a symlink. */
static int read_summary(const char *file, struct sc_buf *text)
{
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	int truncated = 0, ret;

	if (fd < 0) {
		sc_error_errno("MUTATION-REPORT", "cannot open the summary");
		return MUT_MALFORMED;
	}
	ret = sc_read_fd_capped(fd, SC_MUTATION_MAX, text, &truncated);
	close(fd);
	if (ret < 0) {
		sc_error_errno("MUTATION-REPORT", "cannot read the summary");
		return MUT_MALFORMED;
	}
	return MUT_OK;
}

/* PATH beneath ROOT, a regular file of at most SC_MUTATION_MAX bytes. */
static int read_report(const char *root, const char *path,
		       struct sc_buf *text)
{
	struct sc_buf why = SC_BUF_INIT;
	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int truncated = 0, ret = MUT_OK;

	if (rootfd < 0) {
		sc_error_errno("ROOT", "cannot open the root");
		return MUT_BAD_ROOT;
	}
	if (sc_file_read(rootfd, path, SC_MUTATION_MAX, text, &truncated,
			 &why) < 0) {
		sc_error("MUTATION-REPORT", "the report: %s (a regular file "
			 "beneath the root, no symlink on the way)",
			 why.data ? why.data : "cannot read");
		ret = MUT_MALFORMED;
	} else if (truncated) {
		sc_error("MUTATION-REPORT", "the report is larger than %u bytes",
			 SC_MUTATION_MAX);
		ret = MUT_MALFORMED;
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
	int meets = !has_min || sc_mutation_meets(s, minimum), ret;

	sc_output_init_records(&out, STDOUT_FILENO, nul);
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "mutation-score");
	sc_record_addu(&rec, "killed", s->killed);
	sc_record_addu(&rec, "total", s->total);
	if (has_min) {
		sc_record_addu(&rec, "minimum", minimum);
	}
	sc_record_adds(&rec, "result", meets ? "pass" : "below");
	sc_record_queue(&out, &rec);
	sc_record_release(&rec);
	ret = sc_output_flush(&out);
	sc_output_release(&out);
	if (ret < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		return MUT_FAILED;
	}
	return meets ? MUT_OK : MUT_BELOW;
}

int sc_mutation_run(const struct sc_mutation_opts *o)
{
	struct sc_buf text = SC_BUF_INIT;
	struct sc_mutation_score s;
	const char *why = NULL;
	int ret;

	ret = o->summary ? read_summary(o->summary, &text) :
		read_report(o->root, o->report, &text);
	if (!ret) {
		if ((o->summary ?
		     sc_mutation_parse_summary(text.data ? text.data : "",
					       text.len, &s, &why) :
		     sc_mutation_parse_report(text.data ? text.data : "",
					      text.len, &s, &why)) < 0) {
			sc_error("MUTATION-REPORT", "%s: %s",
				 o->summary ? "the summary" : "the report", why);
			ret = MUT_MALFORMED;
		} else {
			ret = write_score(&s, o->has_min, o->minimum,
					  o->force_records);
		}
	}
	sc_buf_release(&text);
	return mutation_exit(ret);
}
