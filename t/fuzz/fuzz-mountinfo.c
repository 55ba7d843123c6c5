/*
 * The mount table reader on any bytes (as /proc/self/mountinfo): no crash,
 * no read past the input, and every mount it keeps has an absolute root
 * and mount point and a type flag of 0 or 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mountinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/sc-fuzz-mountinfo.XXXXXX";
	struct sc_mount_table t = SC_MOUNT_TABLE_INIT;
	struct sc_strlist out = { NULL, 0, 0 };
	int fd = mkstemp(path);
	size_t i;

	if (fd < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	(void)sc_mount_table_read(&t, path);
	unlink(path);
	for (i = 0; i < t.nr; i++)
		if (t.m[i].root[0] != '/' || t.m[i].point[0] != '/' ||
		    (t.m[i].pseudo != 0 && t.m[i].pseudo != 1))
			abort();
	/* Aliases of a path that exists everywhere: no crash, each absolute. */
	sc_mount_aliases(&t, "/", &out);
	for (i = 0; i < out.nr; i++)
		if (out.v[i][0] != '/')
			abort();
	sc_strlist_release(&out);
	sc_mount_table_release(&t);
	return 0;
}
