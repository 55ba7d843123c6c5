/* libFuzzer: the --protect pattern parser and matcher. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "pattern.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_pattern_error err = { 0, NULL };
	struct sc_patterns p;
	const uint8_t *sep = memchr(data, '\0', size);
	size_t plen = sep ? (size_t)(sep - data) : size;
	char *path;

	/* patterns, then a NUL, then a path to match them against */
	sc_patterns_init(&p);
	sc_patterns_parse(&p, (const char *)data, plen, &err);
	path = sc_xmemdup(sep ? sep + 1 : data, sep ? size - plen - 1 : 0);
	if (strlen(path) < 4096) {
		sc_patterns_match(&p, path, 0);
		sc_patterns_match(&p, path, 1);
	}
	if (p.nr)
		sc_wildmatch(p.v[0].text, path, (int)(size & 1));
	free(path);
	sc_patterns_release(&p);
	return 0;
}
