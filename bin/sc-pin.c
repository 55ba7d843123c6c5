/*
 * sc-pin: digest a package (a directory tree), pin the digest of its
 * exact ID@VERSION in a lock, and verify packages against their pins,
 * scanning each for credentials before anything else reads it.
 */
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "opt.h"
#include "pin.h"
#include "pintool.h"

static const char *const synopsis[] = {
	"digest PATH",
	"pin --lock FILE [--config FILE] ID@VERSION PATH",
	"pin --lock FILE --root DIR [--config FILE] [ID@VERSION] PATH",
	"verify --lock FILE [--config FILE] [--records] [ID@VERSION=PATH...]",
	"skills --root DIR [--config FILE]",
	NULL,
};

static const struct sc_tool tool = {
	"sc-pin", synopsis,
	"    digest PATH             print the package's digest\n"
	"    pin                     scan, digest and pin ID@VERSION in the lock\n"
	"    verify                  check each package against its exact pin\n"
	"    skills                  list the skills a run would load, as records\n"
	"    --lock FILE             the lock (speccoder-lock(5))\n"
	"    --records               verify: also read type=package records "
	"from stdin\n"
	"    --root DIR              skills, pin: the repository's top\n"
	"    --config FILE           skills, pin, verify: its speccoder.conf\n"
	"                            (pin, verify: its mask.allowFingerprint)\n"
	"    -z                      records even when stdout is a terminal\n"
	"    -h, --help              show this help\n"
	"    --version               show the version\n",
	0,
};

enum { OPT_LOCK = 0x100, OPT_RECORDS, OPT_ROOT, OPT_CONFIG };

struct args {
	const char *cmd;
	struct sc_pin_opts o;
};

/* 1 when SPEC is ID@VERSION, or with EQ, ID@VERSION=PATH. */
static int pin_spec(const char *spec, int eq)
{
	struct sc_buf s = SC_BUF_INIT, id = SC_BUF_INIT, ver = SC_BUF_INIT;
	const char *end = eq ? strchr(spec, '=') : spec + strlen(spec);
	int ok = end && (!eq || end[1]);

	if (ok) {
		sc_buf_add(&s, spec, (size_t)(end - spec));
		ok = sc_pin_split(s.data, &id, &ver) == 0;
	}
	sc_buf_release(&s);
	sc_buf_release(&id);
	sc_buf_release(&ver);
	return ok;
}

/* The operands of pin and verify, each checked before any is used. */
static void check_specs(const struct args *a)
{
	size_t i;

	if (!strcmp(a->cmd, "pin") && a->o.nrest == 2 &&
	    !pin_spec(a->o.rest[0], 0))
		sc_usage_error(&tool, "not ID@VERSION (see speccoder-lock(5))");
	for (i = 0; !strcmp(a->cmd, "verify") && i < a->o.nrest; i++)
		if (!pin_spec(a->o.rest[i], 1))
			sc_usage_error(&tool, "a package is ID@VERSION=PATH");
}

static void parse(int argc, char *argv[], struct args *a)
{
	static const struct option longopts[] = {
		{ "lock", required_argument, NULL, OPT_LOCK },
		{ "records", no_argument, NULL, OPT_RECORDS },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "config", required_argument, NULL, OPT_CONFIG },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = sc_getopt(argc, argv, "hz", longopts, &tool)) != -1) {
		if (c == 'z')
			a->o.force_records = 1;
		else if (c == OPT_LOCK)
			a->o.lock = optarg;
		else if (c == OPT_ROOT)
			a->o.root = optarg;
		else if (c == OPT_CONFIG)
			a->o.config = optarg;
		else
			a->o.records = 1;
	}
	if (a->o.root && (optind >= argc ||
			  (strcmp(argv[optind], "skills") &&
			   strcmp(argv[optind], "pin"))))
		sc_usage_error(&tool, "--root goes with skills and pin");
	if (a->o.config && (optind >= argc || !strcmp(argv[optind], "digest")))
		sc_usage_error(&tool, "--config goes with skills, pin and "
			       "verify");
	if (optind >= argc)
		sc_usage_error(&tool, "no command");
	a->cmd = argv[optind];
	a->o.rest = argv + optind + 1;
	a->o.nrest = (size_t)(argc - optind - 1);
	if (!strcmp(a->cmd, "digest")) {
		if (a->o.lock || a->o.records || a->o.nrest != 1)
			sc_usage_error(&tool, "digest takes one PATH");
	} else if (!strcmp(a->cmd, "pin")) {
		if (!a->o.lock || a->o.records || a->o.nrest > 2 ||
		    a->o.nrest < (a->o.root ? 1 : 2))
			sc_usage_error(&tool, "pin takes --lock FILE, "
				       "ID@VERSION and PATH (with --root, "
				       "PATH alone will do)");
	} else if (!strcmp(a->cmd, "verify")) {
		if (!a->o.lock || (!a->o.nrest && !a->o.records))
			sc_usage_error(&tool, "verify takes --lock FILE and "
				       "packages");
	} else if (!strcmp(a->cmd, "skills")) {
		if (!a->o.root || a->o.lock || a->o.records || a->o.nrest)
			sc_usage_error(&tool, "skills takes --root DIR and "
				       "--config FILE");
	} else {
		sc_usage_error(&tool, "unknown command");
	}
	check_specs(a);
}

int main(int argc, char *argv[])
{
	struct args a;

	sc_diag_init(tool.name);
	memset(&a, 0, sizeof(a));
	parse(argc, argv, &a);
	if (!strcmp(a.cmd, "digest"))
		return sc_pin_digest_run(a.o.rest[0]);
	if (!strcmp(a.cmd, "pin"))
		return sc_pin_pin_run(&a.o);
	if (!strcmp(a.cmd, "skills"))
		return sc_pin_skills_run(&a.o);
	return sc_pin_verify_run(&a.o);
}
