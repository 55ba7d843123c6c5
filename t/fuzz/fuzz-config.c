/*
 * speccoder.conf through libgit2 and the word splitter, on arbitrary text,
 * through the one reader every tool uses.  The properties of what loads:
 * mask.allowFingerprint holds only fingerprints of the form --scan prints
 * (16 lower-case hex digits); [sandbox] gives only gaps --accept-gaps
 * would accept and only words the command line takes; every executor and
 * MCP server with settings has a command it can run or none.
 */
#include <stdint.h>
#include <stdlib.h>

#include "config.h"
#include "diag.h"
#include "env.h"
#include "scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_sandbox(const struct sc_sandbox_policy *p)
{
	size_t i;

	for (i = 0; i < p->accept_gaps.nr; i++)
		if (!sc_sandbox_gap_acceptable(p->accept_gaps.v[i]))
			abort();
	if (p->net > SC_NET_HOSTS || p->net < -1 || p->env > SC_ENV_SHORT ||
	    p->env < -1 || p->mode > SC_SANDBOX_MODE_OFF ||
	    p->mode < SC_SANDBOX_MODE_UNSET)
		abort();
	/* speccoder.conf cannot make the root read-only or set limits: the
	 * drivers decide those for a project. */
	if (p->root_read_only || p->timeout_ms != -1 || p->max_output != -1 ||
	    p->allow_hosts.nr)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_config cfg;
	static int init;
	size_t i;

	if (!init) {
		sc_diag_init("fuzz-config");
		init = 1;
	}

	sc_config_init(&cfg);
	if (sc_config_load_mem(&cfg, (const char *)data, size) == SC_CONFIG_OK) {
		for (i = 0; i < cfg.allow_fps.nr; i++)
			if (!sc_fingerprint_valid(cfg.allow_fps.v[i]))
				abort();
		check_sandbox(&cfg.sandbox);
		if (cfg.executor.argv && !cfg.executor.argc)
			abort();
		if (cfg.executor.env.nr && !cfg.executor.argv)
			abort();
		for (i = 0; i < cfg.nr_servers; i++)
			if (cfg.servers[i].conf.argv &&
			    !cfg.servers[i].conf.argc)
				abort();
	}
	sc_config_release(&cfg);
	return 0;
}
