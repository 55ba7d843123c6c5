/*
 * sc-mcp: one MCP server of speccoder.conf, started inside the sandbox,
 * its tools offered by the digest of their definitions, its calls as
 * records (sc-mcp(1)).  This main reads the options; the tool is
 * lib/agent/mcprun.c, the relay lib/agent/mcprelay.c.
 */
#include <signal.h>
#include <unistd.h>

#include "diag.h"
#include "mcpconf.h"
#include "mcprelay.h"
#include "mcprun.h"
#include "opt.h"
#include "record.h"

static const char *const synopsis[] = {
	"[--config FILE] [--list] [--timeout S] [--max-output BYTES] "
	"[--keep-stderr] [--cwd DIR] --server NAME -- SANDBOX [ARG...]",
	"--relay SOCKET",
	NULL,
};

static const struct sc_tool tool = {
	"sc-mcp", synopsis,
	"    --config FILE       speccoder.conf (default: ./speccoder.conf)\n"
	"    --server NAME       the [mcp \"NAME\"] section to start\n"
	"    --list              list every tool with its status and end\n"
	"    --timeout S         the longest wait for the server "
	"(default mcp.NAME.timeout)\n"
	"    --max-output BYTES  bytes of a result's text (default 1048576)\n"
	"    --keep-stderr       the server's stderr to ours (else dropped)\n"
	"    --cwd DIR           the server's working directory (default .)\n"
	"    --relay SOCKET      carry stdin and stdout to sc-acp's MCP socket\n"
	"    -z, --records       records even when stdout is a terminal\n"
	"    -h, --help          show this help\n"
	"    --version           show the version\n",
	0,
};

enum { OPT_CONFIG = 0x100, OPT_SERVER, OPT_LIST, OPT_TIMEOUT, OPT_MAX,
       OPT_STDERR, OPT_CWD, OPT_RELAY };

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "server", required_argument, NULL, OPT_SERVER },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "max-output", required_argument, NULL, OPT_MAX },
		{ "keep-stderr", no_argument, NULL, OPT_STDERR },
		{ "cwd", required_argument, NULL, OPT_CWD },
		{ "relay", required_argument, NULL, OPT_RELAY },
		{ "records", no_argument, NULL, 'z' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	struct sc_mcp_opts o = { .config = "speccoder.conf",
				 .max_output = (size_t)1 << 20 };
	const char *relay = NULL;
	unsigned long long n;
	int c;

	sc_diag_init(tool.name);
	/* A caller gone mid-answer is a failed write, not our death. */
	signal(SIGPIPE, SIG_IGN);
	while ((c = sc_getopt(argc, argv, "+hz", longopts, &tool)) != -1) {
		switch (c) {
		case OPT_CONFIG: o.config = optarg; break;
		case OPT_SERVER: o.server = optarg; break;
		case OPT_LIST: o.list = 1; break;
		case 'z': o.force_records = 1; break;
		case OPT_STDERR: o.keep_stderr = 1; break;
		case OPT_CWD: o.cwd = optarg; break;
		case OPT_RELAY: relay = optarg; break;
		case OPT_TIMEOUT:
			if (sc_parse_uint(optarg, 3600, &n) < 0 || !n)
				sc_usage_error(&tool, "--timeout takes seconds, "
					       "1 to 3600");
			o.timeout = (unsigned)n;
			break;
		case OPT_MAX:
			if (sc_parse_uint(optarg, SC_RECORD_MAX / 2, &n) < 0 ||
			    !n)
				sc_usage_error(&tool, "--max-output takes bytes, "
					       "1 to 8388608");
			o.max_output = (size_t)n;
			break;
		default: sc_usage_error(&tool, NULL);
		}
	}
	if (relay) {
		/* The agent's side: nothing else may be asked of it. */
		if (optind < argc || o.server || o.list)
			sc_usage_error(&tool, "--relay takes no other option");
		return sc_mcp_relay_run(relay, STDIN_FILENO, STDOUT_FILENO);
	}
	if (!o.server || !sc_mcp_server_name_ok(o.server))
		sc_usage_error(&tool, "--server takes a name of [A-Za-z0-9-]");
	if (optind >= argc)
		sc_usage_error(&tool, "the sandbox's command is missing: the "
			       "server never runs unconfined");
	o.sandbox = argv + optind;
	return sc_mcp_run(&o, STDIN_FILENO, STDOUT_FILENO);
}
