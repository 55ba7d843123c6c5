#ifndef SC_OPT_H
#define SC_OPT_H

/*
 * Option parsing shared by every tool: getopt_long plus the conventions
 * -h/--help (usage and options on stdout, exit 0), --version (exit 0), and
 * a usage error (usage on stderr, exit 2).  Like git's parse-options, these
 * three end the process here, so every tool behaves the same.
 *
 * A tool's usage text repeats its man page's SYNOPSIS line for line; a test
 * compares them.
 */

#include <getopt.h>

/* getopt_long value for --version; -h is 'h'. */
#define SC_OPT_VERSION 0x1000
#define SC_OPT_STANDARD \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, SC_OPT_VERSION }

struct sc_tool {
	const char *name;      /* "sc-rec" */
	const char *const *synopsis; /* NULL-terminated, without the name */
	const char *options;   /* the option list printed by --help */
	int usage_exit;        /* status of a usage error; 0 means 2 */
};

/*
 * The next option, as getopt_long returns it; -1 when options end.  Handles
 * -h, --version and unknown or malformed options itself.
 */
int sc_getopt(int argc, char *const argv[], const char *shortopts,
	      const struct option *longopts, const struct sc_tool *tool);

/* Print "usage: ..." to stderr, plus a reason when WHY is set, and exit 2. */
_Noreturn void sc_usage_error(const struct sc_tool *tool, const char *why);

/*
 * Parse a strict unsigned decimal (no sign, no space, no leading zero but
 * "0", no overflow past MAX) into *OUT.  -1 when TEXT is not one.
 */
int sc_parse_uint(const char *text, unsigned long long max,
		  unsigned long long *out);

/*
 * TEXT, an option's number, as sc_parse_uint reads it and from LO to HI;
 * anything else is a usage error ("NAME must be a number from LO to HI").
 */
unsigned long long sc_opt_number(const struct sc_tool *tool, const char *text,
				 unsigned long long lo, unsigned long long hi,
				 const char *name);

#endif
