/*
 * sc-mutation's readers (the summary line of a mutation tool's output, its
 * JSON report) on arbitrary bytes: no crash, and every score read has
 * KILLED at most TOTAL.
 */
#include <stdint.h>
#include <stdlib.h>

#include "mutation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_mutation_score s;
	const char *why;

	if (!sc_mutation_parse_summary((const char *)data, size, &s, &why) &&
	    s.killed > s.total)
		abort();
	if (!sc_mutation_parse_report((const char *)data, size, &s, &why) &&
	    s.killed > s.total)
		abort();
	return 0;
}
