#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/types.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	if ((flags & SC_READ_REGULAR) && !S_ISREG(st.st_mode)) {
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

	if (flags & SC_READ_NOFOLLOW)
		oflags |= O_NOFOLLOW;
	if (flags & (SC_READ_REGULAR | SC_READ_NONBLOCK))
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

int sc_replace_file_at(int dirfd, const char *name, const void *data,
		       size_t len, mode_t mode, enum sc_replace_step *step)
{
	char tmpname[64], procpath[64];
	int fd, e, ret = -1;

	*step = SC_REPLACE_CREATE;
	fd = openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	*step = SC_REPLACE_WRITE;
	/* fchmod: the umask of a driver is 077, MODE is what is meant. */
	if (sc_write_all(fd, data, len) < 0 || fchmod(fd, mode) < 0 ||
	    fsync(fd) < 0)
		goto out;
	/* Give the anonymous file a name, then move it over the target. */
	*step = SC_REPLACE_NAME;
	snprintf(procpath, sizeof(procpath), "/proc/self/fd/%d", fd);
	for (unsigned i = 0; i < 100; i++) {
		snprintf(tmpname, sizeof(tmpname), ".sc-write-%ld-%u",
			 (long)getpid(), i);
		if (linkat(AT_FDCWD, procpath, dirfd, tmpname,
			   AT_SYMLINK_FOLLOW) == 0) {
			ret = 0;
			break;
		}
		if (errno != EEXIST)
			break;
	}
	if (ret < 0)
		goto out;
	*step = SC_REPLACE_RENAME;
	if (renameat(dirfd, tmpname, dirfd, name) < 0) {
		e = errno;
		unlinkat(dirfd, tmpname, 0);
		errno = e;
		ret = -1;
	} else if (fsync(dirfd) < 0) {
		*step = SC_REPLACE_SYNC;
		ret = -1;
	}
out:
	e = errno;
	close(fd);
	errno = e;
	return ret;
}
