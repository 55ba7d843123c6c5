/*
 * The dynamically linked twin of a statically linked tool: see twin.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "twin.h"

int sc_twin_exec(const char *name, const char *exe, char *const argv[])
{
	extern char **environ;
	struct sc_buf path = SC_BUF_INIT;
	char *dir = realpath(exe, NULL), *slash = dir ? strrchr(dir, '/') : NULL;
	int err;

	if (!slash) {
		free(dir);
		return sc_error_errno("TWIN-MISSING", "cannot find where %s is "
				      "installed", name);
	}
	*slash = '\0';
	sc_buf_addf(&path, "%s/../libexec/speccoder/%s", dir, name);
	free(dir);
	execve(path.data, argv, environ);
	err = errno;
	sc_error("TWIN-MISSING", "cannot run '%s' (a profile, a configuration "
		 "and --network hosts need this dynamically linked build): %s",
		 path.data, strerror(err));
	sc_buf_release(&path);
	return -1;
}
