/*
 * sc-sandbox-exec: run one command confined by the OS sandbox.  Options,
 * the profile and speccoder.conf make a policy (lib/sandbox/sandboxopts.c);
 * lib/sandbox/sandbox-*.c enforce it on Linux,
 * lib/sandbox/seatbelt.c on macOS (compiled there only, not exercised by this
 * project's CI).  Its own failures exit 125 and the command never runs
 * unconfined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "opt.h"
#include "sandbox-linux.h"
#include "sandboxopts.h"
#ifdef __APPLE__
#include "seatbelt.h"
#endif
#include "twin.h"

static const char *const synopsis[] = {
	"[OPTIONS] -- PROGRAM [ARG...]",
	"--probe [-z]",
	"[OPTIONS] --print-options",
	NULL,
};

static const struct sc_tool tool = {
	"sc-sandbox-exec", synopsis,
	"    --root DIR               the writable project root (default: .)\n"
	"    --config FILE            read the [sandbox] section of a\n"
	"                             speccoder.conf (a profile and the\n"
	"                             options win over it)\n"
	"    --profile NAME|FILE      read the policy from a profile\n"
	"    --writable PATH          also writable, inside the root\n"
	"                             (repeatable)\n"
	"    --writable-outside PATH  also writable although outside the\n"
	"                             root, said on stderr (repeatable)\n"
	"    --read-only PATH         read-only inside a writable path\n"
	"    --root-read-only         the root read-only too (nothing\n"
	"                             writable but TMPDIR and --writable)\n"
	"    --hide PATH              also hidden, like ~/.ssh (repeatable)\n"
	"    --hide-home DIR          hide the credential paths under DIR too,\n"
	"                             as under HOME (repeatable)\n"
	"    --network none|loopback|full|hosts   (default: loopback)\n"
	"    --allow-host HOST[:PORT] with --network hosts, a host the\n"
	"                             command may reach (repeatable)\n"
	"    --connections FD|FILE    write type=connection records there\n"
	"    --mode required|auto|off       (default: required)\n"
	"    --tier full|landlock     force a tier instead of the best one\n"
	"    --timeout SECONDS|none   kill everything after SECONDS\n"
	"    --max-output BYTES|none  cut stdout and stderr each at BYTES\n"
	"    --env scrub|short        drop secret-looking variables, or keep\n"
	"                             only a short list (default: scrub)\n"
	"    --env-keep NAME          keep variable NAME (repeatable)\n"
	"    --stdin                  keep standard input (a pipe, never a\n"
	"                             terminal) for a protocol such as ACP\n"
	"    --accept-gaps LIST       run under --mode required without these\n"
	"                             protections (comma-separated, as --probe\n"
	"                             names them)\n"
	"    --probe                  describe what this host can enforce\n"
	"    -z, --records            --probe: records even to a terminal\n"
	"    --print-options          run nothing: print the options that make\n"
	"                             the same policy without --config and\n"
	"                             --profile, each ended by a NUL\n"
	"    -h, --help               show this help\n"
	"    --version                show the version\n",
	125,
};

/* Our own errors exit 125, so they never pass for the command's status. */
static _Noreturn void fail(const char *why)
{
	if (why)
		sc_error("BAD-OPTION", "%s", why);
	exit(SC_SANDBOX_FAILED);
}

int main(int argc, char *argv[])
{
	extern char **environ;
	struct sc_sandbox_cmdline cl;
	struct sc_sandbox_policy pol;
	int c, ret, actions;

	sc_diag_init(tool.name);
	sc_sandbox_cmdline_init(&cl);
	while ((c = sc_getopt(argc, argv, SC_SANDBOX_SHORTOPTS,
			      sc_sandbox_longopts, &tool)) != -1)
		if (sc_sandbox_option(&cl, c, optarg) < 0)
			fail(NULL);
#ifdef SC_STATIC_EXE
	/* Linked statically: its twin reads profiles and speccoder.conf and
	 * resolves hosts. */
	if (sc_sandbox_cmdline_needs_twin(&cl)) {
		sc_twin_exec(tool.name, "/proc/self/exe", argv);
		exit(SC_SANDBOX_FAILED);
	}
#endif
	argc -= optind;
	argv += optind;
	actions = cl.actions;
	if ((actions & SC_SBOPT_DO_PROBE) && (actions & SC_SBOPT_DO_PRINT))
		fail("--probe and --print-options conflict");
	if ((actions & SC_SBOPT_DO_RECORDS) && !(actions & SC_SBOPT_DO_PROBE))
		fail("-z goes with --probe");
	if ((actions & SC_SBOPT_DO_PRINT) && argc)
		fail("--print-options takes no command");
	if ((actions & SC_SBOPT_DO_PROBE) && argc)
		fail("--probe takes no command");
	if (!actions && !argc)
		fail("no command to run");
	/* Precedence: the options, then the profile, then speccoder.conf. */
	if (sc_sandbox_cmdline_policy(&cl, "/proc/self/exe", &pol) < 0)
		fail(NULL);
	sc_sandbox_cmdline_release(&cl);
	if (actions & SC_SBOPT_DO_PRINT) {
		ret = sc_sandbox_print_options_run(&pol, STDOUT_FILENO);
		sc_sandbox_policy_release(&pol);
		return ret;
	}
	sc_sandbox_policy_defaults(&pol);
#ifdef __APPLE__
	if (actions & SC_SBOPT_DO_PROBE)
		fail("--probe describes Linux hosts only");
	ret = sc_seatbelt_run(&pol, argv, environ);
#else
	if (actions & SC_SBOPT_DO_PROBE)
		ret = sc_sandbox_probe(&pol, STDOUT_FILENO,
				       actions & SC_SBOPT_DO_RECORDS) < 0 ?
		      SC_EXIT_INTERNAL : 0;
	else
		ret = sc_sandbox_exec(&pol, argv, environ);
#endif
	sc_sandbox_policy_release(&pol);
	return ret;
}
