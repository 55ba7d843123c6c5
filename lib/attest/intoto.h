#ifndef SC_INTOTO_H
#define SC_INTOTO_H

/*
 * in-toto Statements (v1) about git commits, in canonical JSON: keys sorted
 * at every level (bytewise), no white space (jansson's JSON_SORT_KEYS |
 * JSON_COMPACT).  The subject of every statement sc-attest makes is
 *
 *   {"digest":{"gitCommit":HEX,"gitTree":HEX},"name":NAME}
 *
 * and a verifier accepts a statement for a commit only when one subject's
 * gitCommit is that commit and its gitTree, when present, is that commit's
 * tree.  The predicates are described in speccoder-attestation(5).
 */

#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "io.h"

#define SC_INTOTO_STATEMENT_TYPE "https://in-toto.io/Statement/v1"
#define SC_PREDICATE_TEST_RESULT \
	"https://in-toto.io/attestation/test-result/v0.1"
#define SC_PREDICATE_TASK \
	"https://speccoder.dev/attestation/task-verification/v0.1"

/* The task-verification member holding the mutation tool's score. */
#define SC_PREDICATE_MUTATION "mutation-score"

/* Append the canonical JSON of J to OUT.  0, or -1 when jansson fails. */
int sc_canonical_json(const json_t *j, struct sc_buf *out);

/*
 * A new Statement (caller owns the reference).  PREDICATE must be an
 * object; its reference is not taken.  NULL on a bad argument.
 */
json_t *sc_intoto_statement(const char *name, const char *commit_hex,
			    const char *tree_hex, const char *predicate_type,
			    json_t *predicate);

/*
 * Check the rules of a known predicate type (test-result: "result" is
 * PASSED, WARNED or FAILED; task-verification: the fields of
 * speccoder-attestation(5) with their types).  Unknown types pass.
 * 0, or -1 with *WHY.
 */
int sc_intoto_check_predicate(const char *predicate_type,
			      const json_t *predicate, const char **why);

enum sc_subject_status {
	SC_SUBJECT_MATCH = 0,
	SC_SUBJECT_MISMATCH = 1,
	SC_SUBJECT_MALFORMED = -1,
};

/*
 * Parse PAYLOAD as a Statement and compare its subjects with COMMIT_HEX
 * and TREE_HEX.  On a parsed statement *PREDICATE_TYPE gets a copy of its
 * predicateType (caller frees).  *WHY explains anything but a match.
 */
int sc_intoto_check_subject(const void *payload, size_t len,
			    const char *commit_hex, const char *tree_hex,
			    char **predicate_type, const char **why);

/*
 * The mutation score of a task-verification Statement in PAYLOAD, for
 * verify to show: 0 with *KILLED and *TOTAL, or -1 when the statement is
 * another kind, malformed, or holds no well-formed score.
 */
int sc_intoto_mutation_score(const void *payload, size_t len,
			     long long *killed, long long *total);

/*
 * The task-verification predicate of an attempt's tick, built from its
 * evidence records (sc-record(5); the records and their meaning are in
 * sc-attest(1), EVIDENCE): the checks' and acceptance tests'
 * type=evidence records (the last one of each name, sorted by name), the
 * task (type=task, as sc-tasks lists it) and type=feature, the sandbox
 * probe's type=host and type=protection records, and type=held-out,
 * type=policy, type=model and sc-mutation's type=mutation-score.
 * Records of other types are skipped.
 *
 * 0 with *PREDICATE (the caller owns it; it passes
 * sc_intoto_check_predicate), or with a diagnostic printed
 * SC_EVIDENCE_MALFORMED (error[EVIDENCE], error[MALFORMED-RECORD] or
 * error[RECORD-TOO-LARGE]) or SC_EVIDENCE_READ (error[READ-FAILED]).
 * Memory stays bounded: at most SC_EVIDENCE_NAMES names and
 * SC_EVIDENCE_PROTECTIONS protection records.
 */
enum {
	SC_EVIDENCE_MALFORMED = -1,
	SC_EVIDENCE_READ = -2,
};
#define SC_EVIDENCE_NAMES 1024
#define SC_EVIDENCE_PROTECTIONS 256
int sc_intoto_task_predicate(struct sc_input *in, json_t **predicate);

#endif
