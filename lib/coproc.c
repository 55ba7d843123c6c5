/*
 * Coprocesses: see coproc.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
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
