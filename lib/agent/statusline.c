#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "io.h"
#include "opt.h"
#include "record.h"
#include "statusline.h"

/* A progress record is about 100 bytes; more is not one. */
#define PROGRESS_RECORD_MAX 4096

/* Carriage return, then erase to the end of the line (ECMA-48 EL). */
#define LINE_START "\r\033[K"

static int decimal(const struct sc_record *r, const char *name,
		   unsigned long long *v)
{
	const char *s = sc_record_str(r, name);

	return s ? sc_parse_uint(s, 1ULL << 53, v) : -1;
}

int sc_status_progress_line(const struct sc_record *r, struct sc_buf *out)
{
	const char *type = sc_record_str(r, "type");
	unsigned long long ms, tokens, s;

	if (!type || strcmp(type, "progress") ||
	    decimal(r, "elapsed-ms", &ms) < 0 ||
	    decimal(r, "estimated-tokens", &tokens) < 0)
		return -1;
	s = ms / 1000;
	sc_buf_addf(out, LINE_START "  model: answering %llu:%02llu, about "
		    "%llu tokens so far.", s / 60, s % 60, tokens);
	return 0;
}

struct relay {
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record rec;
	struct sc_buf line;
	int out_fd;
	int shown;      /* a status line is on the screen */
	int broken;     /* the records stopped making sense: drain only */
};

/* Erase the status line, if one is shown: what follows starts clean. */
static void erase(struct relay *r)
{
	if (!r->shown)
		return;
	(void)sc_write_all(r->out_fd, LINE_START, strlen(LINE_START));
	r->shown = 0;
}

/*
 * The progress descriptor is readable: show every whole record it holds.
 * 0, or -1 at its end.  sc-model writes a record in one write(2) of less
 * than PIPE_BUF, so a record is never left half read for long.
 */
static int on_progress(struct relay *r)
{
	char drop[4096];
	ssize_t n;
	int st;

	if (r->broken) {
		n = read(r->in.fd, drop, sizeof(drop));
		return n == 0 || (n < 0 && errno != EINTR) ? -1 : 0;
	}
	do {
		st = sc_reader_next(&r->rd, &r->rec);
		if (st != SC_READ_RECORD)
			break;
		sc_buf_reset(&r->line);
		if (sc_status_progress_line(&r->rec, &r->line) < 0)
			continue;
		(void)sc_write_all(r->out_fd, r->line.data, r->line.len);
		r->shown = 1;
	} while (r->in.pos < r->in.end);
	if (st == SC_READ_RECORD)
		return 0;
	if (st == SC_READ_EOF)
		return -1;
	r->broken = 1;   /* not records: read on, show nothing more */
	return r->in.eof ? -1 : 0;
}

/* The model's standard error is readable: pass it on below the line. */
static int on_stderr(struct relay *r, int fd)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0 && errno == EINTR)
		return 0;
	if (n <= 0)
		return -1;
	erase(r);
	(void)sc_write_all(r->out_fd, buf, (size_t)n);
	return 0;
}

void sc_status_relay(int fd, int err_fd, int out_fd)
{
	struct relay r;
	struct pollfd pfd[2] = { { fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };

	memset(&r, 0, sizeof(r));
	sc_input_init_fd(&r.in, fd);
	sc_reader_init(&r.rd, &r.in);
	r.rd.max = PROGRESS_RECORD_MAX;
	sc_record_init(&r.rec);
	sc_buf_init(&r.line);
	r.out_fd = out_fd;
	while (pfd[0].fd >= 0 || pfd[1].fd >= 0) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents && on_stderr(&r, err_fd) < 0)
			pfd[1].fd = -1;
		if (pfd[0].revents && on_progress(&r) < 0)
			pfd[0].fd = -1;
	}
	erase(&r);
	sc_record_release(&r.rec);
	sc_buf_release(&r.line);
}
