/*
 * sc-sandbox-exec: run one command confined by the OS sandbox.  Options and
 * the profile make a policy; lib/sandbox-*.c enforce it on Linux,
 * lib/sandbox/seatbelt.c on macOS (compiled there only, not exercised by this
 * project's CI).  Its own failures exit 125 and the command never runs
 * unconfined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "config.h"
#include "diag.h"
#include "hostlist.h"
#include "opt.h"
#include "profile.h"
#include "sandbox-linux.h"
#ifdef __APPLE__
#include "seatbelt.h"
#endif
#include "twin.h"

static const char *const synopsis[] = {
	"[OPTIONS] -- PROGRAM [ARG...]",
	"--probe [-z]",
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
	"    --hide PATH              also hidden, like ~/.ssh (repeatable)\n"
	"    --hide-home DIR          hide the credential paths under DIR too,\n"
	"                             as under HOME (repeatable)\n"
	"    --network none|loopback|full|hosts   (default: loopback)\n"
	"    --allow-host HOST[:PORT] with --network hosts, a host the\n"
	"                             command may reach (repeatable)\n"
	"    --connections FD|FILE    write type=connection records there\n"
	"    --mode required|auto|off       (default: required)\n"
	"    --tier full|landlock     force a tier instead of the best one\n"
	"    --timeout SECONDS        kill everything after SECONDS\n"
	"    --max-output BYTES       cut stdout and stderr each at BYTES\n"
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
	"    -h, --help               show this help\n"
	"    --version                show the version\n",
	125,
};

enum { O_ROOT = 0x100, O_PROFILE, O_WRITABLE, O_READ_ONLY, O_HIDE,
       O_NETWORK, O_MODE, O_TIER, O_TIMEOUT, O_MAX_OUTPUT, O_ENV,
       O_ENV_KEEP, O_PROBE, O_STDIN, O_HIDE_HOME, O_ALLOW_HOST,
       O_CONNECTIONS, O_ACCEPT_GAPS, O_WRITABLE_OUTSIDE, O_CONFIG };

/* --probe, and -z with it: bits of main's probe. */
enum { PROBE = 1, PROBE_RECORDS = 2 };

/* Our own errors exit 125, so they never pass for the command's status. */
static _Noreturn void fail(const char *code, const char *why, const char *arg)
{
	sc_error(code, "%s%s%s", why, arg ? ": " : "", arg ? arg : "");
	exit(SC_SANDBOX_FAILED);
}

/* SECONDS, with up to three decimals: "600", "0.5". */
static long long parse_timeout(const char *s)
{
	unsigned long long whole, frac = 0;
	const char *dot = strchr(s, '.');
	char buf[32];
	size_t n = dot ? (size_t)(dot - s) : strlen(s);

	if (n == 0 || n >= sizeof(buf))
		fail("BAD-OPTION", "--timeout wants seconds", s);
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (sc_parse_uint(buf, 100000000ULL, &whole))
		fail("BAD-OPTION", "--timeout wants seconds", s);
	if (dot) {
		size_t k = strlen(dot + 1), i;

		if (!k || k > 3 || strspn(dot + 1, "0123456789") != k)
			fail("BAD-OPTION", "--timeout wants seconds", s);
		for (i = 0; i < 3; i++)
			frac = frac * 10 + (i < k ? (unsigned)(dot[1 + i] - '0') : 0);
	}
	if (!whole && !frac)
		fail("BAD-OPTION", "--timeout must be above 0", s);
	return (long long)(whole * 1000 + frac);
}

/* "unix-sockets,kill-all": each a protection a tier may lack. */
static void accept_gaps(struct sc_sandbox_policy *p, const char *arg)
{
	char *list = sc_xstrdup(arg), *save = NULL, *name;

	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		if (!sc_sandbox_gap_acceptable(name)) {
			sc_error("BAD-OPTION", "--accept-gaps: '%s' is not a "
				 "protection that may be accepted", name);
			free(list);
			exit(SC_SANDBOX_FAILED);
		}
		sc_strlist_add(&p->accept_gaps, name);
	}
	free(list);
	if (!p->accept_gaps.nr)
		fail("BAD-OPTION", "--accept-gaps wants protection names", arg);
}

/* --profile and --config: files read once every option is known. */
struct files {
	const char *profile, *config;
};

/*
 * The project's [sandbox] under P (the profile and the options, merged):
 * P becomes the whole policy.  Read by the one reader of speccoder.conf, so
 * a file any other tool refuses is refused here too.
 */
static void apply_config(struct sc_sandbox_policy *p, const char *file)
{
	struct sc_config cfg;
	struct sc_sandbox_policy all;

	sc_config_init(&cfg);
	if (sc_config_load(&cfg, file) != SC_CONFIG_OK)
		exit(SC_SANDBOX_FAILED);
	sc_config_sandbox_policy(&cfg, p, &all);
	sc_config_release(&cfg);
	sc_sandbox_policy_release(p);
	*p = all;
}

static void parse_option(int c, const char *arg, struct sc_sandbox_policy *p,
			 struct files *files, int *probe)
{
	unsigned long long n;
	int v;

	switch (c) {
	case O_ROOT:
		if (p->root)
			fail("BAD-OPTION", "--root given twice", NULL);
		p->root = sc_xstrdup(arg);
		break;
	case O_PROFILE:
		if (files->profile)
			fail("BAD-OPTION", "--profile given twice", NULL);
		files->profile = arg;
		break;
	case O_CONFIG:
		if (files->config)
			fail("BAD-OPTION", "--config given twice", NULL);
		files->config = arg;
		break;
	case O_WRITABLE: sc_strlist_add(&p->writable, arg); break;
	case O_WRITABLE_OUTSIDE:
		sc_strlist_add(&p->writable_outside, arg);
		break;
	case O_READ_ONLY: sc_strlist_add(&p->read_only, arg); break;
	case O_HIDE: sc_strlist_add(&p->hide, arg); break;
	case O_HIDE_HOME:
		if (*arg != '/')
			fail("BAD-OPTION", "--hide-home wants an absolute path", arg);
		sc_strlist_add(&p->hide_homes, arg);
		break;
	case O_ENV_KEEP: sc_strlist_add(&p->env_keep, arg); break;
	case O_NETWORK:
		if ((v = sc_net_parse(arg)) < 0)
			fail("BAD-OPTION", "--network wants none, loopback, full "
			     "or hosts", arg);
		p->net = v;
		break;
	case O_MODE:
		if ((v = sc_mode_parse(arg)) < 0)
			fail("BAD-OPTION", "--mode wants required, auto or off", arg);
		p->mode = v;
		break;
	case O_TIER:
		if (!strcmp(arg, "full"))
			p->tier = SC_TIER_FULL;
		else if (!strcmp(arg, "landlock"))
			p->tier = SC_TIER_LANDLOCK;
		else
			fail("BAD-OPTION", "--tier wants full or landlock", arg);
		break;
	case O_ENV:
		if ((v = sc_env_mode_parse(arg)) < 0)
			fail("BAD-OPTION", "--env wants scrub or short", arg);
		p->env = v;
		break;
	case O_TIMEOUT: p->timeout_ms = parse_timeout(arg); break;
	case O_MAX_OUTPUT:
		if (sc_parse_uint(arg, 1ULL << 50, &n) || !n)
			fail("BAD-OPTION", "--max-output wants a number of bytes", arg);
		p->max_output = (long long)n;
		break;
	case O_ALLOW_HOST: {
		const char *why;

		if (sc_host_entry_check(arg, &why) < 0)
			fail("BAD-HOST", why, arg);
		sc_strlist_add(&p->allow_hosts, arg);
		break;
	}
	case O_CONNECTIONS:
		if (p->connections)
			fail("BAD-OPTION", "--connections given twice", NULL);
		p->connections = sc_xstrdup(arg);
		break;
	case O_PROBE: *probe |= PROBE; break;
	case 'z': *probe |= PROBE_RECORDS; break;
	case O_ACCEPT_GAPS: accept_gaps(p, arg); break;
	case O_STDIN:
		/* A terminal would let the command push input into the
		 * person's shell (TIOCSTI) or read what they type. */
		if (isatty(STDIN_FILENO))
			fail("BAD-OPTION", "--stdin refuses a terminal", NULL);
		p->keep_stdin = 1;
		break;
	}
}

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "root", required_argument, NULL, O_ROOT },
		{ "config", required_argument, NULL, O_CONFIG },
		{ "profile", required_argument, NULL, O_PROFILE },
		{ "writable", required_argument, NULL, O_WRITABLE },
		{ "writable-outside", required_argument, NULL,
		  O_WRITABLE_OUTSIDE },
		{ "read-only", required_argument, NULL, O_READ_ONLY },
		{ "hide", required_argument, NULL, O_HIDE },
		{ "hide-home", required_argument, NULL, O_HIDE_HOME },
		{ "network", required_argument, NULL, O_NETWORK },
		{ "mode", required_argument, NULL, O_MODE },
		{ "tier", required_argument, NULL, O_TIER },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "max-output", required_argument, NULL, O_MAX_OUTPUT },
		{ "env", required_argument, NULL, O_ENV },
		{ "env-keep", required_argument, NULL, O_ENV_KEEP },
		{ "probe", no_argument, NULL, O_PROBE },
		{ "records", no_argument, NULL, 'z' },
		{ "stdin", no_argument, NULL, O_STDIN },
		{ "allow-host", required_argument, NULL, O_ALLOW_HOST },
		{ "connections", required_argument, NULL, O_CONNECTIONS },
		{ "accept-gaps", required_argument, NULL, O_ACCEPT_GAPS },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	extern char **environ;
	struct sc_sandbox_policy cli, pol;
	struct files files = { NULL, NULL };
	int c, probe = 0, ret;

	sc_diag_init(tool.name);
	sc_sandbox_policy_init(&cli);
	sc_sandbox_policy_init(&pol);
	while ((c = sc_getopt(argc, argv, "+hz", longopts, &tool)) != -1)
		parse_option(c, optarg, &cli, &files, &probe);
#ifdef SC_STATIC_EXE
	/* Linked statically: its twin reads profiles and speccoder.conf and
	 * resolves hosts. */
	if (files.profile || files.config || cli.net == SC_NET_HOSTS ||
	    cli.allow_hosts.nr || cli.connections) {
		sc_twin_exec(tool.name, "/proc/self/exe", argv);
		exit(SC_SANDBOX_FAILED);
	}
#endif
	argc -= optind;
	argv += optind;
	if (probe == PROBE_RECORDS)
		fail("BAD-OPTION", "-z goes with --probe", NULL);
	if (probe && argc)
		fail("BAD-OPTION", "--probe takes no command", NULL);
	if (!probe && !argc)
		fail("BAD-OPTION", "no command to run", NULL);
	/* Precedence: the options, then the profile, then speccoder.conf. */
	if (files.profile &&
	    sc_profile_load(&pol, files.profile, "/proc/self/exe") < 0)
		exit(SC_SANDBOX_FAILED);
	sc_sandbox_policy_merge(&pol, &cli);
	if (files.config)
		apply_config(&pol, files.config);
	/* the mode may come from the project's file (--config) */
	if (pol.mode == SC_SANDBOX_MODE_OFF && pol.tier != SC_TIER_BEST)
		fail("BAD-OPTION", "--mode off and --tier conflict", NULL);
	/* A host list asks for --network hosts; with another mode it would
	 * be ignored, so it is refused. */
	if (pol.allow_hosts.nr && pol.net < 0)
		pol.net = SC_NET_HOSTS;
	if ((pol.allow_hosts.nr || pol.connections) && pol.net != SC_NET_HOSTS)
		fail("BAD-OPTION", "--allow-host and --connections need "
		     "--network hosts", NULL);
	sc_sandbox_policy_defaults(&pol);
	sc_sandbox_policy_release(&cli);
#ifdef __APPLE__
	if (probe)
		fail("BAD-OPTION", "--probe describes Linux hosts only", NULL);
	ret = sc_seatbelt_run(&pol, argv, environ);
#else
	if (probe)
		ret = sc_sandbox_probe(&pol, STDOUT_FILENO,
				       probe & PROBE_RECORDS) < 0 ?
		      SC_EXIT_INTERNAL : 0;
	else
		ret = sc_sandbox_exec(&pol, argv, environ);
#endif
	sc_sandbox_policy_release(&pol);
	return ret;
}
