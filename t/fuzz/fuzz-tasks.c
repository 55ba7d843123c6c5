/*
 * The tasks-file parser (what sc-tasks list and tick read) on arbitrary
 * bytes: no crash, and every item it accepts is what the contract says:
 * numbered in order on increasing lines, a box that holds ' ', 'x' or 'X'
 * inside "[...]", and non-empty text with no white space at its ends,
 * within the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "tasks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_item(const char *p, size_t size, const struct sc_task *t,
		       size_t n, size_t prev_line)
{
	char m, first, last;

	if (t->n != n || t->line <= prev_line)
		abort();
	if (t->mark < 3 || t->mark + 1 >= size || !t->text_len ||
	    t->text > size || t->text_len > size - t->text ||
	    t->text <= t->mark)
		abort();
	m = p[t->mark];
	if (p[t->mark - 1] != '[' || p[t->mark + 1] != ']' ||
	    (m != ' ' && m != 'x' && m != 'X') || t->done != (m != ' '))
		abort();
	first = p[t->text];
	last = p[t->text + t->text_len - 1];
	if (first == ' ' || first == '\t' || last == ' ' || last == '\t' ||
	    last == '\r' || memchr(p + t->text, '\n', t->text_len))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	struct sc_tasklist l;
	size_t i;

	if (!init) {
		sc_diag_init("fuzz-tasks");
		init = 1;
	}
	sc_tasklist_init(&l);
	if (sc_tasks_parse((const char *)data, size, "f", &l) == SC_TASKS_OK)
		for (i = 0; i < l.nr; i++)
			check_item((const char *)data, size, &l.v[i], i + 1,
				   i ? l.v[i - 1].line : 0);
	sc_tasklist_release(&l);
	return 0;
}
