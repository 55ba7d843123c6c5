#ifndef SC_PINTOOL_H
#define SC_PINTOOL_H

/*
 * sc-pin(1)'s commands, one sc_pin_CMD_run() each, called by its main
 * with the command line parsed and checked (lib/diag.h): each writes its
 * records or digest on standard output and returns the exit status.  The
 * lock, the digest and the check of one package are lib/attest/pin.c.
 */

#include <stddef.h>

struct sc_pin_opts {
	const char *lock;       /* --lock FILE */
	const char *root;       /* --root DIR, or NULL */
	const char *config;     /* --config FILE, or NULL */
	int records;            /* verify --records: packages on stdin too */
	int force_records;      /* -z */
	char *const *rest;      /* the operands after the command, checked */
	size_t nrest;
};

/* digest PATH: print the package's digest. */
int sc_pin_digest_run(const char *path);

/*
 * pin [ID@VERSION] PATH: scan the package (a finding pins nothing), then
 * pin its digest under ID@VERSION in the lock.  With --root, the id is
 * the one a run loads the skill at PATH under (ID@VERSION may be left out;
 * another is refused with error[PIN-ID]).
 */
int sc_pin_pin_run(const struct sc_pin_opts *o);

/*
 * verify [ID@VERSION=PATH...]: one type=pin record per package, command
 * line first, then (--records) the type=package records of stdin; other
 * records pass through.  SC_EXIT_NO when a required package is not
 * verified.
 */
int sc_pin_verify_run(const struct sc_pin_opts *o);

/* skills: the skills a run would load, as records. */
int sc_pin_skills_run(const struct sc_pin_opts *o);

#endif
