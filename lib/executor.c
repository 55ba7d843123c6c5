/*
 * The executor section of speccoder.conf.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "executor.h"
#include "shellwords.h"

void sc_executor_init(struct sc_executor *e)
{
	memset(e, 0, sizeof(*e));
}

void sc_executor_release(struct sc_executor *e)
{
	size_t i;

	sc_sw_split_free(e->argv);
	for (i = 0; i < e->nr_env; i++)
		free(e->env[i]);
	free(e->env);
	sc_executor_init(e);
}

static int set_command(struct sc_executor *e, const char *value)
{
	const char *why;

	if (e->argv)
		return sc_error("BAD-CONFIG", "executor.command is set twice");
	if (sc_sw_split(value, &e->argv, &e->argc, &why) < 0)
		return sc_error("BAD-CONFIG", "executor.command: %s", why);
	if (!e->argc)
		return sc_error("BAD-CONFIG", "executor.command is empty");
	return 0;
}

static int add_env(struct sc_executor *e, const char *value)
{
	if (!sc_sw_is_name(value, strlen(value)))
		return sc_error("BAD-CONFIG", "executor.env '%s' is not a "
				"variable name", value);
	SC_ALLOC_GROW(e->env, e->nr_env + 2, e->alloc_env);
	e->env[e->nr_env++] = sc_xstrdup(value);
	e->env[e->nr_env] = NULL;
	return 0;
}

int sc_executor_entry(struct sc_executor *e, const char *key,
		      const char *value)
{
	if (!value)
		value = "";
	if (!strcmp(key, "command"))
		return set_command(e, value);
	if (!strcmp(key, "env"))
		return add_env(e, value);
	return sc_error("BAD-CONFIG", "unknown key 'executor.%s'", key);
}

int sc_executor_finish(const struct sc_executor *e)
{
	if (e->nr_env && !e->argv)
		return sc_error("BAD-CONFIG", "executor.env without "
				"executor.command");
	return 0;
}
