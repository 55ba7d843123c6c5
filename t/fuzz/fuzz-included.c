/*
 * The secrets of an included file (sc_secrets_from_included) on any bytes:
 * no crash, no read past the input, a known kind, and no secret longer than
 * the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "secrets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_secrets s;
	/* A copy of exactly SIZE bytes, so ASan sees any read past it. */
	char *copy = malloc(size ? size : 1);
	size_t i;
	int kind;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	sc_secrets_init(&s);
	kind = sc_secrets_from_included(&s, "f", copy, size);
	if (kind != SC_INCLUDED_DOTENV && kind != SC_INCLUDED_KEY)
		abort();
	for (i = 0; i < s.nr; i++)
		if (s.v[i].value.len > size || !s.v[i].name[0])
			abort();
	sc_secrets_release(&s);
	free(copy);
	return 0;
}
