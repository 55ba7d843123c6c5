#ifndef SC_CHECKS_H
#define SC_CHECKS_H

/*
 * The checks of speccoder.conf: [check "NAME"] sections with one argv (a
 * string split as a shell splits words, nothing expanded) and an optional
 * timeout in seconds.  What a driver runs to decide a task is done.
 */

#include <stddef.h>

struct sc_check {
	char *name;              /* [A-Za-z0-9._-]+, not starting with . or - */
	char **argv;             /* NULL-terminated; NULL until argv is seen */
	size_t argc;
	unsigned long long timeout; /* seconds; the default when not set */
};

/*
 * The deadlines when none is set (speccoder.conf(5)), filled in by the
 * reader so that sc-config's records carry them and no driver decides
 * them: a check or acceptance test, the formatter, the mutation tool.
 */
enum {
	SC_CHECK_TIMEOUT = 600,
	SC_FORMAT_TIMEOUT = 120,
	SC_MUTATION_TIMEOUT = 1800,
};

struct sc_checks {
	struct sc_check *v;
	size_t nr, alloc;
};

void sc_checks_init(struct sc_checks *c);
void sc_checks_release(struct sc_checks *c);

/*
 * Read by sc_config_load (config.h), the one reader of speccoder.conf,
 * which hands each entry of [SECTION "NAME"] ("check", "acceptance") here
 * in file order: KEY is "NAME.VAR" as libgit2 names it, VALUE NULL for a
 * key without "=".  0, or -1 with error[BAD-CONFIG] printed: two argv for
 * one check, an argv that does not split, a bad timeout, a name that
 * could not be a file name, an unknown key.
 */
int sc_checks_entry(struct sc_checks *c, const char *section,
		    const char *key, const char *value);
/* After the last entry: -1 with error[BAD-CONFIG] for a check without
 * argv; each timeout not set becomes SC_CHECK_TIMEOUT. */
int sc_checks_finish(struct sc_checks *c, const char *section);

/* 1 when NAME may name a check (and so a file of a run). */
int sc_check_name_valid(const char *name);

/*
 * One command of its own section, without a name: [format] (argv,
 * timeout, required) and [mutation] (argv, timeout, minimum, report).
 * Any other key, a second argv, a section without argv, a report that
 * is not a relative path beneath the root: error[BAD-CONFIG].
 */
struct sc_step {
	char **argv;                 /* NULL when the section is absent */
	size_t argc;
	unsigned long long timeout;  /* seconds; the default when not set */
	int required;                /* format.required */
	unsigned long long minimum;  /* mutation.minimum, percent */
	int has_minimum;
	char *report;                /* mutation.report, or NULL */
	int seen;                    /* the section has a key */
};

void sc_step_init(struct sc_step *s);
void sc_step_release(struct sc_step *s);
/* One entry of [SECTION] (KEY without "SECTION."), from sc_config_load;
 * then the check that a present section has an argv, and its timeout
 * when not set (SC_FORMAT_TIMEOUT, SC_MUTATION_TIMEOUT).  0 or -1 as
 * above. */
int sc_step_entry(struct sc_step *s, const char *section, const char *key,
		  const char *value);
int sc_step_finish(struct sc_step *s, const char *section);
/* 1 when P is a relative path with no empty, "." or ".." component. */
int sc_step_report_valid(const char *p);

#endif
