#ifndef SC_CLASSIFY_H
#define SC_CLASSIFY_H

/*
 * sc-classify(1), the tool: its main parses the command line and calls
 * sc_classify_run() (lib/diag.h).  The rules are lib/policy*.c; this
 * module reads the files the options name, moves the records, and stops
 * after three denials in a row.
 */

#include "policy.h"

struct sc_classify_opts {
	const char *root;       /* --root DIR (required to judge) */
	const char *config;     /* --config FILE: speccoder.conf */
	const char *grants;     /* --grants FILE: type=grant records */
	const char *ignored;    /* --ignored FILE: NUL-separated paths */
	const char *frozen;     /* --frozen FILE: NUL-separated paths */
	const char *included;   /* --included FILE: NUL-separated paths */
	const char *feature;    /* --feature NAME */
	enum sc_mode mode;      /* --mode */
	int no_prompt;          /* --no-prompt: ask becomes deny */
	int no_stop;            /* --no-stop: a script's list of paths */
	int print_protected;    /* --print-protected */
	int git_neutral;        /* --git-neutral */
	int records;            /* -z: records even to a terminal */
};

/*
 * Run sc-classify as O says: one verdict record per type=call record of
 * stdin (other records pass through), or, with print_protected or
 * git_neutral, that list.  Returns the exit status of sc-classify(1).
 */
int sc_classify_run(const struct sc_classify_opts *o);

#endif
