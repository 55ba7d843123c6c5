/*
 * find's expression parser and evaluator, and fd's parser and filters, on
 * any words (NUL-separated input after "find" and "fd"): every action must
 * lie inside the words, and evaluation on a few files must terminate
 * without touching memory it does not own.
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

static void check_fd(const char **argv, size_t n,
		     const struct sc_find_file *files, size_t nr)
{
	struct sc_fd fd;
	size_t k;

	argv[0] = "fd";
	sc_fd_init(&fd);
	if (sc_fd_parse(&fd, argv, n) == 0) {
		if (fd.has_action && (fd.action.from >= fd.action.to ||
				      fd.action.to > n))
			abort();
		if (fd.pattern >= (long)n)
			abort();
		for (k = 0; k < fd.nr_paths; k++)
			if (fd.paths[k] >= n)
				abort();
		for (k = 0; k < fd.nr_exts; k++)
			if (fd.exts[k] >= n)
				abort();
		for (k = 0; k < nr; k++)
			if (sc_fd_match(&fd, argv, &files[k]) & ~3)
				abort();
	} else if (!fd.error) {
		abort();
	}
	sc_fd_release(&fd);
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
	check_fd(argv, n, files, sizeof(files) / sizeof(*files));
	free(argv);
	free(copy);
	return 0;
}
