/* The grants reader on arbitrary bytes, through a memory file. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diag.h"
#include "io.h"
#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sc_policy p;
	static int ready;
	int fd;

	if (!ready) {
		sc_diag_init("fuzz-grants");
		if (sc_policy_init(&p, "/tmp", SC_MODE_WORKTREE, 0, NULL) < 0)
			abort();
		ready = 1;
	}
	fd = memfd_create("grants", MFD_CLOEXEC);
	if (fd < 0 || sc_write_all(fd, data, size) < 0 ||
	    lseek(fd, 0, SEEK_SET) < 0)
		abort();
	sc_policy_load_grants(&p, fd);
	close(fd);
	sc_strlist_release(&p.grants);
	return 0;
}
