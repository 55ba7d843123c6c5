/*
 * sc-mcp --relay: see mcprelay.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "io.h"
#include "mcprelay.h"
#include "opt.h"

/*
 * Connect to PATH; one longer than sun_path holds is reached through
 * its directory's descriptor (sc-acp binds it the same way).
 */
static int connect_to(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char *copy = sc_xstrdup(path), *copy2 = sc_xstrdup(path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), dirfd = -1;
	int ret = -1;

	if (fd < 0)
		goto out;
	if (strlen(path) < sizeof(sa.sun_path)) {
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	} else {
		dirfd = open(dirname(copy), O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0)
			goto out;
		snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s",
			 dirfd, basename(copy2));
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		ret = fd;
		fd = -1;
	}
out:
	if (fd >= 0)
		close(fd);
	if (dirfd >= 0)
		close(dirfd);
	free(copy);
	free(copy2);
	return ret;
}

/* Copy what FROM has (one read) to TO: 1, 0 at its end, -1 on error. */
static int copy_once(int from, int to)
{
	char buf[65536];
	ssize_t n;

	do
		n = read(from, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return n == 0 ? 0 : -1;
	return sc_write_all(to, buf, (size_t)n) < 0 ? -1 : 1;
}

int sc_mcp_relay_run(const char *path, int in, int out)
{
	int sock = connect_to(path), in_open = 1, st;

	if (sock < 0) {
		sc_error_errno("MCP-RELAY", "cannot reach speccoder's MCP "
			       "socket '%s'", path);
		return SC_EXIT_UNAVAILABLE;
	}
	/* Until sc-acp closes: an agent that ends its input first still
	 * gets the answers of what it sent. */
	for (;;) {
		struct pollfd p[2] = {
			{ sock, POLLIN, 0 },
			{ in_open ? in : -1, POLLIN, 0 },
		};

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[0].revents) {
			st = copy_once(sock, out);
			if (st <= 0) {
				close(sock);
				return st < 0 ? SC_EXIT_INTERNAL : SC_EXIT_OK;
			}
		}
		if (in_open && p[1].revents) {
			st = copy_once(in, sock);
			if (st < 0)
				break;
			if (st == 0) {
				in_open = 0;
				(void)shutdown(sock, SHUT_WR);
			}
		}
	}
	sc_error_errno("MCP-RELAY", "the relay failed");
	close(sock);
	return SC_EXIT_INTERNAL;
}
