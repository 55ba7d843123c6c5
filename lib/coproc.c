/*
 * Coprocesses: see coproc.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "coproc.h"
#include "process.h"

struct sc_coproc *sc_coproc_start(char **argv)
{
	int in[2], out[2];
	struct sc_coproc *c;

	if (pipe2(in, O_CLOEXEC) < 0)
		return NULL;
	if (pipe2(out, O_CLOEXEC) < 0) {
		close(in[0]);
		close(in[1]);
		return NULL;
	}
	c = sc_xcalloc(1, sizeof(*c));
	c->pid = sc_spawn(argv, in[0], out[1], -1, -1);
	close(in[0]);
	close(out[1]);
	if (c->pid < 0) {
		int e = errno;
		close(in[1]);
		close(out[0]);
		free(c);
		errno = e;
		return NULL;
	}
	c->to = in[1];
	sc_output_init(&c->out, c->to);
	sc_input_init_fd(&c->in, out[0]);
	sc_reader_init(&c->rd, &c->in);
	return c;
}

int sc_coproc_send(struct sc_coproc *c, const struct sc_record *r)
{
	if (sc_record_write(&c->out, r) < 0 || sc_output_flush(&c->out) < 0)
		return -1;
	return 0;
}

/*
 * The index of R's type in TYPES when R answers ID; -1 when it is not an
 * answer; -2 when it is an answer to another request (out of turn).
 */
static int answer_index(const struct sc_record *r, const char *const *types,
			const char *id)
{
	const char *type = sc_record_type(r), *rid = sc_record_str(r, "id");

	for (int i = 0; type && types[i]; i++) {
		if (strcmp(type, types[i]))
			continue;
		if (id && (!rid || strcmp(rid, id)))
			return -2;
		return i;
	}
	return -1;
}

int sc_coproc_ask(struct sc_coproc *c, const struct sc_record *req,
		  const char *const *types, const char *id,
		  struct sc_record *ans)
{
	int k;

	if (sc_coproc_send(c, req) < 0)
		return -1;
	while (sc_reader_next(&c->rd, ans) == SC_READ_RECORD)
		if ((k = answer_index(ans, types, id)) != -1)
			return k < 0 ? -1 : k;
	return -1;
}

/* Close the coprocess's input and collect it; its exit status. */
int sc_coproc_end(struct sc_coproc *c)
{
	int st;

	if (!c)
		return 0;
	sc_output_release(&c->out);
	close(c->to);
	close(c->in.fd);
	st = sc_wait(c->pid);
	free(c);
	return st;
}
