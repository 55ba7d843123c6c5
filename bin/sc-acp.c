/*
 * sc-acp: let an external agent make an attempt over the Agent Client
 * Protocol, with every request it makes handed to the caller as a
 * type=call record to decide (sc-acp(1)).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acp.h"
#include "agenthome.h"
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

/*
 * The relay the agent is given: the sc-mcp installed beside this program,
 * by absolute path, so nothing the agent's PATH holds is run for it.
 */
static char *relay_program(void)
{
	char *self = realpath("/proc/self/exe", NULL), *slash, *path;

	if (!self || !(slash = strrchr(self, '/'))) {
		free(self);
		return NULL;
	}
	*slash = '\0';
	path = sc_xmalloc(strlen(self) + sizeof("/sc-mcp"));
	strcpy(path, self);
	strcat(path, "/sc-mcp");
	free(self);
	if (access(path, X_OK) < 0) {
		free(path);
		return NULL;
	}
	return path;
}

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
	struct sc_agenthome home;
	const char *cwd = ".", *config_home = NULL;
	char **keep, **mcp, *relay = NULL;
	unsigned long long timeout = 600;
	char *root;
	int c, ret;

	sc_diag_init(tool.name);
	memset(&o, 0, sizeof(o));
	keep = sc_xcalloc((size_t)argc + 1, sizeof(*keep));
	mcp = sc_xcalloc((size_t)argc + 1, sizeof(*mcp));
	while ((c = sc_getopt(argc, argv, "+hz", longopts, &tool)) != -1) {
		switch (c) {
		case 'z': o.force_records = 1; break;
		case 't':
			if (sc_parse_uint(optarg, MAX_TIMEOUT, &timeout) < 0 ||
			    !timeout)
				sc_usage_error(&tool, "--timeout takes seconds, "
					       "1 to 86400");
			break;
		case 'C': cwd = optarg; break;
		case 'H': config_home = optarg; break;
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
	if (o.nmcp && !config_home)
		sc_usage_error(&tool, "--mcp needs --config-home");
	if (o.nmcp && !(relay = relay_program()))
		sc_die(SC_EXIT_UNAVAILABLE, "MCP-RELAY", "cannot find sc-mcp "
		       "beside sc-acp");
	root = realpath(cwd, NULL);
	if (!root)
		sc_die_errno(SC_EXIT_USAGE, "BAD-CWD", "cannot resolve '%s'", cwd);
	sc_agenthome_init(&home);
	o.argv = argv + optind;
	o.cwd = root;
	o.timeout_ms = (int)timeout * 1000;
	o.home = config_home ? &home : NULL;
	o.keep = keep;
	o.mcp = mcp;
	o.relay = relay;
	if (config_home && sc_agenthome_create(&home, config_home) < 0)
		ret = SC_EXIT_UNAVAILABLE;
	else
		ret = sc_acp_run(&o, STDIN_FILENO, STDOUT_FILENO);
	sc_agenthome_release(&home);
	free(keep);
	free(mcp);
	free(relay);
	free(root);
	return ret;
}
