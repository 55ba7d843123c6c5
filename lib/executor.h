#ifndef SC_EXECUTOR_H
#define SC_EXECUTOR_H

/*
 * The external agent of speccoder.conf (sc-acp(1)): executor.command, one
 * argv string split as a shell splits words with nothing expanded, and
 * executor.env, the names of the variables the agent may get (its key),
 * repeated.  Read through sc-config --executor, so no driver splits it.
 */

#include <stddef.h>

#include "strlist.h"

struct sc_executor {
	char **argv;       /* NULL-terminated; NULL when not configured */
	size_t argc;
	struct sc_strlist env;  /* variable names */
};

void sc_executor_init(struct sc_executor *e);
void sc_executor_release(struct sc_executor *e);

/*
 * One entry of [executor] (KEY without "executor."), handed here by
 * sc_config_load (config.h), the one reader of speccoder.conf; then the
 * check of the whole section.  0, or -1 with error[BAD-CONFIG] printed:
 * two commands, a command that does not split or is empty, a name that is
 * not a variable name, an unknown key, executor.env without
 * executor.command.
 */
int sc_executor_entry(struct sc_executor *e, const char *key,
		      const char *value);
int sc_executor_finish(const struct sc_executor *e);

#endif
