#ifndef SC_FILETOOL_H
#define SC_FILETOOL_H

/*
 * The model's file tools, run by the driver itself (not in the sandbox):
 * read, list, write and delete one root-relative path.  The policy has
 * already judged the path; these functions still open it beneath the root
 * with openat2(RESOLVE_BENEATH), never follow a symlink at the target of a
 * write or delete, and never cross a mount, so a race between the verdict
 * and the open cannot reach outside the root.
 *
 * Each returns 0, or -1 with a short reason (no file content) in WHY.
 */

#include <stddef.h>
#include <sys/types.h>

#include "buf.h"

/*
 * open REL beneath the directory ROOTFD ("" is ROOTFD itself) with
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV) and
 * O_CLOEXEC: no symlink on the way, no other mount.  The descriptor, or
 * -1 with errno.  Also for walkers of the model's tree (lib/attempt/tree.c).
 */
int sc_open_beneath(int rootfd, const char *rel, int flags, mode_t mode);

/* Read at most MAX bytes of REL; *TRUNCATED when the file holds more. */
int sc_file_read(int rootfd, const char *rel, size_t max, struct sc_buf *out,
		 int *truncated, struct sc_buf *why);

/* The names in directory REL, sorted, one a line, '/' after directories. */
int sc_file_list(int rootfd, const char *rel, size_t max, struct sc_buf *out,
		 int *truncated, struct sc_buf *why);

/*
 * Replace (or create) REL with LEN bytes of DATA, through a temporary file
 * and rename in the same directory; missing parent directories are made.
 * An existing file keeps its mode; a new one is 0644.
 */
int sc_file_write(int rootfd, const char *rel, const char *data, size_t len,
		  struct sc_buf *why);

/* The same with the new file's permission bits MODE (0777 at most) when
 * MODE >= 0, whatever the file it replaces had: an included file of the
 * person's is written owner-only, never readable between two calls. */
int sc_file_write_mode(int rootfd, const char *rel, const char *data,
		       size_t len, int mode, struct sc_buf *why);

/* Remove the file REL (not a directory). */
int sc_file_delete(int rootfd, const char *rel, struct sc_buf *why);

/*
 * Open directory REL beneath the root (for a command's working
 * directory); the descriptor or -1.
 */
int sc_file_opendir(int rootfd, const char *rel, struct sc_buf *why);

#endif
