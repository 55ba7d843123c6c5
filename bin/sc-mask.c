/*
 * sc-mask: replace every printable form of known secret values with
 * [redacted:NAME], as a streaming filter, over records, or over a diff.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "config.h"
#include "diag.h"
#include "maskio.h"
#include "opt.h"
#include "scan.h"

static const char *const synopsis[] = {
	"[SOURCE...] [FILE...]",
	"[SOURCE...] --records-stream [--all-fields]",
	"[SOURCE...] --check-diff [--config FILE] [--allow-fingerprint FP]...",
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
	"    --allow-fingerprint FP    --scan, --check-diff: this finding is allowed\n"
	"    --config FILE             --scan, --check-diff: allow its\n"
	"                              mask.allowFingerprint\n"
	"    -z                        records even when stdout is a terminal\n"
	"                              (--records-stream, --check-diff, --scan)\n"
	"    -h, --help                show this help\n"
	"    --version                 show the version\n",
	0,
};

enum { OPT_ENV = 0x100, OPT_SECRET, OPT_FILE, OPT_KEY, OPT_RECORDS,
       OPT_STREAM, OPT_ALL, OPT_DIFF, OPT_SCAN, OPT_ALLOW_FP, OPT_STDIN,
       OPT_SECFILE, OPT_CONFIG };

/* The source a SOURCE option names. */
static enum sc_mask_source_kind source_kind(int c)
{
	switch (c) {
	case OPT_ENV:
		return SC_MASK_SRC_ENV;
	case OPT_SECRET:
		return SC_MASK_SRC_VAR;
	case OPT_FILE:
		return SC_MASK_SRC_DOTENV;
	case OPT_KEY:
		return SC_MASK_SRC_KEY_FILE;
	case OPT_SECFILE:
		return SC_MASK_SRC_FILE;
	default:
		return SC_MASK_SRC_RECORDS;
	}
}

static enum sc_mask_mode mode_of(int c)
{
	return c == OPT_STREAM ? SC_MASK_RECORDS :
	       c == OPT_DIFF ? SC_MASK_DIFF : SC_MASK_SCAN;
}

/* The checks that need the whole command line. */
static void check(const struct sc_mask_opts *o, int have_mode)
{
	size_t i;

	if (o->all_fields && o->mode != SC_MASK_RECORDS)
		sc_usage_error(&tool, "--all-fields goes with --records-stream");
	if (o->nr_allow && o->mode != SC_MASK_SCAN && o->mode != SC_MASK_DIFF)
		sc_usage_error(&tool, "--allow-fingerprint goes with --scan "
			       "or --check-diff");
	if (o->config && o->mode != SC_MASK_SCAN && o->mode != SC_MASK_DIFF)
		sc_usage_error(&tool, "--config goes with --scan or "
			       "--check-diff");
	if (o->mode == SC_MASK_SCAN) {
		if (o->nr_sources || o->stdin_name)
			sc_usage_error(&tool, "--scan takes no secret source");
		if (!o->npaths)
			sc_usage_error(&tool, "--scan needs a PATH");
	} else {
		if (have_mode && o->npaths)
			sc_usage_error(&tool, "this mode reads stdin and "
				       "takes no FILE");
		if (!o->nr_sources && !o->stdin_name)
			sc_usage_error(&tool, "no secret source");
		/* Standard input holds the value: the text must come
		 * from files. */
		if (o->stdin_name && (have_mode || !o->npaths))
			sc_usage_error(&tool, "--secret-stdin reads the value "
				       "from standard input: name the FILEs "
				       "to mask");
	}
	for (i = 0; i < o->nr_allow; i++)
		if (!sc_fingerprint_valid(o->allow[i]))
			sc_usage_error(&tool, "--allow-fingerprint takes 16 "
				       "lower-case hex digits");
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
	struct sc_mask_opts o;
	struct sc_mask_source *sources;
	char **allow;
	int have_mode = 0, c, ret;

	sc_diag_init(tool.name);
	memset(&o, 0, sizeof(o));
	/* No more sources or fingerprints than arguments. */
	sources = sc_xcalloc((size_t)argc, sizeof(*sources));
	allow = sc_xcalloc((size_t)argc, sizeof(*allow));
	while ((c = sc_getopt(argc, argv, "hz", longopts, &tool)) != -1) {
		if (c == 'z') {
			o.force_records = 1;
		} else if (c == OPT_ALL) {
			o.all_fields = 1;
		} else if (c == OPT_CONFIG) {
			o.config = optarg;
		} else if (c == OPT_ALLOW_FP) {
			allow[o.nr_allow++] = optarg;
		} else if (c == OPT_STREAM || c == OPT_DIFF || c == OPT_SCAN) {
			if (have_mode && o.mode != mode_of(c))
				sc_usage_error(&tool, "choose one mode");
			o.mode = mode_of(c);
			have_mode = 1;
		} else if (c == OPT_STDIN) {
			if (o.stdin_name)
				sc_usage_error(&tool, "one --secret-stdin: "
					       "standard input holds one value");
			o.stdin_name = optarg;
		} else {
			sources[o.nr_sources].kind = source_kind(c);
			sources[o.nr_sources++].arg = optarg;
		}
	}
	o.sources = sources;
	o.allow = allow;
	o.paths = argv + optind;
	o.npaths = argc - optind;
	check(&o, have_mode);
	ret = sc_mask_run(&o);
	free(sources);
	free(allow);
	return ret;
}
