/*
 * The usage counts' reader and printer (usage.h) on arbitrary bytes: no
 * crash, and a number printed reads back as the same double (the
 * shortest digits are still the number), so the two views cannot drift
 * from one sum.
 */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "usage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = sc_xmemdup(data, size);
	struct sc_buf b = SC_BUF_INIT;
	double d = sc_usage_number(s), f = sc_usage_floor(d);

	sc_usage_format(&b, d);
	if (d == d && d <= DBL_MAX && d >= -DBL_MAX &&
	    sc_usage_number(b.data) != d)
		abort();
	/* Rounded down, by less than one, where doubles have fractions. */
	if (d > -4503599627370496.0 && d < 4503599627370496.0 &&
	    (f > d || f + 1 <= d))
		abort();
	sc_buf_release(&b);
	free(s);
	return 0;
}
