#ifndef SC_MASKIO_H
#define SC_MASKIO_H

/*
 * The three ways sc-mask(1) moves data through a masker (lib/mask.h):
 * a byte stream (files or stdin to stdout), a record stream (the text field
 * of type=text records), and a unified diff (findings for added lines).
 * Each returns an exit code of DESIGN.md and has printed its diagnostics.
 */

#include "io.h"
#include "mask.h"

/*
 * Mask the concatenation of PATHS (NPATHS of them; "-" or none is stdin)
 * to OUT as one stream, so a secret split between two files is still found.
 * Everything that cannot begin a secret is written before each read that
 * may block.
 */
int sc_mask_files(struct sc_masker *m, char *const *paths, int npaths,
		  struct sc_output *out);

/*
 * --records-stream: type=text records from IN get their text fields
 * masked; with ALL_FIELDS, every field of every record but its type.
 */
int sc_mask_records(struct sc_masker *m, struct sc_input *in,
		    struct sc_output *out, int all_fields);

/*
 * --check-diff: read a unified diff from IN; one type=finding
 * code=SECRET-IN-DIFF name= file= line= per secret on each added line.
 * With SC (not NULL), each file's added lines, masked, are also scanned
 * for credential-shaped content (lib/scan.h): type=finding
 * code=CREDENTIAL (or CREDENTIAL-ALLOWED) rule= file= line= fingerprint=.
 * SC_EXIT_NO when any finding is not allowed, SC_EXIT_OK when none;
 * SC_EXIT_UNAVAILABLE with error[SCAN-INCOMPLETE] when a binary file's
 * content is not in the diff.
 */
struct sc_scanner;
int sc_mask_check_diff(struct sc_masker *m, struct sc_scanner *sc,
		       struct sc_input *in, struct sc_output *out);

#endif
