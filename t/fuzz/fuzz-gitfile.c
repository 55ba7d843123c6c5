/*
 * Fuzz the .git file reader of the sandbox's read-only defaults: any bytes
 * as a linked worktree's ".git" must give a path or nothing, never a crash
 * or a leak; a path it gives is never empty.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>

#include "rootguard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], *p;
	int fd = memfd_create("gitfile", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		p = sc_read_pointer(path, "gitdir: ");
		if (p && !*p)
			abort();
		free(p);
	}
	close(fd);
	return 0;
}
