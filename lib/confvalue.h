#ifndef SC_CONFVALUE_H
#define SC_CONFVALUE_H

/*
 * The kinds of value more than one section of speccoder.conf takes, each
 * checked one way wherever it stands: [executor] and [mcp "NAME"] both
 * have a command and the names of the variables it may get.  KEY is the
 * key as messages name it ("executor.command", "mcp.*.env").  Each
 * returns 0, or -1 with error[BAD-CONFIG] printed.
 */

#include <stddef.h>

#include "strlist.h"

/*
 * A command: VALUE split as a shell splits words, nothing expanded, into
 * *ARGV (NULL-terminated) and *ARGC.  Refused when *ARGV is set already
 * (the key is given twice), when VALUE does not split, or when it holds
 * no word.
 */
int sc_confvalue_command(const char *key, const char *value, char ***argv,
			 size_t *argc);

/* A variable name, VALUE, appended to NAMES. */
int sc_confvalue_name(const char *key, const char *value,
		      struct sc_strlist *names);

#endif
