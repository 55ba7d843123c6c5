/*
 * sc-attest record --evidence's reader on arbitrary bytes: no crash, no
 * leak, and a predicate it builds is one verify accepts (the build side
 * and the check side share one definition) and encodes canonically.
 */
#include <stdint.h>
#include <stdlib.h>

#include "diag.h"
#include "intoto.h"
#include "io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sc_input in;   /* 64 KiB: not on the fuzzer's stack */
	static int ready;
	struct sc_buf canon = SC_BUF_INIT;
	const char *why;
	json_t *pred = NULL;

	if (!ready) {
		sc_diag_init("fuzz-evidence");
		ready = 1;
	}
	sc_input_init_mem(&in, data, size);
	if (sc_intoto_task_predicate(&in, &pred) == 0) {
		if (!pred ||
		    sc_intoto_check_predicate(SC_PREDICATE_TASK, pred, &why) ||
		    sc_canonical_json(pred, &canon))
			abort();
	} else if (pred) {
		abort();
	}
	json_decref(pred);
	sc_buf_release(&canon);
	return 0;
}
