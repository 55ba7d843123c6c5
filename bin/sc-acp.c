/*
 * sc-acp: let an external agent make an attempt over the Agent Client
 * Protocol, with every request it makes handed to the caller as a
 * type=call record to decide (sc-acp(1)).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acp.h"
#include "alloc.h"
#include "diag.h"
#include "mcpconf.h"
#include "opt.h"
#include "shellwords.h"

static const char *const synopsis[] = {
	"[--timeout S] [--cwd DIR] [--config-home DIR] [--env-keep NAME]... "
	"[--mcp NAME]... -- AGENT [ARG...]",
	NULL,
};

static const struct sc_tool tool = {
	"sc-acp", synopsis,
	"    --timeout S        the longest wait for the agent (default 600)\n"
	"    --cwd DIR          the session's root (default: .)\n"
	"    --config-home DIR  private, empty configuration for the agent\n"
	"    --env-keep NAME    pass variable NAME to the agent (repeatable)\n"
	"    --mcp NAME         give the agent MCP server NAME through "
	"speccoder\n"
	"                       (repeatable; needs --config-home)\n"
	"    -z, --records      records even when stdout is a terminal\n"
	"    -h, --help         show this help\n"
	"    --version          show the version\n",
	0,
};

/* The longest --timeout: a day, so the milliseconds fit an int. */
#define MAX_TIMEOUT 86400

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "cwd", required_argument, NULL, 'C' },
		{ "config-home", required_argument, NULL, 'H' },
		{ "env-keep", required_argument, NULL, 'e' },
		{ "mcp", required_argument, NULL, 'm' },
		{ "records", no_argument, NULL, 'z' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	struct sc_acp_opts o;
	char **keep, **mcp;
	unsigned long long timeout = 600;
	int c, ret;

	sc_diag_init(tool.name);
	memset(&o, 0, sizeof(o));
	o.cwd = ".";
	keep = sc_xcalloc((size_t)argc + 1, sizeof(*keep));
	mcp = sc_xcalloc((size_t)argc + 1, sizeof(*mcp));
	while ((c = sc_getopt(argc, argv, "+hz", longopts, &tool)) != -1) {
		switch (c) {
		case 'z': o.force_records = 1; break;
		case 't':
			timeout = sc_opt_number(&tool, optarg, 1, MAX_TIMEOUT,
						"--timeout");
			break;
		case 'C': o.cwd = optarg; break;
		case 'H': o.config_home = optarg; break;
		case 'e':
			if (!sc_sw_is_name(optarg, strlen(optarg)))
				sc_usage_error(&tool, "--env-keep takes a "
					       "variable name");
			keep[o.nkeep++] = optarg;
			break;
		case 'm':
			if (!sc_mcp_server_name_ok(optarg))
				sc_usage_error(&tool, "--mcp takes a server "
					       "name of [A-Za-z0-9-]");
			/* Each is a socket polled with the agent's pipe. */
			if (o.nmcp == SC_ACP_MAX_MCP)
				sc_usage_error(&tool, "--mcp: at most 64 servers");
			mcp[o.nmcp++] = optarg;
			break;
		default: sc_usage_error(&tool, NULL);
		}
	}
	if (optind >= argc)
		sc_usage_error(&tool, "the agent's command is missing");
	/* The sockets live in the agent's private directory. */
	if (o.nmcp && !o.config_home)
		sc_usage_error(&tool, "--mcp needs --config-home");
	o.argv = argv + optind;
	o.timeout_ms = (int)timeout * 1000;
	o.keep = keep;
	o.mcp = mcp;
	ret = sc_acp_run(&o, STDIN_FILENO, STDOUT_FILENO);
	free(keep);
	free(mcp);
	return ret;
}
