#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "opt.h"

static void print_usage(FILE *fp, const struct sc_tool *tool)
{
	const char *const *line;

	for (line = tool->synopsis; *line; line++)
		fprintf(fp, "%s %s %s\n", line == tool->synopsis ? "usage:" : "   or:",
			tool->name, *line);
}

_Noreturn void sc_usage_error(const struct sc_tool *tool, const char *why)
{
	if (why) {
		char clean[512];

		sc_sanitize(clean, sizeof(clean), why, strlen(why));
		fprintf(stderr, "%s: error[USAGE]: %s\n", tool->name, clean);
	}
	print_usage(stderr, tool);
	fprintf(stderr, "Try '%s --help' for more information.\n", tool->name);
	exit(tool->usage_exit ? tool->usage_exit : SC_EXIT_USAGE);
}

static _Noreturn void print_help(const struct sc_tool *tool)
{
	print_usage(stdout, tool);
	if (tool->options && *tool->options)
		printf("\n%s", tool->options);
	if (fflush(stdout) == EOF || ferror(stdout))
		exit(SC_EXIT_INTERNAL);
	exit(SC_EXIT_OK);
}

int sc_getopt(int argc, char *const argv[], const char *shortopts,
	      const struct option *longopts, const struct sc_tool *tool)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, shortopts, longopts, NULL);
	switch (c) {
	case 'h':
		print_help(tool);
	case SC_OPT_VERSION:
		printf("%s (speccoder) %s\n", tool->name, SC_VERSION);
		exit(fflush(stdout) == EOF ? SC_EXIT_INTERNAL : SC_EXIT_OK);
	case '?':
	case ':': {
		char why[256];

		if (optopt && optopt < 256)
			snprintf(why, sizeof(why), "%s option '-%c'",
				 c == ':' ? "missing argument to" : "unknown",
				 optopt);
		else {
			/* Only the option's name: never a value given to it. */
			const char *arg = argv[optind - 1];
			int n = (int)strcspn(arg, "=");

			snprintf(why, sizeof(why), "%s option '%.*s'",
				 c == ':' ? "missing argument to" :
					    "unknown or malformed",
				 n > 100 ? 100 : n, arg);
		}
		sc_usage_error(tool, why);
	}
	default:
		return c;
	}
}

int sc_parse_uint(const char *text, unsigned long long max,
		  unsigned long long *out)
{
	unsigned long long n = 0;
	const char *p = text;

	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1]))
		return -1;
	for (; *p; p++) {
		unsigned d;

		if (*p < '0' || *p > '9')
			return -1;
		d = (unsigned)(*p - '0');
		if (d > max || n > (max - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	*out = n;
	return 0;
}

unsigned long long sc_opt_number(const struct sc_tool *tool, const char *text,
				 unsigned long long lo, unsigned long long hi,
				 const char *name)
{
	unsigned long long n;
	char why[128];

	if (sc_parse_uint(text, hi, &n) < 0 || n < lo) {
		snprintf(why, sizeof(why), "%s must be a number from %llu to %llu",
			 name, lo, hi);
		sc_usage_error(tool, why);
	}
	return n;
}
