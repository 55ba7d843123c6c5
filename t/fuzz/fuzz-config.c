/*
 * speccoder.conf through libgit2 and the word splitter, on arbitrary text.
 * The property of mask.allowFingerprint: a file that loads holds only
 * fingerprints of the form --scan prints (16 lower-case hex digits).
 */
#include <stdint.h>
#include <stdlib.h>

#include "config.h"
#include "diag.h"
#include "scan.h"

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
	if (sc_config_load_mem(&cfg, (const char *)data, size) == SC_CONFIG_OK)
		for (i = 0; i < cfg.nr_allow_fps; i++)
			if (!sc_scan_fingerprint_valid(cfg.allow_fps[i]))
				abort();
	sc_config_release(&cfg);
	return 0;
}
