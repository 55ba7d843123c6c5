/*
 * The allowed_signers parser on arbitrary bytes: no crash, no leak, and
 * every entry it accepts has principals and either a key or a reason.
 */
#include <stdint.h>
#include <stdlib.h>

#include "signers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_signers s = SC_SIGNERS_INIT;
	struct sc_signers_error err;
	size_t i;

	if (sc_signers_parse(&s, (const char *)data, size, &err) == 0) {
		for (i = 0; i < s.nr; i++)
			if (!s.v[i].principals ||
			    (s.v[i].key.type == SC_KEY_NONE && !s.v[i].unsupported))
				abort();
	} else if (!err.why || s.nr > size) {
		abort();
	}
	sc_signers_release(&s);
	return 0;
}
