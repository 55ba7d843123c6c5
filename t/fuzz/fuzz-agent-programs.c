/*
 * sc-agent's programs file (agent-programs.h) on arbitrary bytes: no
 * crash, no leak, and a file it accepts names classify, sandbox, mask and
 * a model or an executor, each argv non-empty with no argument longer
 * than the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent-programs.h"
#include "diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_argv(char **v, size_t size)
{
	if (!v || !v[0])
		abort();
	for (size_t i = 0; v[i]; i++)
		if (strlen(v[i]) > size)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_agent_programs p;
	struct sc_input in;
	static int started;

	if (!started) {
		sc_diag_init("fuzz-agent-programs");
		started = 1;
	}
	memset(&p, 0, sizeof(p));
	sc_input_init_mem(&in, data, size);
	if (sc_agent_programs_read(&in, &p) == 0) {
		check_argv(p.classify, size);
		check_argv(p.sandbox, size);
		check_argv(p.mask, size);
		if (!p.model && !p.executor)
			abort();
		for (size_t i = 0; i < p.nr_mcp; i++)
			check_argv(p.mcp[i], size);
	}
	sc_agent_programs_release(&p);
	return 0;
}
