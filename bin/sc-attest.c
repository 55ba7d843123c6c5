/*
 * sc-attest: record signed evidence on commits as git notes, and verify a
 * branch against a verifier's allowed_signers file.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attest.h"
#include "diag.h"
#include "intoto.h"
#include "io.h"
#include "opt.h"
#include "rectable.h"

static const char *const synopsis[] = {
	"[-C DIR] record --commit REV --predicate-type URI --predicate FILE "
	"[--subject NAME] [--key PATH | --unsigned]",
	"[-C DIR] record --commit REV --evidence FILE "
	"[--subject NAME] [--key PATH | --unsigned]",
	"[-C DIR] sign --commit REV --key PATH",
	"[-C DIR] show REV",
	"[-C DIR] verify --branch REV [--base REV] --allowed-signers FILE "
	"[--allow-unsigned] [--neutral-ok]",
	NULL,
};

static const struct sc_tool tool = {
	"sc-attest", synopsis,
	"    -C DIR                  the repository (default: found from .)\n"
	"  record:\n"
	"    --commit REV            the commit the evidence is about\n"
	"    --predicate-type URI    the predicate's type\n"
	"    --predicate FILE        the predicate, a JSON object (- for stdin)\n"
	"    --evidence FILE         or records to build a task-verification\n"
	"                            predicate from (- for stdin)\n"
	"    --subject NAME          the subject's name (default: the commit id)\n"
	"    --key PATH              sign with this OpenSSH private key\n"
	"    --unsigned              record without a signature\n"
	"  sign:\n"
	"    --commit REV            sign the unsigned envelopes of REV's note\n"
	"    --key PATH              with this OpenSSH private key\n"
	"  show:\n"
	"    REV                     print REV's attestations for a person\n"
	"  verify:\n"
	"    --branch REV            the tip of the range to check\n"
	"    --base REV              exclude REV and its ancestors\n"
	"    --allowed-signers FILE  the keys trusted to sign (required)\n"
	"    --allow-unsigned        unsigned evidence passes\n"
	"    --neutral-ok            an empty range passes\n"
	"    -z, --records           records even when stdout is a terminal\n"
	"    -h, --help              show this help\n"
	"    --version               show the version\n",
	0,
};

enum {
	OPT_COMMIT = 0x100, OPT_PTYPE, OPT_PRED, OPT_SUBJECT, OPT_KEY,
	OPT_UNSIGNED, OPT_BRANCH, OPT_BASE, OPT_SIGNERS, OPT_ALLOW_UNSIGNED,
	OPT_NEUTRAL_OK, OPT_EVIDENCE,
};

struct args {
	struct sc_attest_record_opts rec;
	struct sc_attest_verify_opts ver;
	int unsigned_;
	int force_records;   /* -z */
	unsigned long seen;  /* bit (c - OPT_COMMIT) for each option given */
};

#define BIT(opt) (1UL << ((opt) - OPT_COMMIT))
#define RECORD_OPTS (BIT(OPT_COMMIT) | BIT(OPT_PTYPE) | BIT(OPT_PRED) | \
		     BIT(OPT_SUBJECT) | BIT(OPT_KEY) | BIT(OPT_UNSIGNED) | \
		     BIT(OPT_EVIDENCE))
#define SIGN_OPTS (BIT(OPT_COMMIT) | BIT(OPT_KEY))
#define VERIFY_OPTS (BIT(OPT_BRANCH) | BIT(OPT_BASE) | BIT(OPT_SIGNERS) | \
		     BIT(OPT_ALLOW_UNSIGNED) | BIT(OPT_NEUTRAL_OK))

static void parse(int argc, char *argv[], struct args *a)
{
	static const struct option longopts[] = {
		{ "commit", required_argument, NULL, OPT_COMMIT },
		{ "predicate-type", required_argument, NULL, OPT_PTYPE },
		{ "predicate", required_argument, NULL, OPT_PRED },
		{ "evidence", required_argument, NULL, OPT_EVIDENCE },
		{ "subject", required_argument, NULL, OPT_SUBJECT },
		{ "key", required_argument, NULL, OPT_KEY },
		{ "unsigned", no_argument, NULL, OPT_UNSIGNED },
		{ "branch", required_argument, NULL, OPT_BRANCH },
		{ "base", required_argument, NULL, OPT_BASE },
		{ "allowed-signers", required_argument, NULL, OPT_SIGNERS },
		{ "allow-unsigned", no_argument, NULL, OPT_ALLOW_UNSIGNED },
		{ "neutral-ok", no_argument, NULL, OPT_NEUTRAL_OK },
		{ "records", no_argument, NULL, 'z' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = sc_getopt(argc, argv, "hzC:", longopts, &tool)) != -1) {
		if (c >= OPT_COMMIT && c <= OPT_EVIDENCE)
			a->seen |= BIT(c);
		switch (c) {
		case 'C': a->rec.repo_dir = a->ver.repo_dir = optarg; break;
		case 'z': a->force_records = 1; break;
		case OPT_COMMIT: a->rec.commit = optarg; break;
		case OPT_PTYPE: a->rec.predicate_type = optarg; break;
		case OPT_PRED: a->rec.predicate_path = optarg; break;
		case OPT_EVIDENCE: a->rec.evidence_path = optarg; break;
		case OPT_SUBJECT: a->rec.subject_name = optarg; break;
		case OPT_KEY: a->rec.key_path = optarg; break;
		case OPT_UNSIGNED: a->unsigned_ = 1; break;
		case OPT_BRANCH: a->ver.branch = optarg; break;
		case OPT_BASE: a->ver.base = optarg; break;
		case OPT_SIGNERS: a->ver.allowed_signers = optarg; break;
		case OPT_ALLOW_UNSIGNED: a->ver.allow_unsigned = 1; break;
		case OPT_NEUTRAL_OK: a->ver.neutral_ok = 1; break;
		default: sc_usage_error(&tool, NULL);
		}
	}
}

static int run_record(struct args *a, struct sc_output *out)
{
	if (a->seen & ~RECORD_OPTS)
		sc_usage_error(&tool, "an option record does not take");
	if (!a->rec.commit || !a->rec.predicate_path == !a->rec.evidence_path)
		sc_usage_error(&tool, "record needs --commit and one of "
				      "--predicate and --evidence");
	if (a->rec.predicate_path && !a->rec.predicate_type)
		sc_usage_error(&tool, "--predicate needs --predicate-type");
	/* Evidence builds one kind of predicate only. */
	if (a->rec.evidence_path && a->rec.predicate_type &&
	    strcmp(a->rec.predicate_type, SC_PREDICATE_TASK))
		sc_usage_error(&tool, "--evidence builds a task-verification "
				      "predicate only");
	if (!a->rec.key_path == !a->unsigned_)
		sc_usage_error(&tool, "record needs one of --key and --unsigned");
	return sc_attest_record_run(&a->rec, out);
}

static int run_verify(struct args *a, struct sc_output *out)
{
	if (a->seen & ~VERIFY_OPTS)
		sc_usage_error(&tool, "an option verify does not take");
	if (!a->ver.branch)
		sc_usage_error(&tool, "verify needs --branch");
	/* Read here, so the library takes the environment as arguments. */
	a->ver.now = time(NULL);
	a->ver.github_actions = getenv("GITHUB_ACTIONS");
	a->ver.github_event_name = getenv("GITHUB_EVENT_NAME");
	a->ver.github_event_path = getenv("GITHUB_EVENT_PATH");
	return sc_attest_verify_run(&a->ver, out);
}

static int run_sign(struct args *a, struct sc_output *out)
{
	if (a->seen & ~SIGN_OPTS)
		sc_usage_error(&tool, "an option sign does not take");
	if (!a->rec.commit || !a->rec.key_path)
		sc_usage_error(&tool, "sign needs --commit and --key");
	return sc_attest_sign_run(a->rec.repo_dir, a->rec.commit, a->rec.key_path,
			      out);
}

static int run_show(struct args *a, const char *rev, struct sc_output *out)
{
	if (a->seen)
		sc_usage_error(&tool, "show takes only a revision");
	return sc_attest_show_run(a->rec.repo_dir, rev, out);
}

int main(int argc, char *argv[])
{
	struct args a;
	struct sc_output out;
	const char *cmd;
	int ret;

	sc_diag_init(tool.name);
	memset(&a, 0, sizeof(a));
	parse(argc, argv, &a);
	if (argc - optind < 1)
		sc_usage_error(&tool, "give a command: record, sign, show or verify");
	cmd = argv[optind];
	if (argc - optind != (strcmp(cmd, "show") ? 1 : 2))
		sc_usage_error(&tool, "show takes one revision, other commands "
				      "no argument");
	sc_output_init_records(&out, STDOUT_FILENO, a.force_records);
	if (!strcmp(cmd, "record"))
		ret = run_record(&a, &out);
	else if (!strcmp(cmd, "sign"))
		ret = run_sign(&a, &out);
	else if (!strcmp(cmd, "show"))
		ret = run_show(&a, argv[optind + 1], &out);
	else if (!strcmp(cmd, "verify"))
		ret = run_verify(&a, &out);
	else
		sc_usage_error(&tool, "unknown command");
	if (sc_output_flush(&out) < 0 && ret != SC_EXIT_INTERNAL) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = SC_EXIT_INTERNAL;
	}
	sc_output_release(&out);
	return ret;
}
