#ifndef SC_AGENT_TASK_H
#define SC_AGENT_TASK_H
/*
 * sc-agent(1) as a whole, below its option parsing: the programs file
 * read (agent-programs.h), the conversation opened with this run's
 * messages, the loop run (agent.h), and the end record written.
 */
#include <stddef.h>

#include "agent.h"

/* A message file added to the conversation (--trusted, --untrusted). */
struct sc_agent_message {
	const char *label, *source, *file;
};

struct sc_agent_task {
	struct sc_agent_opts o;    /* prompt, asker and the fds are set here */
	const char *programs;      /* the programs file */
	const char *system;        /* the system prompt of a new conversation */
	const char *answers;       /* scripted answers, or NULL: the terminal */
	const char *before;        /* --before: the run's loop before, or NULL */
	const struct sc_agent_message *msgs;
	size_t nr_msgs;
	int progress, status_line;
};

/*
 * Run the task.  Returns the exit status sc-agent(1) documents: 0 when
 * the model ended its turn, 1 when the attempt stopped (a type=stop record
 * and error[CODE] say why), 3 when the programs file is malformed, 4 when
 * a program, the conversation or a message cannot be used, 5 on a system
 * error.  The functions below it return -1 after a diagnostic; only this
 * one decides the status.
 */
int sc_agent_task_run(struct sc_agent_task *t);

#endif
