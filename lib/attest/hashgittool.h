#ifndef SC_HASHGITTOOL_H
#define SC_HASHGITTOOL_H

/*
 * sc-hash-git(1), the tool: the protect lists it is given, the manifest it
 * writes (to standard output, or atomically to a file) or checks.  The
 * manifest itself (what is hashed, its records, the comparison) is
 * lib/attest/githash.c; this module only wires it to files and descriptors.
 */

#include "githash.h"

struct sc_hash_git_opts {
	const char *dir;              /* -C: the repository at or above */
	const char *check;            /* --check MANIFEST ("-": stdin), or NULL */
	const char *output;           /* --output FILE, or NULL: stdout */
	const char *protect_file;     /* --protect */
	const char *protect_records;  /* --protect-records */
	struct sc_githash_options hg; /* refs excluded, status, tree, records */
};

/*
 * The whole of sc-hash-git: open the repository at O->dir with sc_gitopen,
 * build its manifest and write it (to O->output, replaced whole or not at
 * all, else standard output), or, when O->check is set, read the manifest
 * at O->check and write the findings on standard output.  The manifest is
 * read before the repository is looked at.  Returns the exit code (0
 * written or no change, 1 changes found, 3 malformed manifest or protect
 * list, 4 no usable repository, 5 a read or write failure), the
 * diagnostic printed.
 */
int sc_hash_git_run(const struct sc_hash_git_opts *o);

#endif
