/*
 * sc-config: read speccoder.conf for scripts (lib/configtool.h).
 */
#include <stddef.h>

#include "configtool.h"
#include "diag.h"
#include "opt.h"

static const char *const synopsis[] = {
	"[--file FILE] --get KEY",
	"[--file FILE] --get-all KEY [-z]",
	"[--file FILE] --list",
	"[--file FILE] --checks",
	"[--file FILE] --acceptance",
	"[--file FILE] --format",
	"[--file FILE] --mutation",
	"[--file FILE] --executor",
	"[--file FILE] --mcp",
	"[--file FILE] --check",
	"--libgit2-version",
	NULL,
};

static const struct sc_tool tool = {
	"sc-config", synopsis,
	"    --file FILE    the configuration (default: speccoder.conf)\n"
	"    --get KEY      print the last value of KEY; exit 1 when unset\n"
	"    --get-all KEY  print every value of KEY, one a line\n"
	"    -z             with --get-all: end each value with NUL; with\n"
	"                   --list, --checks, --executor, --mcp: records even\n"
	"                   when stdout is a terminal\n"
	"    --list         every entry as a type=config key= value= record\n"
	"    --checks       every check as a type=check name= argv=... record\n"
	"    --acceptance   every acceptance test as a type=acceptance name=\n"
	"                   argv=... record\n"
	"    --format       the formatter as a type=format argv=... record;\n"
	"                   exit 1 when none is configured\n"
	"    --mutation     the mutation tool as a type=mutation argv=...\n"
	"                   record; exit 1 when none is configured\n"
	"    --executor     the external agent as a type=executor argv=... env=...\n"
	"                   record; exit 1 when none is configured\n"
	"    --mcp          every MCP server with a command as a type=mcp name=\n"
	"                   argv=... record, in name order\n"
	"    --check        read the file whole, as every tool does; nothing\n"
	"                   written, exit 3 when a tool would refuse it\n"
	"    --libgit2-version  the version of the libgit2 the tools load\n"
	"    -h, --help     show this help\n"
	"    --version      show the version\n",
	0,
};

/* Each query's option is OPT_QUERY plus its enum sc_config_query. */
enum { OPT_FILE = 0x100, OPT_LIBGIT2, OPT_QUERY = 0x200 };

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, OPT_FILE },
		{ "get", required_argument, NULL, OPT_QUERY + SC_CONFIG_Q_GET },
		{ "get-all", required_argument, NULL,
		  OPT_QUERY + SC_CONFIG_Q_GET_ALL },
		{ "list", no_argument, NULL, OPT_QUERY + SC_CONFIG_Q_LIST },
		{ "checks", no_argument, NULL, OPT_QUERY + SC_CONFIG_Q_CHECKS },
		{ "executor", no_argument, NULL,
		  OPT_QUERY + SC_CONFIG_Q_EXECUTOR },
		{ "check", no_argument, NULL, OPT_QUERY + SC_CONFIG_Q_CHECK },
		{ "mcp", no_argument, NULL, OPT_QUERY + SC_CONFIG_Q_MCP },
		{ "acceptance", no_argument, NULL,
		  OPT_QUERY + SC_CONFIG_Q_ACCEPTANCE },
		{ "format", no_argument, NULL, OPT_QUERY + SC_CONFIG_Q_FORMAT },
		{ "mutation", no_argument, NULL,
		  OPT_QUERY + SC_CONFIG_Q_MUTATION },
		{ "libgit2-version", no_argument, NULL, OPT_LIBGIT2 },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	struct sc_config_opts o = { SC_CONFIG_Q_GET, "speccoder.conf", NULL, 0 };
	int mode = 0, c;

	sc_diag_init(tool.name);
	while ((c = sc_getopt(argc, argv, "+hz", longopts, &tool)) != -1) {
		if (c == OPT_FILE) {
			o.file = optarg;
		} else if (c == 'z') {
			o.nul = 1;
		} else {
			if (mode)
				sc_usage_error(&tool, "choose one of --get, "
					       "--get-all, --list, --checks, "
					       "--acceptance, --format, "
					       "--mutation, --executor, --mcp, "
					       "--check");
			mode = c;
			o.key = optarg;
		}
	}
	if (!mode)
		sc_usage_error(&tool, "nothing to do");
	if (mode == OPT_LIBGIT2)
		return sc_config_libgit2_version_run();
	if (optind < argc)
		sc_usage_error(&tool, "unexpected argument");
	o.query = (enum sc_config_query)(mode - OPT_QUERY);
	if (o.nul && (o.query == SC_CONFIG_Q_GET ||
		      o.query == SC_CONFIG_Q_CHECK))
		sc_usage_error(&tool, "-z goes with --get-all, --list, "
			       "--checks, --acceptance, --format, "
			       "--mutation, --executor or --mcp");
	return sc_config_run(&o);
}
