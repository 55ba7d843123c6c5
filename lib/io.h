#ifndef SC_IO_H
#define SC_IO_H

/*
 * Buffered input and output on file descriptors, for streaming tools.
 *
 * Input calls its idle hook before every read(2) that may block: a tool sets
 * the hook to flush its output, so everything it can answer is written
 * before it waits for more (the coprocess contract of sc-record(5)).
 *
 * Output collects whole units (records, lines) and writes them with
 * write(2), retrying short writes and EINTR, so a reader never sees half a
 * unit unless the process dies mid-write.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "buf.h"

#define SC_IO_CHUNK 65536

struct sc_input {
	int fd;               /* -1 when reading from memory */
	const char *data;     /* the current window */
	size_t pos, end;      /* unread bytes are data[pos..end) */
	uint64_t base;        /* stream offset of data[0] */
	int eof;
	void (*idle)(void *ctx);
	void *idle_ctx;
	char chunk[SC_IO_CHUNK];
};

void sc_input_init_fd(struct sc_input *in, int fd);
/* Read from LEN bytes at DATA; the bytes must outlive IN. */
void sc_input_init_mem(struct sc_input *in, const void *data, size_t len);
void sc_input_set_idle(struct sc_input *in, void (*idle)(void *), void *ctx);
/*
 * Make unread bytes available.  Returns the number available (> 0), 0 at end
 * of input, -1 on a read error (errno set).
 */
long sc_input_fill(struct sc_input *in);
/* The stream offset of the next unread byte. */
static inline uint64_t sc_input_offset(const struct sc_input *in)
{
	return in->base + in->pos;
}

/*
 * Read one line into LINE, without its newline (a last line may lack one).
 * 1 for a line, 0 at the end, -1 on a read error (errno set), -2 when the
 * line is longer than MAX bytes.
 */
int sc_input_read_line(struct sc_input *in, struct sc_buf *line, size_t max);

struct sc_output {
	int fd;
	struct sc_buf buf;
	int failed;
	int table;   /* records as table rows for a person (rectable.h) */
};

void sc_output_init(struct sc_output *out, int fd);
void sc_output_release(struct sc_output *out);
void sc_output_add(struct sc_output *out, const void *data, size_t len);
/* End of one unit: write out when enough is buffered. -1 on error. */
int sc_output_unit_done(struct sc_output *out);
/* Write everything buffered.  -1 on error (errno set), sticky. */
int sc_output_flush(struct sc_output *out);
/* An idle hook for sc_input_set_idle: flushes the sc_output in CTX. */
void sc_output_idle(void *ctx);

/* write(2) all of DATA, retrying EINTR and short writes. */
int sc_write_all(int fd, const void *data, size_t len);

/*
 * Replace NAME in DIRFD by a new regular file holding DATA with permission
 * bits MODE (whatever the umask): an unnamed file (O_TMPFILE; on a file
 * system without it, a new file of a fresh name, O_EXCL) in the same
 * directory is written, synced, linked under a temporary name and renamed
 * over NAME, then the directory is synced, so a crash leaves the old file
 * or the new one whole and a failure leaves no temporary behind.  rename(2)
 * replaces the name itself: a symlink at NAME is replaced, never followed.
 * Returns 0, or -1 with errno set and *STEP saying which step failed.
 */
enum sc_replace_step {
	SC_REPLACE_CREATE,   /* the unnamed file (or the directory) */
	SC_REPLACE_WRITE,    /* its content, owner, mode or sync */
	SC_REPLACE_NAME,     /* the temporary name */
	SC_REPLACE_CHECK,    /* the caller's check said no: NAME is as it was */
	SC_REPLACE_RENAME,   /* the move over NAME */
	SC_REPLACE_SYNC,     /* the directory: NAME is replaced, maybe not durably */
};
int sc_replace_file_at(int dirfd, const char *name, const void *data,
		       size_t len, mode_t mode, enum sc_replace_step *step);

/* The same for PATH, in the directory its name says. */
int sc_replace_file(const char *path, const void *data, size_t len,
		    mode_t mode, enum sc_replace_step *step);

/* What failed at STEP, for a diagnostic: "cannot replace the file"... */
const char *sc_replace_step_text(enum sc_replace_step step);

/*
 * The same with more said about the new file: OWNER (when set) gives it the
 * owner and group of the file it replaces, so an edit does not change who
 * may read it; CHECK (when set) is called just before the rename, and a
 * nonzero answer leaves NAME untouched (step SC_REPLACE_CHECK): the caller
 * sees whether someone else changed the file since it was read.
 */
struct sc_replace_how {
	mode_t mode;
	const struct stat *owner;
	int (*check)(void *ctx);
	void *ctx;
};
int sc_replace_file_how(int dirfd, const char *name, const void *data,
			size_t len, const struct sc_replace_how *how,
			enum sc_replace_step *step);

/*
 * Append what is left of FD to OUT until OUT holds MAX bytes in all;
 * *TRUNCATED says whether more were there.  The bytes are read straight
 * into OUT, never through a copy on the stack.  -1 with errno on a read
 * error.  For pipes and other streams; a named file is read with
 * sc_read_file_at.
 */
int sc_read_fd_capped(int fd, size_t max, struct sc_buf *out, int *truncated);

/*
 * How sc_read_file_at and sc_read_fd_max take a file (SC_OPEN_*, not to
 * be confused with the record reader's SC_READ_* statuses).  A file given
 * by a person or found in a tree may be a FIFO (open would wait for a
 * writer, read for ever), a device, or a symlink to either: a reader that
 * has to stand that says so here rather than with its own open and read
 * loop.
 */
enum {
	/* A symlink at the last component is refused (ELOOP). */
	SC_OPEN_NOFOLLOW = 1 << 0,
	/* Anything but a regular file is refused (EISDIR for a directory,
	 * EINVAL otherwise), and the open never waits (O_NONBLOCK). */
	SC_OPEN_REGULAR = 1 << 1,
	/* The open never waits, whatever the file: a FIFO reads as empty. */
	SC_OPEN_NONBLOCK = 1 << 2,
};

/*
 * Append the whole file PATH (relative to DIRFD, or AT_FDCWD) to OUT, as
 * FLAGS (SC_OPEN_*) allow: 0; -1 with errno when it cannot be opened,
 * is refused or cannot be read; -2 when it holds more than MAX bytes
 * (OUT then holds the first MAX, for a caller that shows a prefix).
 * A regular file is read into one allocation of its size, so a secret
 * leaves no copy behind in freed memory: wipe OUT after.
 */
int sc_read_file_at(int dirfd, const char *path, size_t max, unsigned flags,
		    struct sc_buf *out);

/* The same for FD, opened by the caller (beneath a root, say). */
int sc_read_fd_max(int fd, size_t max, unsigned flags, struct sc_buf *out);

/* sc_read_file_at(AT_FDCWD, PATH, MAX, 0, OUT). */
int sc_read_file_max(const char *path, size_t max, struct sc_buf *out);

/*
 * sc_read_file_max, for a file a person named: 0, or -1 after one
 * diagnostic, error[TOO_LARGE] "'PATH' is larger than MAX bytes" or
 * error[UNREADABLE] "cannot read 'PATH'" with errno's text.
 */
int sc_read_file_or_error(const char *path, size_t max, const char *too_large,
			  const char *unreadable, struct sc_buf *out);

#endif
