#ifndef SC_MUTATION_H
#define SC_MUTATION_H

/*
 * A mutation tool's score (sc-mutation(1)): how many of the mutants it
 * made the tests killed, out of how many counted.  Read from the last
 * summary line of the tool's output ("mutation score: KILLED/TOTAL") or
 * from a JSON report: {"killed":K,"total":T}, cargo-mutants'
 * outcomes.json (caught, timeout, missed), or a Stryker / mutation-testing
 * elements report (files.*.mutants[].status).  The text is untrusted (the
 * code under test ran beside the tool): every number is checked, and
 * KILLED never exceeds TOTAL.
 */

#include <stddef.h>

struct sc_mutation_score {
	unsigned long long killed, total;
};

/* The largest report or summary read, in bytes. */
#define SC_MUTATION_MAX (8u << 20)

/*
 * The last line of TEXT (LEN bytes) that is, after leading blanks,
 * "mutation score: K/T" with optional blanks or a blank and anything
 * after T.  0, or -1 with WHY (fixed text) when no line gives a score.
 */
int sc_mutation_parse_summary(const char *text, size_t len,
			      struct sc_mutation_score *s, const char **why);

/* A JSON report of one of the forms above.  0, or -1 with WHY. */
int sc_mutation_parse_report(const char *json, size_t len,
			     struct sc_mutation_score *s, const char **why);

/*
 * 1 when S meets MINIMUM percent: KILLED * 100 >= MINIMUM * TOTAL, and a
 * score with nothing counted meets only a minimum of 0.
 */
int sc_mutation_meets(const struct sc_mutation_score *s,
		      unsigned long long minimum);

/* What sc-mutation was asked, its command line parsed and checked. */
struct sc_mutation_opts {
	const char *summary;    /* --summary FILE, or NULL */
	const char *report;     /* --report PATH (beneath ROOT), or NULL */
	const char *root;       /* -C ROOT */
	int has_min;            /* --minimum given */
	unsigned long long minimum;
	int force_records;      /* -z */
};

/*
 * Run sc-mutation: read the score from the summary (never through a
 * symlink) or the report (beneath the root, no symlink on the way), and
 * write its type=mutation-score record.  The exit status of
 * sc-mutation(1): 1 when the score is below the minimum.
 */
int sc_mutation_run(const struct sc_mutation_opts *o);

#endif
