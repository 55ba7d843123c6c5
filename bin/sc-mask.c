/*
 * sc-mask: replace every printable form of known secret values with
 * [redacted:NAME], as a streaming filter, over records, or over a diff.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "mask.h"
#include "maskio.h"
#include "opt.h"
#include "rectable.h"
#include "scan.h"
#include "secrets.h"

extern char **environ;

static const char *const synopsis[] = {
	"[SOURCE...] [FILE...]",
	"[SOURCE...] --records-stream [--all-fields]",
	"[SOURCE...] --check-diff",
	"--scan [--config FILE] [--allow-fingerprint FP]... PATH...",
	NULL,
};

static const struct sc_tool tool = {
	"sc-mask", synopsis,
	"  SOURCE is one of (each may repeat; values never on the command line):\n"
	"    --env                     variables whose names look secret\n"
	"    --secret NAME             the value of environment variable NAME\n"
	"    --secret-stdin NAME       a value read from stdin, masked as NAME\n"
	"                              (then the text to mask is in FILE...)\n"
	"    --secrets-file FILE       a dotenv file\n"
	"    --key-file NAME=PATH      a key file (each line on its own too)\n"
	"    --secret-file PATH        secret-named variables of a dotenv file,\n"
	"                              else each line of a key file (PATH:LINE)\n"
	"    --records FILE            type=secret name= value= records\n"
	"  modes:\n"
	"    FILE...                   mask files (or stdin) to stdout\n"
	"    --records-stream          mask the text field of type=text records\n"
	"    --all-fields              with --records-stream: every field of every record\n"
	"    --check-diff              find secrets on added lines of a diff\n"
	"    --scan PATH...            find credential-shaped content in files\n"
	"    --allow-fingerprint FP    with --scan: this finding is allowed\n"
	"    --config FILE             with --scan: allow its mask.allowFingerprint\n"
	"    -z                        records even when stdout is a terminal\n"
	"                              (--records-stream, --check-diff, --scan)\n"
	"    -h, --help                show this help\n"
	"    --version                 show the version\n",
	0,
};

enum { OPT_ENV = 0x100, OPT_SECRET, OPT_FILE, OPT_KEY, OPT_RECORDS,
       OPT_STREAM, OPT_ALL, OPT_DIFF, OPT_SCAN, OPT_ALLOW_FP, OPT_STDIN,
       OPT_SECFILE, OPT_CONFIG };

/* Add one source; -1 when it cannot be read (already reported). */
static int add_source(struct sc_secrets *s, int c, const char *arg)
{
	switch (c) {
	case OPT_ENV:
		sc_secrets_from_environ(s, environ);
		return 0;
	case OPT_SECRET:
		return sc_secrets_from_var(s, arg);
	case OPT_FILE:
		return sc_secrets_from_dotenv(s, arg);
	case OPT_KEY:
		return sc_secrets_from_key_file(s, arg);
	case OPT_SECFILE:
		return sc_secrets_from_file(s, arg);
	default:
		return sc_secrets_from_records(s, arg);
	}
}

static int run(int mode, int all_fields, int force_records,
	       struct sc_masker *m, int argc, char **argv)
{
	struct sc_output out;
	struct sc_input in;
	int ret;

	/* Masked text stays text; records are a table for a person. */
	sc_output_init_records(&out, STDOUT_FILENO, force_records || !mode);
	sc_input_init_fd(&in, STDIN_FILENO);
	if (mode == OPT_STREAM)
		ret = sc_mask_records(m, &in, &out, all_fields);
	else if (mode == OPT_DIFF)
		ret = sc_mask_check_diff(m, &in, &out);
	else
		ret = sc_mask_files(m, argv, argc, &out);
	sc_output_release(&out);
	return ret;
}

/* --scan needs no secret: it looks for the shape of credentials. */
static int scan(int sources, int force_records, const char *config,
		char **allow, size_t nr_allow, int npaths, char **paths)
{
	struct sc_scanner *sc;
	struct sc_output out;
	size_t i;
	int ret;

	if (sources)
		sc_usage_error(&tool, "--scan takes no secret source");
	if (!npaths)
		sc_usage_error(&tool, "--scan needs a PATH");
	sc = sc_scanner_new();
	if (!sc)
		return SC_EXIT_INTERNAL;
	for (i = 0; i < nr_allow; i++) {
		if (sc_scanner_allow(sc, allow[i]) < 0) {
			sc_scanner_free(sc);
			sc_usage_error(&tool, "--allow-fingerprint takes 16 "
				       "lower-case hex digits");
		}
	}
	if (config && (ret = sc_scanner_allow_config(sc, config))) {
		sc_scanner_free(sc);
		return ret;
	}
	sc_output_init_records(&out, STDOUT_FILENO, force_records);
	ret = sc_scan_paths(sc, paths, npaths, &out);
	sc_output_release(&out);
	sc_scanner_free(sc);
	return ret;
}

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "env", no_argument, NULL, OPT_ENV },
		{ "secret", required_argument, NULL, OPT_SECRET },
		{ "secret-stdin", required_argument, NULL, OPT_STDIN },
		{ "secrets-file", required_argument, NULL, OPT_FILE },
		{ "key-file", required_argument, NULL, OPT_KEY },
		{ "secret-file", required_argument, NULL, OPT_SECFILE },
		{ "records", required_argument, NULL, OPT_RECORDS },
		{ "records-stream", no_argument, NULL, OPT_STREAM },
		{ "all-fields", no_argument, NULL, OPT_ALL },
		{ "check-diff", no_argument, NULL, OPT_DIFF },
		{ "scan", no_argument, NULL, OPT_SCAN },
		{ "allow-fingerprint", required_argument, NULL, OPT_ALLOW_FP },
		{ "config", required_argument, NULL, OPT_CONFIG },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	struct sc_secrets secrets;
	struct sc_mask_set *set = NULL;
	struct sc_masker *m = NULL;
	const char *stdin_name = NULL, *config = NULL;
	int mode = 0, all_fields = 0, sources = 0, failed = 0, c, ret;
	char **allow = NULL;
	size_t nr_allow = 0;
	int force_records = 0;

	sc_diag_init(tool.name);
	sc_secrets_init(&secrets);
	while ((c = sc_getopt(argc, argv, "hz", longopts, &tool)) != -1) {
		if (c == 'z') {
			force_records = 1;
			continue;
		}
		if (c == OPT_ALL) {
			all_fields = 1;
			continue;
		}
		if (c == OPT_CONFIG) {
			config = optarg;
			continue;
		}
		if (c == OPT_ALLOW_FP) {
			allow = sc_xrealloc(allow, sc_st_mult(nr_allow + 1,
							      sizeof(*allow)));
			allow[nr_allow++] = optarg;
			continue;
		}
		if (c == OPT_STREAM || c == OPT_DIFF || c == OPT_SCAN) {
			if (mode && mode != c)
				sc_usage_error(&tool, "choose one mode");
			mode = c;
			continue;
		}
		sources++;
		if (c == OPT_STDIN) {
			if (stdin_name)
				sc_usage_error(&tool, "one --secret-stdin: "
					       "standard input holds one value");
			stdin_name = optarg;
			continue;
		}
		/* Read every source, so each bad one is reported at once. */
		if (add_source(&secrets, c, optarg) < 0)
			failed = 1;
	}
	if (all_fields && mode != OPT_STREAM)
		sc_usage_error(&tool, "--all-fields goes with --records-stream");
	if (nr_allow && mode != OPT_SCAN)
		sc_usage_error(&tool, "--allow-fingerprint goes with --scan");
	if (config && mode != OPT_SCAN)
		sc_usage_error(&tool, "--config goes with --scan");
	if (mode == OPT_SCAN) {
		ret = scan(sources, force_records, config, allow, nr_allow,
			   argc - optind, argv + optind);
		free(allow);
		return ret;
	}
	if (mode && optind < argc)
		sc_usage_error(&tool, "this mode reads stdin and takes no FILE");
	if (!sources)
		sc_usage_error(&tool, "no secret source");
	/* Standard input holds the value: the text must come from files. */
	if (stdin_name && (mode || optind == argc))
		sc_usage_error(&tool, "--secret-stdin reads the value from "
			       "standard input: name the FILEs to mask");
	if (stdin_name && sc_secrets_from_fd(&secrets, stdin_name,
					     STDIN_FILENO) < 0)
		failed = 1;
	/* A partial secret list is worse than none: refuse, output nothing. */
	if (failed) {
		sc_secrets_release(&secrets);
		return SC_EXIT_USAGE;
	}
	set = sc_mask_set_build(&secrets, 1);
	sc_secrets_release(&secrets);
	if (set)
		m = sc_masker_new(set);
	ret = m ? run(mode, all_fields, force_records, m, argc - optind,
		      argv + optind) :
		  SC_EXIT_INTERNAL;
	sc_masker_free(m);
	sc_mask_set_free(set);
	return ret;
}
