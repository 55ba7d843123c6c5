/*
 * The programs file of sc-agent(1): records to argv vectors.  A record
 * type named twice keeps the last one, as the driver appends an executor
 * record after the base programs.
 */
#include <stdlib.h>
#include <string.h>

#include "agent-programs.h"
#include "alloc.h"
#include "diag.h"
#include "record.h"

static const char *const names[] = { "classify", "sandbox", "mask", "model",
				     "guard", "executor", "snapshot" };
#define NR_NAMES (sizeof(names) / sizeof(names[0]))

/* The slots of P in the order of names[]. */
static void slots_of(struct sc_agent_programs *p, char ***slots[NR_NAMES])
{
	slots[0] = &p->classify;
	slots[1] = &p->sandbox;
	slots[2] = &p->mask;
	slots[3] = &p->model;
	slots[4] = &p->guard;
	slots[5] = &p->executor;
	slots[6] = &p->snapshot;
}

static void free_argv(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* R's argv= fields as a NULL-terminated vector; NULL when none, or one
 * holds a NUL (it could not reach execve whole). */
static char **copy_argv(const struct sc_record *r)
{
	char **v = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < r->nr; i++) {
		if (strcmp(r->fields[i].name, "argv"))
			continue;
		if (memchr(r->fields[i].value, '\0', r->fields[i].value_len)) {
			if (v)
				v[n] = NULL;
			free_argv(v);
			return NULL;
		}
		SC_ALLOC_GROW(v, n + 2, alloc);
		v[n++] = sc_xstrdup(r->fields[i].value);
	}
	if (v)
		v[n] = NULL;
	return v;
}

/* One record of the file into P: 0, or -1 after a diagnostic. */
static int take_record(const struct sc_record *r, struct sc_agent_programs *p)
{
	const char *type = sc_record_type(r);
	char ***slots[NR_NAMES];
	int ret = 0;

	if (type && !strcmp(type, "mcp")) {
		/* One sc-mcp a server: the record repeats. */
		p->mcp = sc_xrealloc(p->mcp, (p->nr_mcp + 1) * sizeof(*p->mcp));
		p->mcp[p->nr_mcp] = copy_argv(r);
		if (!p->mcp[p->nr_mcp++])
			ret = sc_error("BAD-PROGRAMS", "the mcp record has no "
				       "argv");
	}
	slots_of(p, slots);
	for (size_t i = 0; type && i < NR_NAMES; i++) {
		if (strcmp(type, names[i]))
			continue;
		free_argv(*slots[i]);
		*slots[i] = copy_argv(r);
		if (!*slots[i])
			ret = sc_error("BAD-PROGRAMS", "the %s record has no "
				       "argv", type);
	}
	return ret;
}

int sc_agent_programs_read(struct sc_input *in, struct sc_agent_programs *p)
{
	char ***slots[NR_NAMES];
	struct sc_reader rd;
	struct sc_record r;
	int st, ret = 0;

	sc_reader_init(&rd, in);
	sc_record_init(&r);
	while ((st = sc_reader_next(&rd, &r)) == SC_READ_RECORD)
		if (take_record(&r, p) < 0)
			ret = -1;
	sc_record_release(&r);
	if (st < 0) {
		(void)sc_reader_report(&rd, st);
		return -1;
	}
	slots_of(p, slots);
	/* classify, sandbox and mask: no call is judged, run or masked without. */
	for (size_t i = 0; !ret && i < 3; i++)
		if (!*slots[i])
			ret = sc_error("BAD-PROGRAMS", "the programs file names "
				       "no %s", names[i]);
	if (!ret && !p->model && !p->executor)
		ret = sc_error("BAD-PROGRAMS", "the programs file names no "
			       "model and no executor");
	return ret;
}

void sc_agent_programs_release(struct sc_agent_programs *p)
{
	char ***slots[NR_NAMES];

	slots_of(p, slots);
	for (size_t i = 0; i < NR_NAMES; i++)
		free_argv(*slots[i]);
	for (size_t i = 0; i < p->nr_mcp; i++)
		free_argv(p->mcp[i]);
	free(p->mcp);
	memset(p, 0, sizeof(*p));
}
