#ifndef SC_SECCOMP_FILTER_H
#define SC_SECCOMP_FILTER_H

/*
 * Named seccomp-filter.h, not seccomp.h: lib/ is on the include path, and
 * a lib/sandbox/seccomp.h would hide libseccomp's <seccomp.h> from every file.
 */
/*
 * The system-call filter sc-sandbox-exec loads last, right before execve.
 * Built with libseccomp (lib/sandbox/seccomp.c) once, at build time: running
 * libseccomp at every start cost about 1.5 ms.  libseccomp handles
 * architectures: the filter is for the native architecture only, and a
 * system call made through another ABI (x32, int 0x80) kills the process.  seccomp cannot read pointer
 * arguments, so it cannot judge a connect() address: network reach is the
 * network namespace's job and Landlock's.
 */

#include "profile.h"  /* enum sc_net_mode */

/* 1 when this kernel has seccomp filters (checked without loading one). */
int sc_seccomp_available(void);

/*
 * Load the filter for NET into the calling thread (lib/sandbox/seccomp-load.c: the
 * program compiled at build time).  no_new_privs must be set.  -1 (with a
 * diagnostic) when it cannot be loaded.
 */
int sc_seccomp_apply(enum sc_net_mode net);

/*
 * Build the filter for NET with libseccomp and write it to FD as raw BPF
 * (struct sock_filter, native byte order).  For the build only
 * (build-aux/gen-seccomp); -1 with a diagnostic on error.
 */
int sc_seccomp_export(enum sc_net_mode net, int fd);

#endif
