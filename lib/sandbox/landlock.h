#ifndef SC_LANDLOCK_H
#define SC_LANDLOCK_H

/*
 * Landlock, without a library: three system calls.  Landlock only grants:
 * a process restricted by a ruleset may do what some rule allows and
 * nothing else the ruleset handles.  It cannot take back a right granted
 * on a parent directory (a read-only .git under a writable root needs a
 * mount); it covers connect() to Unix sockets on disk only from ABI 9,
 * and never chmod/chown/utime outside writable paths or UDP: other layers
 * do.
 */

#include <stdint.h>

/* The kernel's Landlock ABI version; 0 when Landlock is unavailable. */
int sc_landlock_abi(void);

/* The access classes a rule grants. */
enum sc_landlock_access {
	SC_LL_READ = 1,   /* execute, read files, list directories */
	SC_LL_WRITE = 2,  /* everything, beneath the path */
	SC_LL_DEV = 4,    /* write and ioctl on device files beneath */
};

struct sc_landlock {
	int abi;
	int fd;                 /* the ruleset; -1 when closed */
	uint64_t handled_fs;    /* what this ruleset restricts */
};

/*
 * Create a ruleset handling every file-system right ABI knows, TCP bind
 * and connect when DENY_TCP (ABI >= 4), and, from ABI 6, scoping of
 * abstract Unix sockets and signals to the sandbox.  -1 on error.
 */
int sc_landlock_open(struct sc_landlock *ll, int abi, int deny_tcp);

/*
 * Grant ACCESS (sc_landlock_access bits) beneath PATH.  A path that does not
 * exist is skipped (nothing to grant); -1 on other errors.
 */
int sc_landlock_allow(struct sc_landlock *ll, const char *path, int access);

/*
 * Grant SC_LL_READ everywhere but beneath the HIDDEN paths (N absolute,
 * resolved paths).  Landlock only grants, so "/" cannot be granted whole:
 * each directory above a hidden path may only be listed (which covers
 * listing beneath it too: names stay visible), and each of its other
 * entries is granted reading beneath it.  Symlinks get no rule.  What is
 * created later directly in such a directory is not readable.  -1 on
 * error.
 */
int sc_landlock_allow_read_except(struct sc_landlock *ll,
				  char *const *hidden, size_t n);

/* Restrict the calling thread (no_new_privs must be set).  -1 on error. */
int sc_landlock_enforce(struct sc_landlock *ll);

void sc_landlock_close(struct sc_landlock *ll);

#endif
