/* sc_gitconfig_line (where a bad entry is, for a diagnostic) on any bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gitconfig.h"
#include "io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "sandbox.networkhosts",
		"network.npm.hosts", "a.b", "" };
	char path[64];
	int fd = memfd_create("config", MFD_CLOEXEC);

	if (fd < 0 || sc_write_all(fd, data, size) < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (size_t n = 0; n < 4; n++)
		for (size_t k = 0; k < sizeof(names) / sizeof(*names); k++)
			if (sc_gitconfig_line(path, n, names[k]) > size + 1)
				abort();   /* a line the file does not have */
	close(fd);
	return 0;
}
