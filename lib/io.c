#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "io.h"

void sc_input_init_fd(struct sc_input *in, int fd)
{
	in->fd = fd;
	in->data = in->chunk;
	in->pos = in->end = 0;
	in->base = 0;
	in->eof = 0;
	in->idle = NULL;
	in->idle_ctx = NULL;
}

void sc_input_init_mem(struct sc_input *in, const void *data, size_t len)
{
	sc_input_init_fd(in, -1);
	in->data = data;
	in->end = len;
	in->eof = 1;
}

void sc_input_set_idle(struct sc_input *in, void (*idle)(void *), void *ctx)
{
	in->idle = idle;
	in->idle_ctx = ctx;
}

long sc_input_fill(struct sc_input *in)
{
	ssize_t n;

	if (in->pos < in->end)
		return (long)(in->end - in->pos);
	if (in->eof)
		return 0;
	if (in->idle)
		in->idle(in->idle_ctx);
	in->base += in->end;
	in->pos = in->end = 0;
	do
		n = read(in->fd, in->chunk, sizeof(in->chunk));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (n == 0) {
		in->eof = 1;
		return 0;
	}
	in->end = (size_t)n;
	return (long)n;
}

int sc_input_read_line(struct sc_input *in, struct sc_buf *line, size_t max)
{
	long n;

	sc_buf_reset(line);
	while ((n = sc_input_fill(in)) > 0) {
		const char *start = in->data + in->pos;
		const char *nl = memchr(start, '\n', (size_t)n);
		size_t take = nl ? (size_t)(nl - start) : (size_t)n;

		if (line->len + take > max)
			return -2;
		sc_buf_add(line, start, take);
		in->pos += take + (nl ? 1 : 0);
		if (nl)
			return 1;
	}
	if (n < 0)
		return -1;
	return line->len ? 1 : 0;
}

void sc_output_init(struct sc_output *out, int fd)
{
	out->fd = fd;
	sc_buf_init(&out->buf);
	out->failed = 0;
	out->table = 0;
}

void sc_output_release(struct sc_output *out)
{
	sc_buf_release(&out->buf);
}

void sc_output_add(struct sc_output *out, const void *data, size_t len)
{
	sc_buf_add(&out->buf, data, len);
}

int sc_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int sc_output_flush(struct sc_output *out)
{
	if (out->failed) {
		errno = out->failed;
		return -1;
	}
	if (!out->buf.len)
		return 0;
	if (sc_write_all(out->fd, out->buf.data, out->buf.len) < 0) {
		out->failed = errno ? errno : EIO;
		return -1;
	}
	sc_buf_reset(&out->buf);
	return 0;
}

int sc_output_unit_done(struct sc_output *out)
{
	if (out->buf.len >= SC_IO_CHUNK)
		return sc_output_flush(out);
	return out->failed ? -1 : 0;
}

void sc_output_idle(void *ctx)
{
	/* A failure is sticky and reported by the next flush the tool checks. */
	(void)sc_output_flush(ctx);
}

int sc_read_fd_capped(int fd, size_t max, struct sc_buf *out, int *truncated)
{
	ssize_t n;

	*truncated = 0;
	for (;;) {
		/* Room for a chunk and the NUL sc_buf keeps after the data. */
		if (out->cap - out->len < 2)
			sc_buf_grow(out, SC_IO_CHUNK);
		n = read(fd, out->data + out->len, out->cap - out->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		sc_buf_setlen(out, out->len + (size_t)n);
		if (out->len > max) {
			sc_buf_setlen(out, max);
			*truncated = 1;
			return 0;
		}
	}
}

int sc_read_fd_max(int fd, size_t max, unsigned flags, struct sc_buf *out)
{
	size_t start = out->len;
	struct stat st;
	int truncated;

	if (fstat(fd, &st) < 0)
		return -1;
	if ((flags & SC_OPEN_REGULAR) && !S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	/* The size and one byte to see the end: no realloc, no stray copy. */
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size <= max)
		sc_buf_grow(out, (size_t)st.st_size + 1);
	if (sc_read_fd_capped(fd, start + max < start ? SIZE_MAX : start + max,
			      out, &truncated) < 0)
		return -1;
	return truncated ? -2 : 0;
}

int sc_read_file_at(int dirfd, const char *path, size_t max, unsigned flags,
		    struct sc_buf *out)
{
	int oflags = O_RDONLY | O_CLOEXEC | O_NOCTTY, fd, st, e;

	if (flags & SC_OPEN_NOFOLLOW)
		oflags |= O_NOFOLLOW;
	if (flags & (SC_OPEN_REGULAR | SC_OPEN_NONBLOCK))
		oflags |= O_NONBLOCK;
	fd = openat(dirfd, path, oflags);
	if (fd < 0)
		return -1;
	st = sc_read_fd_max(fd, max, flags, out);
	e = errno;
	close(fd);
	errno = e;
	return st;
}

int sc_read_file_max(const char *path, size_t max, struct sc_buf *out)
{
	return sc_read_file_at(AT_FDCWD, path, max, 0, out);
}

int sc_read_file_or_error(const char *path, size_t max, const char *too_large,
			  const char *unreadable, struct sc_buf *out)
{
	int st = sc_read_file_max(path, max, out);

	if (st == -2)
		return sc_error(too_large, "'%s' is larger than %zu bytes",
				path, max);
	if (st < 0)
		return sc_error_errno(unreadable, "cannot read '%s'", path);
	return 0;
}

/* The Ith temporary name this process tries in a directory. */
static void temp_name(char name[64], unsigned i)
{
	snprintf(name, 64, ".sc-write-%ld-%u", (long)getpid(), i);
}

/*
 * A new file in DIRFD for the content: unnamed (O_TMPFILE), or, where the
 * file system has no O_TMPFILE, created O_EXCL under a temporary name
 * given back in TMP.  The descriptor or -1.
 */
static int open_new(int dirfd, mode_t mode, char tmp[64])
{
	int fd = openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);

	*tmp = '\0';
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		return fd;
	for (unsigned i = 0; i < 100; i++) {
		temp_name(tmp, i);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		*tmp = '\0';
	return fd;
}

/* Give the unnamed file FD a temporary name in DIRFD, into TMP. */
static int link_new(int dirfd, int fd, char tmp[64])
{
	char procpath[64];

	snprintf(procpath, sizeof(procpath), "/proc/self/fd/%d", fd);
	for (unsigned i = 0; i < 100; i++) {
		temp_name(tmp, i);
		if (linkat(AT_FDCWD, procpath, dirfd, tmp,
			   AT_SYMLINK_FOLLOW) == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	*tmp = '\0';
	return -1;
}

/* Content, owner and mode of the new file FD, synced. */
static int fill_new(int fd, const void *data, size_t len,
		    const struct sc_replace_how *how)
{
	const struct stat *o = how->owner;

	if (sc_write_all(fd, data, len) < 0)
		return -1;
	/* chown before chmod: chown clears the set-id bits. */
	if (o && (o->st_uid != geteuid() || o->st_gid != getegid()) &&
	    fchown(fd, o->st_uid, o->st_gid) < 0)
		return -1;
	/* fchmod: the umask of a driver is 077, MODE is what is meant. */
	if (fchmod(fd, how->mode) < 0)
		return -1;
	return fsync(fd);
}

int sc_replace_file_how(int dirfd, const char *name, const void *data,
			size_t len, const struct sc_replace_how *how,
			enum sc_replace_step *step)
{
	char tmp[64];
	int fd, e, ret = -1;

	*step = SC_REPLACE_CREATE;
	fd = open_new(dirfd, how->mode, tmp);
	if (fd < 0)
		return -1;
	*step = SC_REPLACE_WRITE;
	if (fill_new(fd, data, len, how) < 0)
		goto out;
	*step = SC_REPLACE_NAME;
	if (!*tmp && link_new(dirfd, fd, tmp) < 0)
		goto out;
	*step = SC_REPLACE_CHECK;
	if (how->check && how->check(how->ctx)) {
		errno = 0;
		goto out;
	}
	*step = SC_REPLACE_RENAME;
	if (renameat(dirfd, tmp, dirfd, name) < 0)
		goto out;
	*tmp = '\0';
	*step = SC_REPLACE_SYNC;
	if (fsync(dirfd) == 0)
		ret = 0;
out:
	e = errno;
	if (*tmp)
		unlinkat(dirfd, tmp, 0);
	close(fd);
	errno = e;
	return ret;
}

int sc_replace_file_at(int dirfd, const char *name, const void *data,
		       size_t len, mode_t mode, enum sc_replace_step *step)
{
	struct sc_replace_how how = { mode, NULL, NULL, NULL };

	return sc_replace_file_how(dirfd, name, data, len, &how, step);
}

const char *sc_replace_step_text(enum sc_replace_step step)
{
	static const char *const text[] = {
		[SC_REPLACE_CREATE] = "cannot create a temporary file",
		[SC_REPLACE_WRITE] = "cannot write",
		[SC_REPLACE_NAME] = "cannot name the new file",
		[SC_REPLACE_CHECK] = "the file changed",
		[SC_REPLACE_RENAME] = "cannot replace the file",
		[SC_REPLACE_SYNC] = "cannot sync the directory",
	};

	return (unsigned)step < sizeof(text) / sizeof(text[0]) ?
	       text[step] : "cannot replace the file";
}

int sc_replace_file(const char *path, const void *data, size_t len,
		    mode_t mode, enum sc_replace_step *step)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash == path ? sc_xstrdup("/") :
		    slash ? sc_xmemdup(path, (size_t)(slash - path)) :
			    sc_xstrdup(".");
	int dirfd, ret, e;

	*step = SC_REPLACE_CREATE;
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (dirfd < 0)
		return -1;
	ret = sc_replace_file_at(dirfd, slash ? slash + 1 : path, data, len,
				 mode, step);
	e = errno;
	close(dirfd);
	errno = e;
	return ret;
}
