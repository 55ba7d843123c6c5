#ifndef SC_COPROC_H
#define SC_COPROC_H

/*
 * A tool kept running as a coprocess (sc-record(5)): records written to
 * its stdin, records read from its stdout, one in and its answer out.
 * The classifier, an external agent's sc-acp and each sc-mcp server are
 * driven this way by sc-agent.
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

/* Close its input and collect it; its exit status (0 for NULL). */
int sc_coproc_end(struct sc_coproc *c);

#endif
