#ifndef SC_SECCOMP_FILTER_H
#define SC_SECCOMP_FILTER_H

/*
 * Named seccomp-filter.h, not seccomp.h: lib/ is on the include path, and
 * a lib/seccomp.h would hide libseccomp's <seccomp.h> from every file.
 */
/*
 * The system-call filter sc-sandbox-exec loads last, right before execve.
 * Built with libseccomp, which handles architectures: the filter is for
 * the native architecture only, and a system call made through another
 * ABI (x32, int 0x80) kills the process.  seccomp cannot read pointer
 * arguments, so it cannot judge a connect() address: network reach is the
 * network namespace's job and Landlock's.
 */

enum sc_net_mode {
	SC_NET_NONE = 0,   /* no network at all, not even loopback */
	SC_NET_LOOPBACK,   /* a network namespace of its own with only lo */
	SC_NET_FULL,       /* the host's network */
};

/* 1 when this kernel has seccomp filters (checked without loading one). */
int sc_seccomp_available(void);

/*
 * Load the filter for NET into the calling thread.  no_new_privs must be
 * set.  -1 (with a diagnostic) when it cannot be built or loaded.
 */
int sc_seccomp_apply(enum sc_net_mode net);

#endif
