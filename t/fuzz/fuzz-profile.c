/*
 * Fuzz the profile loader: any bytes as a profile file must give a policy
 * or error[BAD-PROFILE], never a crash or a leak.  libgit2 parses; this
 * covers our handling of what it returns.
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mman.h>

#include "diag.h"
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_sandbox_policy p;
	char path[64];
	int fd = memfd_create("profile", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		sc_sandbox_policy_init(&p);
		(void)sc_profile_load(&p, path, "/proc/self/exe");
		sc_sandbox_policy_release(&p);
	}
	close(fd);
	return 0;
}
