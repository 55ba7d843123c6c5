#ifndef SC_AGENT_H
#define SC_AGENT_H

/*
 * The loop of one task: the conversation goes to the model; every call it
 * makes goes to the policy (a classifier coprocess), a person when the
 * policy asks, then runs (file tools here, commands in the sandbox); every
 * result is masked before it enters the conversation; after every command
 * the guard re-hashes .git and the protected inputs.
 *
 * The other tools are named by argv prefixes (struct sc_agent_programs), so
 * the driver decides how each is configured and this loop decides only
 * what happens to each call.
 */

#include <stddef.h>

#include "approve.h"
#include "buf.h"

struct sc_agent_programs {
	char **model;      /* conversation on stdin, reply records on stdout */
	char **classify;   /* coprocess: call in, verdict out */
	char **sandbox;    /* prefix; "--" and the command follow */
	char **mask;       /* filter: masks stdin to stdout */
	char **guard;      /* exit 0 clean, 1 findings (records), else failed */
	char **snapshot;   /* takes the guard's manifest again; exit 0 */
	char **executor;   /* sc-acp and an external agent, instead of model */
	char ***mcp;       /* sc-mcp coprocesses, one a server */
	size_t nr_mcp;
};

struct sc_agent_opts {
	const char *root;
	const char *conversation;  /* records, appended to as the loop goes */
	const char *grants;        /* where grants for this run are added */
	int no_prompt;
	unsigned budget;           /* questions this task may ask */
	unsigned max_turns;
	size_t read_max;           /* bytes of a file the model reads */
	size_t output_max;         /* bytes of a command's masked output */
	int events_fd;             /* event records */
	int force_records;         /* -z: records even to a terminal */
	int progress_fd;           /* lines for a person, or -1 */
	int status_fd;             /* the model's progress line, or -1 */
	struct sc_asker *asker;
	const char *prompt;        /* an executor's task: this run's messages */
	size_t prompt_len;
};

struct sc_agent_stats {
	unsigned turns, allowed, asked, denied;
	char code[32];             /* why the loop stopped; "" when it ended */
	struct sc_buf reason;
};

/* Add time=, the UTC time as the journal writes it, to R. */
struct sc_record;
void sc_agent_stamp(struct sc_record *r);

/* Add the records that open a new conversation: the tools the loop runs. */
void sc_agent_tool_records(struct sc_buf *out);

/*
 * Run the loop until the model ends its turn (0), the attempt is stopped
 * (1, STATS->code says why), or the loop itself fails (an exit code >= 3,
 * after a diagnostic).
 */
int sc_agent_run(const struct sc_agent_opts *o,
		 const struct sc_agent_programs *prog,
		 struct sc_agent_stats *stats);

#endif
