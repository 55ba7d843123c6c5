/* libFuzzer: the --before file of sc-agent, the end record of the run's
 * loop before, whose run-* counts start this loop's. */
#include <stddef.h>
#include <stdint.h>

#include "agent.h"
#include "diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	struct sc_agent_counts c;

	if (!init) {
		sc_diag_init("fuzz-agent-before");
		init = 1;
	}
	if (sc_agent_parse_before(data, size, &c) < 0 &&
	    (c.turns || c.allowed || c.asked || c.denied))
		__builtin_trap(); /* a refused file counts nothing */
	return 0;
}
