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

struct sc_record;

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

/* What a loop counted: model turns and calls allowed, asked and denied. */
struct sc_agent_counts {
	unsigned turns, allowed, asked, denied;
};

struct sc_agent_opts {
	const char *root;
	const char *conversation;  /* records, appended to as the loop goes */
	const char *grants;        /* where grants for this run are added */
	int no_prompt;
	unsigned budget;           /* questions the run may ask */
	struct sc_agent_counts before; /* the run's loops before this one */
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

/*
 * Read into BEFORE the run's counts from FILE, the end record (type=done
 * or type=stop) an earlier loop of the same run wrote: its run-* fields.
 * A missing FILE is a run's first loop (all zero).  0, or -1 after a
 * diagnostic (BEFORE-UNREADABLE, BEFORE-MALFORMED).
 */
int sc_agent_read_before(const char *file, struct sc_agent_counts *before);

/*
 * The same from LEN bytes of records at DATA: 0, or -1 (and BEFORE all
 * zero) when they are malformed or hold no end record with every run-*
 * count a number.  Nothing is printed.
 */
int sc_agent_parse_before(const void *data, size_t len,
			  struct sc_agent_counts *before);

/*
 * The end record of a loop that returned STATUS: type=done or type=stop
 * (code, reason), this loop's counts (turns, allowed, asked, denied) and
 * the run's so far, this loop's included (run-turns, run-allowed,
 * run-asked, run-denied), so the driver reads them instead of adding up.
 */
void sc_agent_end_record(const struct sc_agent_opts *o,
			 const struct sc_agent_stats *s, int status,
			 struct sc_record *r);

/* Add time=, the UTC time as the journal writes it, to R. */
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
