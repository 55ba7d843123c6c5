/*
 * Loading the seccomp filter compiled at build time (build-aux/gen-seccomp
 * wrote it from the rules in lib/sandbox/seccomp.c).  The same program libseccomp's
 * seccomp_load would load, without building it again at every start.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "diag.h"
#include "seccomp-filter.h"
#include "seccomp-bpf.h"

int sc_seccomp_available(void)
{
	/* PR_GET_SECCOMP fails with EINVAL when seccomp is compiled out. */
	return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

int sc_seccomp_apply(enum sc_net_mode net)
{
	struct sock_fprog prog;

	/* Only the socket families differ: none refuses AF_INET and AF_INET6. */
	if (net == SC_NET_NONE) {
		prog.filter = (struct sock_filter *)sc_seccomp_net_none;
		prog.len = sizeof(sc_seccomp_net_none) / sizeof(*prog.filter);
	} else {
		prog.filter = (struct sock_filter *)sc_seccomp_net_inet;
		prog.len = sizeof(sc_seccomp_net_inet) / sizeof(*prog.filter);
	}
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return sc_error_errno("SECCOMP-FAILED",
				      "cannot load the system-call filter");
	return 0;
}
