#include <errno.h>
#include <sys/stat.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <netinet/in.h>
#include <linux/sched.h>

#include "diag.h"
#include <seccomp.h>

#include "seccomp-filter.h"

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#define TIOCSTI_NR 0x5412
#define TIOCLINUX_NR 0x541C
#define AF_LIMIT 64   /* above AF_MAX of any kernel in sight */

/*
 * Calls a confined command never needs and attackers use: to reach other
 * processes (ptrace, process_vm_*), the kernel's big attack surfaces
 * (io_uring can open sockets without socket(); bpf, perf_event_open,
 * userfaultfd, keyctl), and every way to change mounts or namespaces,
 * which would undo the sandbox's own mounts.
 */
static const int denied[] = {
	SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev,
	SYS_keyctl, SYS_add_key, SYS_request_key, SYS_bpf,
	SYS_perf_event_open, SYS_userfaultfd,
	SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot, SYS_setns,
	SYS_open_tree, SYS_move_mount, SYS_fsopen, SYS_fsconfig, SYS_fsmount,
	SYS_fspick, SYS_mount_setattr,
	SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register,
	SYS_open_by_handle_at, SYS_name_to_handle_at,
	SYS_kexec_load, SYS_kexec_file_load, SYS_init_module,
	SYS_finit_module, SYS_delete_module, SYS_iopl, SYS_ioperm,
	SYS_swapon, SYS_swapoff, SYS_reboot, SYS_acct, SYS_quotactl,
	SYS_uselib, SYS_vhangup, SYS_pidfd_getfd,
#ifdef SYS_quotactl_fd
	SYS_quotactl_fd,
#endif
};

/* Namespace flags: a nested user namespace would give back capabilities. */
static const unsigned long ns_flags[] = {
	CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWIPC,
	CLONE_NEWUTS, CLONE_NEWCGROUP,
};

#define DENY SCMP_ACT_ERRNO(EPERM)

static int deny_ns_flags(scmp_filter_ctx ctx)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < sizeof(ns_flags) / sizeof(*ns_flags) && !rc; i++) {
		unsigned long f = ns_flags[i];

		/* clone: flags are argument 0 on x86-64 and most others. */
		rc = seccomp_rule_add(ctx, DENY, SCMP_SYS(clone), 1,
				      SCMP_A0_64(SCMP_CMP_MASKED_EQ, f, f));
		if (!rc)
			rc = seccomp_rule_add(ctx, DENY, SCMP_SYS(unshare), 1,
					      SCMP_A0_32(SCMP_CMP_MASKED_EQ, f, f));
	}
	if (!rc)
		rc = seccomp_rule_add(ctx, DENY, SCMP_SYS(unshare), 1,
				      SCMP_A0_32(SCMP_CMP_MASKED_EQ,
						 CLONE_NEWTIME, CLONE_NEWTIME));
	return rc;
}

/*
 * Socket families: AF_UNIX always; AF_INET and AF_INET6 unless the mode
 * is none; never packet, netlink, vsock, alg or anything else.  Raw and
 * packet socket types and Multipath TCP are refused in every mode.
 */
static int filter_sockets(scmp_filter_ctx ctx, enum sc_net_mode net)
{
	unsigned af;
	int rc = 0;

	for (af = 0; af < AF_LIMIT && !rc; af++) {
		if (af == AF_UNIX ||
		    (net != SC_NET_NONE && (af == AF_INET || af == AF_INET6)))
			continue;
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT),
				      SCMP_SYS(socket), 1,
				      SCMP_A0_32(SCMP_CMP_EQ, af, 0));
	}
	if (!rc)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT),
				      SCMP_SYS(socket), 1,
				      SCMP_A0_32(SCMP_CMP_GE, AF_LIMIT, 0));
	if (!rc)
		rc = seccomp_rule_add(ctx, DENY, SCMP_SYS(socket), 1,
				      SCMP_A1_32(SCMP_CMP_MASKED_EQ, 0xf, SOCK_RAW));
	if (!rc)
		rc = seccomp_rule_add(ctx, DENY, SCMP_SYS(socket), 1,
				      SCMP_A1_32(SCMP_CMP_MASKED_EQ, 0xf,
						 SOCK_PACKET));
	if (!rc)
		rc = seccomp_rule_add(ctx, DENY, SCMP_SYS(socket), 1,
				      SCMP_A2_32(SCMP_CMP_EQ, IPPROTO_MPTCP, 0));
	return rc;
}

/*
 * personality: only PER_LINUX (0) and the query (0xffffffff).  libseccomp
 * takes one comparison per argument in a rule, so the values between are
 * covered as a union: every such value has, somewhere in its 32 bits read
 * as a ring, a set bit followed by a clear one.
 */
static int filter_personality(scmp_filter_ctx ctx)
{
	unsigned i;
	int rc = 0;

	for (i = 0; i < 32 && !rc; i++) {
		uint32_t one = 1U << i, zero = 1U << ((i + 1) % 32);

		rc = seccomp_rule_add(ctx, DENY, SCMP_SYS(personality), 1,
				      SCMP_A0_32(SCMP_CMP_MASKED_EQ, one | zero,
						 one));
	}
	return rc;
}

/*
 * No set-id bit on a file the command makes or changes: the root is the
 * person's own tree, and a set-uid program written there (by root, for a
 * person who runs speccoder as root) would run as its owner outside.
 * ARG is the index of the mode argument of each call.
 */
static int filter_setid_modes(scmp_filter_ctx ctx)
{
	static const struct { const char *name; unsigned arg; } calls[] = {
		{ "chmod", 1 }, { "fchmod", 1 }, { "fchmodat", 2 },
		{ "fchmodat2", 2 }, { "open", 2 }, { "openat", 3 },
		{ "creat", 1 }, { "mknod", 1 }, { "mknodat", 2 },
	};
	static const uint32_t bits[] = { S_ISUID, S_ISGID };
	int rc = 0;

	for (size_t i = 0; i < sizeof(calls) / sizeof(*calls) && !rc; i++) {
		int nr = seccomp_syscall_resolve_name(calls[i].name);

		if (nr == __NR_SCMP_ERROR)
			continue;   /* a call this libseccomp does not know */
		for (size_t b = 0; b < 2 && !rc; b++) {
			struct scmp_arg_cmp cmp = {
				calls[i].arg, SCMP_CMP_MASKED_EQ, bits[b], bits[b]
			};
			rc = seccomp_rule_add_array(ctx, DENY, nr, 1, &cmp);
		}
	}
	return rc;
}

static int build(scmp_filter_ctx ctx, enum sc_net_mode net)
{
	size_t i;
	int rc;

	rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
			      SCMP_ACT_KILL_PROCESS);
	/*
	 * A binary tree of system-call numbers, not a list: loading the
	 * filter costs the kernel a walk of it for every number (its cache
	 * of always-allowed calls) and a JIT pass over it, and the tree
	 * took seccomp() from about 205 to 145 microseconds here.
	 */
	if (!rc)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	for (i = 0; i < sizeof(denied) / sizeof(*denied) && !rc; i++)
		rc = seccomp_rule_add(ctx, DENY, denied[i], 0);
	/* clone3's flags sit behind a pointer: ENOSYS makes libc use clone. */
	if (!rc)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
				      SCMP_SYS(clone3), 0);
	if (!rc)
		rc = deny_ns_flags(ctx);
	/* Typing into the terminal's input queue escapes any sandbox. */
	if (!rc)
		rc = seccomp_rule_add(ctx, DENY, SCMP_SYS(ioctl), 1,
				      SCMP_A1_32(SCMP_CMP_EQ, TIOCSTI_NR, 0));
	if (!rc)
		rc = seccomp_rule_add(ctx, DENY, SCMP_SYS(ioctl), 1,
				      SCMP_A1_32(SCMP_CMP_EQ, TIOCLINUX_NR, 0));
	if (!rc)
		rc = filter_personality(ctx);
	if (!rc)
		rc = filter_setid_modes(ctx);
	if (!rc)
		rc = filter_sockets(ctx, net);
	return rc;
}

/*
 * Build time only (build-aux/gen-seccomp): sc-sandbox-exec loads the
 * program written here, compiled into lib/sandbox/seccomp-load.c, instead of
 * running libseccomp at every start.
 */
int sc_seccomp_export(enum sc_net_mode net, int fd)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc;

	if (!ctx)
		return sc_error("SECCOMP-FAILED", "cannot initialise libseccomp");
	rc = build(ctx, net);
	if (!rc)
		rc = seccomp_export_bpf(ctx, fd);
	seccomp_release(ctx);
	if (rc) {
		errno = -rc;
		return sc_error_errno("SECCOMP-FAILED",
				      "cannot build the system-call filter");
	}
	return 0;
}
