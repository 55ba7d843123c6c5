#ifndef SC_MOUNTINFO_H
#define SC_MOUNTINFO_H

/*
 * Other names of a file through other mounts.  A bind mount shows the same
 * directory at a second path: masking a credential at one path, or leaving
 * it out of Landlock's rules there, leaves it readable at the other.  The
 * kernel lists every mount, with the directory of its filesystem it shows
 * (its root), in /proc/self/mountinfo (proc(5)).
 */

#include "strlist.h"

/* Bound on the mount table read: it is read before every command. */
#define SC_MOUNTINFO_MAX_ENTRIES 100000

struct sc_mount {
	char *root;     /* the directory of its filesystem it shows */
	char *point;    /* where it is mounted */
	int pseudo;     /* a kernel filesystem (proc, sysfs, cgroup...) */
};

/* The mount table, read once: SC_MOUNT_TABLE_INIT, then release. */
struct sc_mount_table {
	struct sc_mount *m;
	size_t nr, alloc;
};
#define SC_MOUNT_TABLE_INIT { NULL, 0, 0 }

/*
 * Read MOUNTINFO (a file in the format of /proc/self/mountinfo) into T.
 * 0, or -1 when it cannot be read or is longer than the bound (T then
 * holds what was read).  Lines it cannot parse are skipped.
 */
int sc_mount_table_read(struct sc_mount_table *t, const char *mountinfo);

void sc_mount_table_release(struct sc_mount_table *t);

/*
 * Append to OUT each path other than PATH (absolute and resolved) under
 * which the very file PATH names is visible through another mount of T;
 * each is checked to be the same device and inode.  A kernel filesystem
 * (proc, sysfs, cgroup...) shows none of another filesystem's files, so
 * its mounts are not looked through unless PATH is on one.
 */
void sc_mount_aliases(const struct sc_mount_table *t, const char *path,
		      struct sc_strlist *out);

#endif
