#ifndef SC_SEATBELT_H
#define SC_SEATBELT_H

/*
 * macOS: the same policy as a Seatbelt (SBPL) profile for sandbox-exec(1).
 *
 * The generated text holds no path: every path is a parameter
 * (ROOT, TMPDIR, WRITABLE_n, READ_ONLY_n, HIDE_n, GUARD_n, LIFTED_n,
 * HOME) passed with -D, so
 * no byte of a path can change the profile's syntax, and the text is the
 * same on every machine (golden tests compare it on Linux).
 *
 * Rules are written broad first and narrow after: in SBPL a later rule
 * overrides an earlier one that matches the same operation.
 */

#include <stddef.h>

#include "buf.h"

struct sc_seatbelt {
	size_t nwritable, nread_only, nhide;  /* how many of each parameter */
	int net;                              /* enum sc_net_mode */
	int root_read_only;
	/* The root's read-only defaults (rootguard.h) found on disk
	 * (GUARD_n) and lifted by --writable (LIFTED_n). */
	size_t nguard, nlifted;
};

/* Append the profile to OUT. */
void sc_seatbelt_generate(const struct sc_seatbelt *sb, struct sc_buf *out);

#ifdef __APPLE__
struct sc_sandbox_policy;

/*
 * Execute ARGV under /usr/bin/sandbox-exec with PROFILE, the parameters
 * DEFS ("NAME=PATH", NDEFS of them) and the environment ENVP.  Returns
 * only on failure (-1, errno set).
 */
int sc_seatbelt_exec(const char *profile, char *const *defs, size_t ndefs,
		     char *const *argv, char *const *envp);

/*
 * sc-sandbox-exec on macOS: run ARGV under POL (defaults applied) in a
 * Seatbelt profile generated from it, and wait for it.  What Seatbelt
 * cannot enforce (a loopback of its own, the deadline, the output cap) is
 * refused under --mode required and named under --mode auto.  Returns the
 * exit status sc-sandbox-exec should end with.  Not exercised by this
 * project's CI.
 */
int sc_seatbelt_run(const struct sc_sandbox_policy *pol, char *const argv[],
		    char *const envp[]);
#endif

#endif
