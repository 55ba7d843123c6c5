#ifndef SC_MOUNTINFO_H
#define SC_MOUNTINFO_H

/*
 * Other names of a file through other mounts.  A bind mount shows the same
 * directory at a second path: masking a credential at one path, or leaving
 * it out of Landlock's rules there, leaves it readable at the other.  The
 * kernel lists every mount, with the directory of its filesystem it shows
 * (its root), in /proc/self/mountinfo (proc(5)).
 */

#include "profile.h"

/* Bound on the mount table read: it is read before every command. */
#define SC_MOUNTINFO_MAX_ENTRIES 100000

/*
 * Append to OUT each path other than PATH (absolute and resolved) under
 * which the very file PATH names is visible through another mount in
 * MOUNTINFO (a file in the format of /proc/self/mountinfo); each is
 * checked to be the same device and inode.  0, or -1 when MOUNTINFO
 * cannot be read or is longer than the bound (OUT may hold some).
 */
int sc_mount_aliases(const char *mountinfo, const char *path,
		     struct sc_strlist *out);

#endif
