/*
 * Values shared by sections of speccoder.conf: see confvalue.h.
 */
#include <string.h>

#include "alloc.h"
#include "confvalue.h"
#include "diag.h"
#include "shellwords.h"

int sc_confvalue_command(const char *key, const char *value, char ***argv,
			 size_t *argc)
{
	const char *why;

	if (*argv)
		return sc_error("BAD-CONFIG", "%s is set twice", key);
	if (sc_sw_split(value, argv, argc, &why) < 0)
		return sc_error("BAD-CONFIG", "%s: %s", key, why);
	if (!*argc)
		return sc_error("BAD-CONFIG", "%s is empty", key);
	return 0;
}

int sc_confvalue_name(const char *key, const char *value,
		      struct sc_strlist *names)
{
	if (!sc_sw_is_name(value, strlen(value)))
		return sc_error("BAD-CONFIG", "%s '%s' is not a variable name",
				key, value);
	sc_strlist_add(names, value);
	return 0;
}
