/*
 * The dotenv parser on any bytes: no crash, no read past the input, and
 * every value it reports is a substring-free copy of bounded size.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dotenv.h"

struct totals {
	size_t input, values;
};

static int check(void *ctx, const char *name, const char *value, size_t len)
{
	struct totals *t = ctx;

	/* A value never holds more bytes than the input had. */
	if (!name[0] || len > t->input || value[len] != '\0')
		abort();
	t->values += len;
	if (t->values > t->input)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct totals t = { size, 0 };
	struct sc_dotenv_error err = { 0, NULL };
	/* A copy of exactly SIZE bytes, so ASan sees any read past it. */
	char *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (sc_dotenv_parse(copy, size, check, &t, &err) < 0 &&
	    (!err.what || err.line == 0))
		abort();
	free(copy);
	return 0;
}
