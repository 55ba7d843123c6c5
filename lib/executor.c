/*
 * The executor section of speccoder.conf.
 */
#include <stdlib.h>
#include <string.h>

#include "confvalue.h"
#include "diag.h"
#include "executor.h"
#include "shellwords.h"

void sc_executor_init(struct sc_executor *e)
{
	memset(e, 0, sizeof(*e));
}

void sc_executor_release(struct sc_executor *e)
{
	sc_sw_split_free(e->argv);
	sc_strlist_release(&e->env);
	sc_executor_init(e);
}

int sc_executor_entry(struct sc_executor *e, const char *key,
		      const char *value)
{
	if (!value)
		value = "";
	if (!strcmp(key, "command"))
		return sc_confvalue_command("executor.command", value,
					    &e->argv, &e->argc);
	if (!strcmp(key, "env"))
		return sc_confvalue_name("executor.env", value, &e->env);
	return sc_error("BAD-CONFIG", "unknown key 'executor.%s'", key);
}

int sc_executor_finish(const struct sc_executor *e)
{
	if (e->env.nr && !e->argv)
		return sc_error("BAD-CONFIG", "executor.env without "
				"executor.command");
	return 0;
}
