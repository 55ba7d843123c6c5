#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "alloc.h"
#include "filetool.h"
#include "io.h"
#include "strlist.h"

/* The names come from the policy, already canonical: no symlink on the way. */
#define RESOLVE_FLAGS (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV)

static int fail(struct sc_buf *why, const char *what, int err)
{
	sc_buf_reset(why);
	sc_buf_addf(why, "%s: %s", what, strerror(err));
	return -1;
}

int sc_open_beneath(int rootfd, const char *rel, int flags, mode_t mode)
{
	struct open_how how;

	memset(&how, 0, sizeof(how));
	how.flags = (unsigned long long)(flags | O_CLOEXEC);
	how.mode = (flags & O_CREAT) ? mode : 0;
	how.resolve = RESOLVE_FLAGS;
	/* "" is the root itself: openat2 wants "." for it. */
	return (int)syscall(SYS_openat2, rootfd, *rel ? rel : ".", &how,
			    sizeof(how));
}

/* The O_PATH descriptor FD (closed) as one that can be written in. */
static int reopen_dir(int fd, struct sc_buf *why)
{
	int dir = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int e = errno;

	close(fd);
	if (dir < 0)
		return fail(why, "cannot open the directory", e);
	return dir;
}

/*
 * Open the directory holding REL's last component, walking one component at
 * a time beneath the root and making missing ones when CREATE is set.  REL
 * is the policy's canonical name, which holds no symlink: meeting one now
 * means the tree changed since the verdict, and the walk stops.
 */
static int open_parent(int rootfd, const char *rel, int create,
		       const char **name, struct sc_buf *why)
{
	const char *slash = strrchr(rel, '/');
	char *dir, *comp, *save = NULL;
	int fd, next;

	*name = slash ? slash + 1 : rel;
	if (!**name || !strcmp(*name, ".") || !strcmp(*name, "..")) {
		sc_buf_reset(why);
		sc_buf_adds(why, "not a file name");
		return -1;
	}
	fd = sc_open_beneath(rootfd, "", O_PATH | O_DIRECTORY, 0);
	if (fd < 0)
		return fail(why, "cannot open the root", errno);
	if (!slash)
		return reopen_dir(fd, why);
	dir = sc_xmemdup(rel, (size_t)(slash - rel));
	for (comp = strtok_r(dir, "/", &save); comp;
	     comp = strtok_r(NULL, "/", &save)) {
		next = sc_open_beneath(fd, comp, O_PATH | O_DIRECTORY, 0);
		if (next < 0 && errno == ENOENT && create) {
			if (mkdirat(fd, comp, 0755) < 0 && errno != EEXIST)
				break;
			next = sc_open_beneath(fd, comp, O_PATH | O_DIRECTORY, 0);
		}
		close(fd);
		fd = next;
		if (fd < 0)
			break;
	}
	free(dir);
	if (fd < 0)
		return fail(why, "cannot open the directory", errno);
	return reopen_dir(fd, why);
}

int sc_file_read(int rootfd, const char *rel, size_t max, struct sc_buf *out,
		 int *truncated, struct sc_buf *why)
{
	int fd = sc_open_beneath(rootfd, rel, O_RDONLY | O_NOFOLLOW | O_NONBLOCK, 0);
	int st, e;

	*truncated = 0;
	if (fd < 0)
		return fail(why, "cannot open", errno);
	/* A larger file is shown cut at MAX: the model reads a prefix. */
	st = sc_read_fd_max(fd, max, SC_OPEN_REGULAR, out);
	e = errno;
	close(fd);
	*truncated = st == -2;
	if (st == -1 && (e == EISDIR || e == EINVAL)) {
		sc_buf_reset(why);
		sc_buf_adds(why, "not a regular file");
		return -1;
	}
	return st == -1 ? fail(why, "cannot read", e) : 0;
}

/* The most names a listing reads: the model sees the first ones, sorted. */
#define LIST_ENTRIES_MAX 65536

/* NAME in directory FD, with '/' after it when it is a directory. */
static void add_name(struct sc_buf *line, int fd, const char *name)
{
	struct stat st;

	sc_buf_reset(line);
	sc_buf_adds(line, name);
	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode))
		sc_buf_addch(line, '/');
	sc_buf_addch(line, '\n');
}

int sc_file_list(int rootfd, const char *rel, size_t max, struct sc_buf *out,
		 int *truncated, struct sc_buf *why)
{
	int fd = sc_open_beneath(rootfd, rel, O_RDONLY | O_DIRECTORY, 0), e;
	struct sc_strlist names = { 0 };
	struct sc_buf line = SC_BUF_INIT;
	size_t i;

	*truncated = 0;
	if (fd < 0)
		return fail(why, "cannot open the directory", errno);
	/* A command can make millions of names; this process is outside
	 * the sandbox, so it stops at a bound. */
	*truncated = sc_dir_list(fd, LIST_ENTRIES_MAX, &names);
	if (*truncated < 0) {
		e = errno;
		*truncated = 0;
		close(fd);
		return fail(why, "cannot list", e);
	}
	for (i = 0; i < names.nr; i++) {
		add_name(&line, fd, names.v[i]);
		if (out->len + line.len > max) {
			/* a prefix of the sorted names, never a gap */
			*truncated = 1;
			break;
		}
		sc_buf_add(out, line.data, line.len);
	}
	sc_buf_release(&line);
	sc_strlist_release(&names);
	close(fd);
	return 0;
}

int sc_file_write(int rootfd, const char *rel, const char *data, size_t len,
		  struct sc_buf *why)
{
	return sc_file_write_mode(rootfd, rel, data, len, -1, why);
}

int sc_file_write_mode(int rootfd, const char *rel, const char *data,
		       size_t len, int force_mode, struct sc_buf *why)
{
	const char *name;
	struct stat st;
	enum sc_replace_step step;
	mode_t mode = force_mode >= 0 ? (mode_t)force_mode & 0777 : 0644;
	int realdir, ret = 0;

	realdir = open_parent(rootfd, rel, 1, &name, why);
	if (realdir < 0)
		return -1;
	if (fstatat(realdir, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!S_ISREG(st.st_mode)) {
			close(realdir);
			sc_buf_reset(why);
			sc_buf_adds(why, "the target is not a regular file");
			return -1;
		}
		/* The permission bits only: a set-id bit a command set must
		 * not make a privileged program of the model's content. */
		if (force_mode < 0)
			mode = st.st_mode & 0777;
	}
	/* The umask of a driver is 077; a source file is read by everyone. */
	if (sc_replace_file_at(realdir, name, data, len, mode, &step) < 0)
		ret = fail(why, sc_replace_step_text(step), errno);
	close(realdir);
	return ret;
}

int sc_file_delete(int rootfd, const char *rel, struct sc_buf *why)
{
	const char *name;
	struct stat st;
	int realdir = open_parent(rootfd, rel, 0, &name, why), ret = 0;

	if (realdir < 0)
		return -1;
	if (fstatat(realdir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		ret = fail(why, "cannot delete", errno);
	else if (S_ISDIR(st.st_mode)) {
		sc_buf_reset(why);
		sc_buf_adds(why, "a directory is not deleted");
		ret = -1;
	} else if (unlinkat(realdir, name, 0) < 0)
		ret = fail(why, "cannot delete", errno);
	close(realdir);
	return ret;
}

int sc_file_opendir(int rootfd, const char *rel, struct sc_buf *why)
{
	int fd = sc_open_beneath(rootfd, rel, O_RDONLY | O_DIRECTORY, 0);

	if (fd < 0)
		return fail(why, "cannot enter the directory", errno);
	return fd;
}
