/*
 * The audit reader and judge of sc-tree on arbitrary bytes: no crash, no
 * leak, and an audit it judges allowed has every change paired with an
 * allow verdict and nothing refused.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "io.h"
#include "tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int allowed(const struct sc_tree_audit *a, size_t i)
{
	const char *id = sc_record_str(&a->changes[i], "id");
	const char *vid, *d;
	size_t k;

	if (!id || sc_record_str(&a->changes[i], "refuse"))
		return 0;
	for (k = 0; k < a->nv; k++) {
		vid = sc_record_str(&a->verdicts[k], "id");
		if (vid && !strcmp(vid, id)) {
			d = sc_record_str(&a->verdicts[k], "decision");
			return d && !strcmp(d, "allow");
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int null_fd = -1;
	struct sc_tree_audit a;
	struct sc_input in;
	struct sc_output out;
	size_t i;

	if (null_fd < 0) {
		sc_diag_init("fuzz-tree-audit");
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	}
	sc_input_init_mem(&in, data, size);
	sc_output_init(&out, null_fd);
	if (sc_tree_audit_read(&a, &in) == SC_TREE_OK &&
	    sc_tree_audit_judge(&a, &out) == SC_TREE_OK)
		for (i = 0; i < a.nr; i++)
			if (!allowed(&a, i))
				abort();
	sc_tree_audit_release(&a);
	sc_output_release(&out);
	return 0;
}
