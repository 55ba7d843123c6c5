/*
 * The checks of speccoder.conf (what sc-config --checks and the drivers
 * read) on arbitrary text: no crash, and every check accepted has a valid
 * name and a non-empty argv; the same for the acceptance tests, and the
 * formatter and the mutation tool ([format], [mutation]) read have a
 * non-empty argv and a report path beneath the root.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "checks.h"
#include "diag.h"
#include "io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_step(const char *path, const char *section)
{
	struct sc_step s;

	sc_step_init(&s);
	if (sc_step_load(&s, path, section) == 0) {
		if (s.argv && (!s.argc || !s.argv[0]))
			abort();
		if (s.report && !sc_step_report_valid(s.report))
			abort();
		if (s.minimum > 100)
			abort();
	}
	sc_step_release(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[] = "/tmp/fuzz-checks.XXXXXX";
	static int fd = -1;
	struct sc_checks c;
	size_t i;

	if (fd < 0) {
		sc_diag_init("fuzz-checks");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
	}
	if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0 ||
	    sc_write_all(fd, data, size) < 0)
		abort();
	sc_checks_init(&c);
	if (sc_checks_load(&c, path) == 0)
		for (i = 0; i < c.nr; i++)
			if (!sc_check_name_valid(c.v[i].name) || !c.v[i].argc ||
			    !c.v[i].argv[0])
				abort();
	sc_checks_release(&c);
	sc_checks_init(&c);
	if (sc_checks_load_section(&c, path, "acceptance") == 0)
		for (i = 0; i < c.nr; i++)
			if (!sc_check_name_valid(c.v[i].name) || !c.v[i].argc)
				abort();
	sc_checks_release(&c);
	check_step(path, "format");
	check_step(path, "mutation");
	return 0;
}
