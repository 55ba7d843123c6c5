/*
 * no-landlock: run a command on a kernel that seems to have no Landlock.
 *
 *   no-landlock PROGRAM [ARG...]
 *
 * Loads a seccomp filter under which the three Landlock system calls fail
 * with ENOSYS (what a kernel built without Landlock answers), then executes
 * PROGRAM.  The escape suite runs sc-sandbox-exec under it to check that
 * the sandbox fails closed: a "best effort" that reports success with no
 * Landlock at all is a known bug class.  Exit 2 on a usage or set-up error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* The same numbers on every architecture (the unified syscall table). */
#define NR_LANDLOCK_FIRST 444   /* landlock_create_ruleset */
#define NR_LANDLOCK_LAST 446    /* landlock_restrict_self */

int main(int argc, char **argv)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, NR_LANDLOCK_FIRST, 0, 2),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, NR_LANDLOCK_LAST, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };

	if (argc < 2) {
		fprintf(stderr, "usage: no-landlock PROGRAM [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0) {
		fprintf(stderr, "no-landlock: cannot load the filter: %s\n",
			strerror(errno));
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no-landlock: cannot run '%s': %s\n", argv[1],
		strerror(errno));
	return 2;
}
