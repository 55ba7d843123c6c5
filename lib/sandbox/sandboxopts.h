#ifndef SC_SANDBOXOPTS_H
#define SC_SANDBOXOPTS_H

/*
 * sc-sandbox-exec's command line, both ways: its options made into a
 * policy (the options, over a profile, over speccoder.conf's [sandbox]),
 * and a policy written back as options (--print-options).
 *
 * One table of option names serves getopt, the reader and the writer, so
 * an option the writer prints is one the reader knows.  The round trip is
 * the contract the drivers rely on: reading the options
 * sc_sandbox_policy_to_argv writes for a policy P builds P again, field by
 * field, with no --profile and no --config among them, so the statically
 * linked sc-sandbox-exec runs them without its twin (twin.h).  P is taken
 * before sc_sandbox_policy_defaults: what is unset stays unset, decided at
 * each run.  t/unit/test-sandboxopts.c and t/fuzz/fuzz-sandboxopts.c hold
 * it to this.
 *
 * Everything here returns -1 after one error[CODE] diagnostic; only the
 * main decides the exit status (125 for sc-sandbox-exec, sandbox.h).
 */

#include <getopt.h>

#include "profile.h"
#include "strlist.h"

/* getopt_long values of the long options; -z and -h are their letters. */
enum sc_sbopt {
	SC_SBOPT_ROOT = 0x100, SC_SBOPT_PROFILE, SC_SBOPT_CONFIG,
	SC_SBOPT_WRITABLE, SC_SBOPT_WRITABLE_OUTSIDE, SC_SBOPT_READ_ONLY,
	SC_SBOPT_HIDE, SC_SBOPT_HIDE_HOME, SC_SBOPT_NETWORK,
	SC_SBOPT_ALLOW_HOST, SC_SBOPT_CONNECTIONS, SC_SBOPT_MODE,
	SC_SBOPT_TIER, SC_SBOPT_TIMEOUT, SC_SBOPT_MAX_OUTPUT, SC_SBOPT_ENV,
	SC_SBOPT_ENV_KEEP, SC_SBOPT_STDIN, SC_SBOPT_ACCEPT_GAPS,
	SC_SBOPT_ROOT_READ_ONLY, SC_SBOPT_PROBE, SC_SBOPT_PRINT_OPTIONS,
};

/* getopt_long's option string: options end at the first non-option. */
#define SC_SANDBOX_SHORTOPTS "+hz"

/*
 * Every option of sc-sandbox-exec, --help and --version included
 * (SC_OPT_STANDARD, opt.h); ends with a zeroed entry.
 */
extern const struct option sc_sandbox_longopts[];

/* What a command line asks for besides running a command. */
enum {
	SC_SBOPT_DO_PROBE = 1,          /* --probe */
	SC_SBOPT_DO_RECORDS = 2,        /* -z */
	SC_SBOPT_DO_PRINT = 4,          /* --print-options */
};

struct sc_sandbox_cmdline {
	struct sc_sandbox_policy cli;   /* the options' own policy */
	/* --profile and --config: read once every option is known, by
	 * sc_sandbox_cmdline_policy.  They point into argv. */
	const char *profile, *config;
	int actions;                    /* SC_SBOPT_DO_* */
};

void sc_sandbox_cmdline_init(struct sc_sandbox_cmdline *cl);
void sc_sandbox_cmdline_release(struct sc_sandbox_cmdline *cl);

/*
 * Option C (as getopt_long returns it) with its argument ARG into CL.  0,
 * or -1 with error[BAD-OPTION] (error[BAD-HOST] for --allow-host).  C
 * outside the table is -1 too.
 */
int sc_sandbox_option(struct sc_sandbox_cmdline *cl, int c, const char *arg);

/*
 * Every option of ARGV[0..ARGC) (ARGV[0] is a program name, as for
 * getopt) into CL, up to the first non-option or "--"; *END is the index
 * of what follows.  For callers that are not a tool's main (tests, fuzz
 * targets): --help, --version and an unknown or malformed option are
 * error[BAD-OPTION], never an exit.  Uses getopt_long, whose state is
 * libc's: not reentrant.
 */
int sc_sandbox_cmdline_parse(struct sc_sandbox_cmdline *cl, int argc,
			     char *const argv[], int *end);

/*
 * 1 when CL needs what a static executable must not use (twin.h): a
 * profile or speccoder.conf to read (libgit2), or a host list to resolve
 * (NSS).  --print-options resolves nothing: only the files count then.
 */
int sc_sandbox_cmdline_needs_twin(const struct sc_sandbox_cmdline *cl);

/*
 * The policy CL makes into OUT (initialised here): speccoder.conf's
 * [sandbox] (--config) under the profile (--profile, found from EXE, see
 * sc_profile_load) under the options, then the checks that need all three
 * (--mode off with --tier; --allow-host and --connections need --network
 * hosts, which a host list implies).  Defaults are not applied.  0, or -1
 * with the file's or the option's error printed and OUT released.
 */
int sc_sandbox_cmdline_policy(const struct sc_sandbox_cmdline *cl,
			      const char *exe, struct sc_sandbox_policy *out);

/*
 * POL as options appended to ARGV, each option and each value one
 * element (never "--opt=value"), in the table's order, each list's entries
 * in their order; nothing for what is unset.  Never --profile, --config,
 * --probe or --print-options.  POL's values must be ones the options
 * accept, as every policy sc_sandbox_cmdline_policy builds is.
 */
void sc_sandbox_policy_to_argv(const struct sc_sandbox_policy *pol,
			       struct sc_strlist *argv);

/*
 * sc-sandbox-exec --print-options: POL as options on FD, each ended by a
 * NUL; the exit status (5 when FD cannot be written).
 */
int sc_sandbox_print_options_run(const struct sc_sandbox_policy *pol, int fd);

#endif
