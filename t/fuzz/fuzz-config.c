/* speccoder.conf through libgit2 and the word splitter, on arbitrary text. */
#include <stdint.h>

#include "config.h"
#include "diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_config cfg;
	static int init;

	if (!init) {
		sc_diag_init("fuzz-config");
		init = 1;
	}
	sc_config_init(&cfg);
	sc_config_load_mem(&cfg, (const char *)data, size);
	sc_config_release(&cfg);
	return 0;
}
