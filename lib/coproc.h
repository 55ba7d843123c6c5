#ifndef SC_COPROC_H
#define SC_COPROC_H

/*
 * A tool kept running as a coprocess (sc-record(5)): records written to
 * its stdin, records read from its stdout, one in and its answer out.
 * The classifier, the masker, an external agent's sc-acp and each sc-mcp
 * server are driven this way by sc-agent.
 */

#include <sys/types.h>

#include "io.h"
#include "record.h"

struct sc_coproc {
	pid_t pid;
	int to;                 /* its stdin */
	struct sc_output out;
	struct sc_input in;     /* its stdout */
	struct sc_reader rd;
};

/* Start ARGV with pipes on its stdin and stdout; NULL with errno set. */
struct sc_coproc *sc_coproc_start(char **argv);

/* Write R to C's input and flush it: 0, or -1 when C is gone. */
int sc_coproc_send(struct sc_coproc *c, const struct sc_record *r);

/*
 * Send REQ, then read C's records into ANS until the answer: a record
 * whose type is one of TYPES (NULL-terminated) and, when ID is set, whose
 * id field is ID.  Records of other types before it are skipped; answers
 * come in order, so one of these types with another id is a broken
 * framing.  The index in TYPES of the answer's type, or -1 when C is gone,
 * ended, answered out of turn or wrote a malformed record (C is then
 * unusable: end it).
 */
int sc_coproc_ask(struct sc_coproc *c, const struct sc_record *req,
		  const char *const *types, const char *id,
		  struct sc_record *ans);

/* Close its input and collect it; its exit status (0 for NULL). */
int sc_coproc_end(struct sc_coproc *c);

#endif
