/*
 * find's expression parser and evaluator on any words (NUL-separated
 * input after "find"): every action must lie inside the words, and
 * evaluation on a few files must terminate without touching memory it
 * does not own.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "findargs.h"

static void reach(size_t action, void *arg)
{
	size_t *nr = arg;

	if (action >= nr[0])
		abort();
	nr[1]++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct sc_find_file files[] = {
		{ ".", ".", S_IFDIR, 0 },
		{ "config", "./.git/config", S_IFREG, 2 },
		{ ".env", "./.env", S_IFREG, 1 },
		{ "link", "./src/link", S_IFLNK, 2 },
	};
	char *copy = sc_xmemdup(data, size);
	const char **argv = sc_xcalloc(size + 2, sizeof(*argv));
	struct sc_find f;
	size_t n = 1, i = 0, k, nr[2];

	argv[0] = "find";
	while (i < size) {
		argv[n++] = copy + i;
		i += strlen(copy + i) + 1;
	}
	sc_find_init(&f);
	if (sc_find_parse(&f, argv, n) == 0) {
		if (f.start_from > f.start_to || f.start_to > n)
			abort();
		for (k = 0; k < f.nr_actions; k++)
			if (f.actions[k].kind != SC_FIND_DELETE &&
			    (f.actions[k].from >= f.actions[k].to ||
			     f.actions[k].to > n))
				abort();
		for (k = 0; k < f.nr_writes; k++)
			if (f.writes[k] >= n)
				abort();
		nr[0] = f.nr_actions;
		for (k = 0; k < sizeof(files) / sizeof(*files); k++) {
			nr[1] = 0;
			sc_find_eval(&f, argv, &files[k], reach, nr);
		}
	} else if (!f.error) {
		abort();
	}
	sc_find_release(&f);
	free(argv);
	free(copy);
	return 0;
}
