#ifndef SC_SANDBOX_LINUX_H
#define SC_SANDBOX_LINUX_H

/*
 * sc-sandbox-exec on Linux: run one command confined.
 *
 * Two tiers.  The full tier clones the command's init into new user,
 * mount, PID, network and IPC namespaces, makes every mount read-only,
 * binds the root and the writable paths back writable, --read-only paths
 * and the root's read-only defaults (rootguard.h) read-only inside them,
 * masks credential paths and the Unix sockets it finds, mounts a /proc of
 * its own and a private TMPDIR as a tmpfs inside its own /dev/shm (nothing
 * on disk).  The init starts the command sharing its memory until execve
 * (as posix_spawn does), and when it ends kills and reaps what is left
 * before it reports the status.  Both tiers then
 * start the command in a session of its own with stdin on /dev/null,
 * descriptors above 2 closed, every capability dropped, no_new_privs,
 * Landlock (ABI >= 3) and, last before execve, the seccomp filter.  The
 * Landlock tier (no user namespaces) has only the second half and names
 * what it cannot enforce.
 *
 * The supervisor (the calling process) enforces --timeout and
 * --max-output, forwards the command's status and kills everything the
 * command started when it ends: through the PID namespace in the full tier,
 * as a child subreaper in the Landlock tier, where TMPDIR is on disk and a
 * janitor in a session of its own removes it if the supervisor is killed.
 */

#include "profile.h"
#include "sandbox.h"

/*
 * Run ARGV under POL (defaults already applied) with the environment built
 * from ENVP.  Returns the exit status sc-sandbox-exec should end with.
 */
int sc_sandbox_exec(const struct sc_sandbox_policy *pol, char *const argv[],
		    char *const envp[]);

/*
 * Write the host's capabilities as records on FD (a table when FD is a
 * terminal, unless FORCE_RECORDS).  0, or -1 on error.
 */
int sc_sandbox_probe(const struct sc_sandbox_policy *pol, int fd,
		     int force_records);

#endif
