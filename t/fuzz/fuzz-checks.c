/*
 * The checks of speccoder.conf (what sc-config --checks and the drivers
 * read) on arbitrary text, through the one reader: no crash, and every
 * check accepted has a valid name and a non-empty argv; the same for the
 * acceptance tests, and the formatter and the mutation tool ([format],
 * [mutation]) read have a non-empty argv and a report path beneath the
 * root.
 */
#include <stdint.h>
#include <stdlib.h>

#include "config.h"
#include "diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_step(const struct sc_step *s)
{
	if (s->argv && (!s->argc || !s->argv[0]))
		abort();
	if (s->report && !sc_step_report_valid(s->report))
		abort();
	if (s->minimum > 100)
		abort();
	if (s->seen && !s->argv)
		abort();
}

static void check_named(const struct sc_checks *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (!sc_check_name_valid(c->v[i].name) || !c->v[i].argc ||
		    !c->v[i].argv[0])
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	struct sc_config cfg;

	if (!init) {
		sc_diag_init("fuzz-checks");
		init = 1;
	}
	sc_config_init(&cfg);
	if (sc_config_load_mem(&cfg, (const char *)data, size) == SC_CONFIG_OK) {
		check_named(&cfg.checks);
		check_named(&cfg.acceptance);
		check_step(&cfg.format);
		check_step(&cfg.mutation);
	}
	sc_config_release(&cfg);
	return 0;
}
