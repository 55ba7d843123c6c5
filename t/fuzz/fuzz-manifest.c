/* libFuzzer: the manifest reader of sc-hash-git --check, and the
 * comparison of what it read with itself and with an empty manifest. */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "diag.h"
#include "githash.h"
#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int devnull = -1;
	struct sc_githash_manifest m, empty;
	struct sc_input in;
	struct sc_reader rd;
	struct sc_output out;
	size_t n;

	if (devnull < 0) {
		sc_diag_init("fuzz-manifest");
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	}
	sc_githash_manifest_init(&m);
	sc_githash_manifest_init(&empty);
	sc_input_init_mem(&in, data, size);
	sc_reader_init(&rd, &in);
	rd.max = 1 << 16;
	if (sc_githash_read(&rd, &m) == 0) {
		sc_output_init(&out, devnull);
		sc_githash_compare(&m, &m, &out, &n);
		if (n)
			__builtin_trap(); /* a manifest equals itself */
		sc_githash_compare(&m, &empty, &out, &n);
		sc_githash_write(&m, &out);
		sc_output_flush(&out);
		sc_output_release(&out);
	}
	sc_githash_manifest_release(&m);
	return 0;
}
