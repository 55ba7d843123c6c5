/*
 * The path resolver on arbitrary paths against a small fixed tree with
 * symlinks: it must never crash, and what it calls OK must be inside the
 * root and free of "..".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "paths.h"

static struct sc_root root;
static int ready;

static void setup(void)
{
	char dir[] = "/tmp/sc-fuzz-paths.XXXXXX";
	char p[256];

	if (!mkdtemp(dir))
		abort();
	snprintf(p, sizeof(p), "%s/src", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/src/up", dir);
	symlink("..", p);
	snprintf(p, sizeof(p), "%s/out", dir);
	symlink("/etc", p);
	snprintf(p, sizeof(p), "%s/self", dir);
	symlink("self", p);
	if (sc_root_init(&root, dir) < 0)
		abort();
	ready = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_path p;
	struct sc_buf f = SC_BUF_INIT;
	unsigned flags = size && (data[0] & 1) ? SC_PATH_WRITE : 0;

	if (!ready)
		setup();
	sc_path_init(&p);
	if (sc_path_resolve(&root, size > 1 && (data[0] & 2) ? "src" : "",
			    (const char *)data, size, flags, &p) == SC_PATH_OK) {
		size_t n = strlen(p.rel);

		if (p.rel[0] == '/' || !strcmp(p.rel, "..") ||
		    !strncmp(p.rel, "../", 3) || strstr(p.rel, "/../") ||
		    (n >= 3 && !strcmp(p.rel + n - 3, "/..")))
			abort();
	}
	sc_path_release(&p);
	sc_path_fold((const char *)data, size, &f);
	sc_buf_release(&f);
	return 0;
}
