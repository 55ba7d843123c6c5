#ifndef SC_ATTEST_H
#define SC_ATTEST_H

/*
 * Attestations on commits: in-toto Statements in DSSE envelopes, one
 * canonical-JSON envelope a line, in the git note of the commit under
 * refs/notes/speccoder (speccoder-attestation(5)).
 *
 * Everything goes through libgit2 with the configuration search paths
 * emptied and without GIT_REPOSITORY_OPEN_FROM_ENV: no git binary, no hook,
 * filter, fsmonitor or helper runs, and neither the environment nor the
 * user's or system's git configuration changes which repository is read.
 *
 * The four sc_attest_*_run functions are sc-attest's commands: each
 * returns the exit status (diag.h), its diagnostics already printed;
 * everything beneath them returns -1 with a diagnostic, or a status of
 * its own where a caller must tell one outcome from another.
 */

#include <time.h>

#include <git2.h>

#include "io.h"

#define SC_ATTEST_NOTES_REF "refs/notes/speccoder"
#define SC_ATTEST_NAMESPACE "in-toto"

struct sc_attest_record_opts {
	const char *repo_dir;        /* NULL: discover from "." */
	const char *commit;          /* a revision */
	const char *predicate_type;  /* a URI; NULL: task-verification */
	const char *predicate_path;  /* a JSON object; "-" for stdin */
	const char *evidence_path;   /* or: records the task-verification
				      * predicate is built from (intoto.h);
				      * "-" for stdin */
	const char *subject_name;    /* NULL: the commit id */
	const char *key_path;        /* NULL: the envelope stays unsigned */
};

/*
 * Add one envelope to the commit's note and write a type=attestation
 * record to OUT.  The predicate is read, checked and the key loaded
 * before the note is touched: bad input leaves the note as it was.
 * Returns the exit code (diagnostics already printed).
 */
int sc_attest_record_run(const struct sc_attest_record_opts *o,
			 struct sc_output *out);

/*
 * Sign every unsigned envelope in the note of COMMIT with the private key
 * at KEY_PATH, after checking that its statement is about COMMIT and its
 * tree (a signer never signs a claim about another commit).  The note is
 * rewritten with those lines signed, others unchanged; one
 * type=attestation record per signed envelope.  Returns the exit code.
 */
int sc_attest_sign_run(const char *repo_dir, const char *commit,
		       const char *key_path, struct sc_output *out);

/*
 * Write the note of COMMIT in REPO to OUT for a person: a "commit HEX"
 * line, then each envelope's statement, its predicate, and whether each
 * signature is valid (not whether it is trusted: that is verify's
 * question).  For sc-attest show and for a report that shows a commit's
 * attestation.
 */
enum sc_attest_show_status {
	SC_ATTEST_SHOWN = 0,
	SC_ATTEST_NO_NOTE = 1,      /* nothing written, nothing printed */
	SC_ATTEST_UNREADABLE = -1,  /* nothing written, error[NOTES-READ] */
};
enum sc_attest_show_status sc_attest_show(git_repository *repo,
					  const git_oid *commit,
					  struct sc_output *out);

/*
 * sc-attest show: sc_attest_show for REV.  Exit 0, 1 when REV has no note
 * (error[NO-NOTE]).
 */
int sc_attest_show_run(const char *repo_dir, const char *rev,
		       struct sc_output *out);

struct sc_attest_verify_opts {
	const char *repo_dir;
	const char *branch;          /* REV */
	const char *base;            /* NULL: every ancestor of REV */
	const char *allowed_signers; /* required: the only source of trust */
	int allow_unsigned;
	int neutral_ok;
	time_t now;                  /* when validity windows are judged */
	/* The GitHub Actions environment, as main read it (may be NULL). */
	const char *github_actions;
	const char *github_event_name;
	const char *github_event_path;
};

/*
 * Check every commit in BASE..BRANCH and write one type=result record
 * each, then type=conclusion.  Returns the exit code.
 */
int sc_attest_verify_run(const struct sc_attest_verify_opts *o,
			 struct sc_output *out);

#endif
