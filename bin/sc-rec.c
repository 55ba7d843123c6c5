/*
 * sc-rec: convert sc-record(5) streams to and from JSON Lines, build a
 * record from the command line for scripts, and clean text a script shows
 * on a terminal with the one cleaner every tool uses (termtext.h).
 */
#include <string.h>

#include "diag.h"
#include "opt.h"
#include "record.h"
#include "rectool.h"

static const char *const synopsis[] = {
	"--to-json",
	"--from-json",
	"--for-terminal",
	"NAME=VALUE...",
	NULL,
};

static const struct sc_tool tool = {
	"sc-rec", synopsis,
	"    --to-json      records on stdin -> one JSON object a line on stdout\n"
	"    --from-json    JSON Lines on stdin -> records on stdout\n"
	"    --for-terminal text on stdin -> the same cleaned for a terminal\n"
	"    NAME=VALUE...  write one record made of these fields (type= first)\n"
	"    -z, --records  records even when stdout is a terminal\n"
	"    -h, --help     show this help\n"
	"    --version      show the version\n",
	0,
};

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "to-json", no_argument, NULL, 'j' },
		{ "from-json", no_argument, NULL, 'J' },
		{ "for-terminal", no_argument, NULL, 'T' },
		{ "records", no_argument, NULL, 'z' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	struct sc_rec_opts o = { SC_REC_FIELDS, 0, NULL, 0 };
	int mode = 0, c, i;

	sc_diag_init(tool.name);
	while ((c = sc_getopt(argc, argv, "+hz", longopts, &tool)) != -1) {
		if (c == 'z') {
			o.force_records = 1;
			continue;
		}
		if (mode)
			sc_usage_error(&tool, "choose one mode");
		mode = c;
	}
	argc -= optind;
	argv += optind;
	if (mode && argc)
		sc_usage_error(&tool, "--to-json, --from-json and --for-terminal "
			       "take no arguments");
	if (o.force_records && (mode == 'j' || mode == 'T'))
		sc_usage_error(&tool, "-z goes with --from-json and NAME=VALUE");
	o.mode = mode == 'j' ? SC_REC_TO_JSON : mode == 'J' ? SC_REC_FROM_JSON :
		 mode == 'T' ? SC_REC_FOR_TERMINAL : SC_REC_FIELDS;
	if (!mode && !argc)
		sc_usage_error(&tool, "nothing to do");
	for (i = 0; !mode && i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (!eq || !sc_field_name_valid(argv[i], (size_t)(eq - argv[i])))
			sc_usage_error(&tool, "an argument is not NAME=VALUE "
					      "with NAME matching [a-z][a-z0-9_.-]*");
		if (!i && strncmp(argv[i], "type=", 5))
			sc_usage_error(&tool, "the first field must be type=");
	}
	o.fields = argv;
	o.nfields = argc;
	return sc_rec_run(&o);
}
