#ifndef SC_SCAN_H
#define SC_SCAN_H

/*
 * sc-mask --scan: credential-shaped content found without knowing any
 * value.  The rules are one table (lib/scan.c), each a regular expression
 * run by Vectorscan in block mode, with a positive and a negative example
 * the unit tests check; the secret-assignment rule also needs a value of
 * high entropy.  A finding names the rule, the file and the line, never
 * the matched text; a path component that itself matches a rule is shown
 * as "(name not shown)".
 */

#include <stddef.h>

#include "buf.h"
#include "io.h"

struct sc_scan_rule {
	const char *id;        /* "aws-access-key-id" */
	const char *regex;
	const char *positive;  /* a made-up string the rule must find */
	const char *negative;  /* a look-alike it must not find */
};

/* The rule table, ending with an entry whose id is NULL. */
extern const struct sc_scan_rule sc_scan_rules[];

struct sc_scanner;

/* NULL with error[MATCHER] when the rules do not compile. */
struct sc_scanner *sc_scanner_new(void);
void sc_scanner_free(struct sc_scanner *sc);

/*
 * Call FN for each (rule, line) of the LEN bytes at DATA, once each, in
 * line order.  Returns the number of findings, or -1 on a matcher error.
 */
typedef void (*sc_scan_fn)(void *ctx, const char *rule, unsigned long line);
long sc_scan_buffer(struct sc_scanner *sc, const char *data, size_t len,
		    sc_scan_fn fn, void *ctx);

/*
 * PATH into SHOWN (reset first), each '/'-separated component that itself
 * matches a rule replaced by "(name not shown)".
 */
void sc_scan_show_path(struct sc_scanner *sc, const char *path,
		       struct sc_buf *shown);

/*
 * Scan the files and directories (recursively, not following symlinks,
 * skipping .git) of PATHS, writing type=finding code=CREDENTIAL records to
 * OUT.  Returns an exit code: 1 when anything was found, 0 when not, 2 when
 * a path could not be read (after scanning the others).
 */
int sc_scan_paths(struct sc_scanner *sc, char *const *paths, int npaths,
		  struct sc_output *out);

/* Shannon entropy of the LEN bytes at P, in bits per byte. */
double sc_scan_entropy(const char *p, size_t len);

#endif
