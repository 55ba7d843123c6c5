#ifndef SC_MASKIO_H
#define SC_MASKIO_H

/*
 * sc-mask(1) in the library: sc_mask_run() does what its main was asked,
 * and the three ways it moves data through a masker (lib/mask/mask.h): a byte
 * stream (files or stdin to stdout), a record stream (the text field of
 * type=text records), and a unified diff (findings for added lines).
 * These three return an sc_maskio_status and have printed their
 * diagnostics; only sc_mask_run() returns an exit status.
 */

#include <stddef.h>

#include "io.h"
#include "mask.h"

enum sc_maskio_status {
	SC_MASKIO_OK = 0,
	SC_MASKIO_FOUND = 1,        /* --check-diff: a finding not allowed */
	SC_MASKIO_FAILED = -1,      /* a read, a write or the masker failed */
	SC_MASKIO_NO_INPUT = -2,    /* a FILE cannot be opened */
	SC_MASKIO_MALFORMED = -3,   /* a record, or a diff line too long */
	SC_MASKIO_INCOMPLETE = -4,  /* error[SCAN-INCOMPLETE]: a binary file */
};

/* Where the secret values come from (sc-mask's SOURCE options). */
enum sc_mask_source_kind {
	SC_MASK_SRC_ENV,        /* --env: variables whose names look secret */
	SC_MASK_SRC_VAR,        /* --secret NAME */
	SC_MASK_SRC_DOTENV,     /* --secrets-file FILE */
	SC_MASK_SRC_KEY_FILE,   /* --key-file NAME=PATH */
	SC_MASK_SRC_FILE,       /* --secret-file PATH */
	SC_MASK_SRC_RECORDS,    /* --records FILE */
};

struct sc_mask_source {
	enum sc_mask_source_kind kind;
	const char *arg;
};

enum sc_mask_mode { SC_MASK_FILES, SC_MASK_RECORDS, SC_MASK_DIFF,
		    SC_MASK_SCAN };

/* What sc-mask was asked, its command line parsed and checked. */
struct sc_mask_opts {
	enum sc_mask_mode mode;
	const struct sc_mask_source *sources;  /* in command-line order */
	size_t nr_sources;
	const char *stdin_name;     /* --secret-stdin NAME, or NULL */
	int all_fields;             /* --all-fields */
	int force_records;          /* -z */
	const char *config;         /* --config FILE, or NULL */
	char *const *allow;         /* --allow-fingerprint, each of the form */
	size_t nr_allow;
	char *const *paths;         /* FILE... or, with --scan, PATH... */
	int npaths;
};

/*
 * Run sc-mask as O says and return its exit status (sc-mask(1)).  Every
 * source is read, so each bad one is reported at once; any bad one is
 * SC_EXIT_USAGE with nothing masked (a partial list is worse than none).
 */
int sc_mask_run(const struct sc_mask_opts *o);

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
 * for credential-shaped content (lib/mask/scan.h): type=finding
 * code=CREDENTIAL (or CREDENTIAL-ALLOWED) rule= file= line= fingerprint=.
 * SC_MASKIO_FOUND when any finding is not allowed, SC_MASKIO_OK when
 * none; SC_MASKIO_INCOMPLETE with error[SCAN-INCOMPLETE] when a binary
 * file's content is not in the diff.
 */
struct sc_scanner;
int sc_mask_check_diff(struct sc_masker *m, struct sc_scanner *sc,
		       struct sc_input *in, struct sc_output *out);

#endif
