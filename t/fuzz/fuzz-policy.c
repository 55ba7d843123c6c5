/*
 * The whole policy on an arbitrary shell line (first byte picks the mode
 * and whether it goes in as a shell line or one argv word).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sc_policy p;
	static int ready;
	struct sc_record call;
	struct sc_verdict v;

	if (!size)
		return 0;
	if (!ready) {
		if (sc_policy_init(&p, "/tmp", SC_MODE_WORKTREE, 0, NULL) < 0)
			abort();
		ready = 1;
	}
	p.mode = (enum sc_mode)(data[0] & 3);
	sc_record_init(&call);
	sc_verdict_init(&v);
	sc_record_adds(&call, "type", "call");
	sc_record_adds(&call, "tool", (data[0] & 8) ? "write" : "run");
	sc_record_add(&call, (data[0] & 8) ? "path" : (data[0] & 4) ? "argv"
		      : "shell", data + 1, size - 1);
	sc_policy_judge(&p, &call, &v);
	if (v.decision < 0 || v.decision > 2 || !v.rule)
		abort();
	sc_verdict_release(&v);
	sc_record_release(&call);
	return 0;
}
