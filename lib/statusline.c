#include <errno.h>
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

/* Read FD to its end, keeping nothing: the writer never gets EPIPE. */
static void drain(int fd)
{
	char buf[4096];
	ssize_t n;

	do
		n = read(fd, buf, sizeof(buf));
	while (n > 0 || (n < 0 && errno == EINTR));
}

void sc_status_relay(int fd, int out_fd)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record rec;
	struct sc_buf line = SC_BUF_INIT;
	int shown = 0;

	sc_input_init_fd(&in, fd);
	sc_reader_init(&rd, &in);
	rd.max = PROGRESS_RECORD_MAX;
	sc_record_init(&rec);
	while (sc_reader_next(&rd, &rec) == SC_READ_RECORD) {
		sc_buf_reset(&line);
		if (sc_status_progress_line(&rec, &line) < 0)
			continue;
		(void)sc_write_all(out_fd, line.data, line.len);
		shown = 1;
	}
	drain(fd);
	if (shown)
		(void)sc_write_all(out_fd, LINE_START, strlen(LINE_START));
	sc_record_release(&rec);
	sc_buf_release(&line);
}
