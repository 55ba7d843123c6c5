/*
 * sc-config: read speccoder.conf for scripts: one value, all values of a
 * key, every entry as records, or the checks with their argv split.  The
 * drivers read the configuration only through it, so no script parses a
 * configuration or splits an argv.  The file is read whole by the one
 * reader (config.h) whatever is asked: a file any tool would refuse is
 * refused here too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "config.h"
#include "diag.h"
#include "gitconfig.h"
#include "io.h"
#include "opt.h"
#include "record.h"
#include "rectable.h"

static const char *const synopsis[] = {
	"[--file FILE] --get KEY",
	"[--file FILE] --get-all KEY [-z]",
	"[--file FILE] --list",
	"[--file FILE] --checks",
	"[--file FILE] --acceptance",
	"[--file FILE] --format",
	"[--file FILE] --mutation",
	"[--file FILE] --executor",
	"[--file FILE] --check",
	"--libgit2-version",
	NULL,
};

static const struct sc_tool tool = {
	"sc-config", synopsis,
	"    --file FILE    the configuration (default: speccoder.conf)\n"
	"    --get KEY      print the last value of KEY; exit 1 when unset\n"
	"    --get-all KEY  print every value of KEY, one a line\n"
	"    -z             with --get-all: end each value with NUL; with\n"
	"                   --list, --checks, --executor: records even when\n"
	"                   stdout is a terminal\n"
	"    --list         every entry as a type=config key= value= record\n"
	"    --checks       every check as a type=check name= argv=... record\n"
	"    --acceptance   every acceptance test as a type=acceptance name=\n"
	"                   argv=... record\n"
	"    --format       the formatter as a type=format argv=... record;\n"
	"                   exit 1 when none is configured\n"
	"    --mutation     the mutation tool as a type=mutation argv=...\n"
	"                   record; exit 1 when none is configured\n"
	"    --executor     the external agent as a type=executor argv=... env=...\n"
	"                   record; exit 1 when none is configured\n"
	"    --check        read the file whole, as every tool does; nothing\n"
	"                   written, exit 3 when a tool would refuse it\n"
	"    --libgit2-version  the version of the libgit2 the tools load\n"
	"    -h, --help     show this help\n"
	"    --version      show the version\n",
	0,
};

/* git-config names: section and variable ignore case, subsections not. */
static char *normalise_key(const char *key)
{
	char *k = sc_xstrdup(key), *first = strchr(k, '.'), *last = strrchr(k, '.');
	char *p;

	if (!first)
		return k;
	for (p = k; p < first; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
	for (p = last; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
	return k;
}

/* --get (ALL 0: the last value) or --get-all: 1 when KEY is set. */
static int write_values(const struct sc_config *cfg, const char *key,
			int all, int nul, struct sc_output *out)
{
	char *k = normalise_key(key);
	const char *last = NULL;
	size_t i;

	for (i = 0; i < cfg->nr_entries; i++) {
		const char *v = cfg->entries[i].value;

		if (strcmp(cfg->entries[i].key, k))
			continue;
		last = v ? v : "";
		if (all) {
			sc_output_add(out, last, strlen(last));
			sc_output_add(out, nul ? "" : "\n", 1);
		}
	}
	if (last && !all) {
		sc_output_add(out, last, strlen(last));
		sc_output_add(out, "\n", 1);
	}
	free(k);
	return last != NULL;
}

static void write_list(const struct sc_config *cfg, struct sc_output *out)
{
	struct sc_record rec;
	size_t i;

	for (i = 0; i < cfg->nr_entries; i++) {
		const char *v = cfg->entries[i].value;

		sc_record_init(&rec);
		sc_record_adds(&rec, "type", "config");
		sc_record_adds(&rec, "key", cfg->entries[i].key);
		sc_record_adds(&rec, "value", v ? v : "");
		sc_record_queue(out, &rec);
		sc_record_release(&rec);
	}
}

static void add_number(struct sc_record *rec, const char *name,
		       unsigned long long v)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu", v);
	sc_record_adds(rec, name, text);
}

/* [check "NAME"] or [acceptance "NAME"]: records of type SECTION. */
static void write_checks(const struct sc_checks *c, const char *section,
			 struct sc_output *out)
{
	size_t i, k;

	for (i = 0; i < c->nr; i++) {
		struct sc_record rec;

		sc_record_init(&rec);
		sc_record_adds(&rec, "type", section);
		sc_record_adds(&rec, "name", c->v[i].name);
		for (k = 0; k < c->v[i].argc; k++)
			sc_record_adds(&rec, "argv", c->v[i].argv[k]);
		add_number(&rec, "timeout", c->v[i].timeout);
		sc_record_queue(out, &rec);
		sc_record_release(&rec);
	}
}

/* [format] or [mutation]: one record; 1 when configured. */
static int write_step(const struct sc_step *s, const char *section,
		      struct sc_output *out)
{
	struct sc_record rec;
	size_t i;

	if (!s->argv)
		return 0;
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", section);
	for (i = 0; i < s->argc; i++)
		sc_record_adds(&rec, "argv", s->argv[i]);
	add_number(&rec, "timeout", s->timeout);
	if (!strcmp(section, "format"))
		sc_record_adds(&rec, "required", s->required ? "true" : "false");
	if (s->has_minimum)
		add_number(&rec, "minimum", s->minimum);
	if (s->report)
		sc_record_adds(&rec, "report", s->report);
	sc_record_queue(out, &rec);
	sc_record_release(&rec);
	return 1;
}

/* [executor]: one record; 1 when configured. */
static int write_executor(const struct sc_executor *e, struct sc_output *out)
{
	struct sc_record rec;
	size_t i;

	if (!e->argv)
		return 0;
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "executor");
	for (i = 0; i < e->argc; i++)
		sc_record_adds(&rec, "argv", e->argv[i]);
	for (i = 0; i < e->nr_env; i++)
		sc_record_adds(&rec, "env", e->env[i]);
	sc_record_queue(out, &rec);
	sc_record_release(&rec);
	return 1;
}

/* The exit status for a reading failure (diagnostic already printed). */
static int read_status(int st)
{
	switch (st) {
	case SC_CONFIG_OK:
		return SC_EXIT_OK;
	case SC_CONFIG_UNREADABLE:
		return SC_EXIT_USAGE;
	case SC_CONFIG_NO_LIBGIT2:
		return SC_EXIT_UNAVAILABLE;
	default:
		return SC_EXIT_MALFORMED;
	}
}

/* What MODE asks of CFG, into OUT; 1 when it is configured. */
static int answer(const struct sc_config *cfg, int mode, const char *key,
		  int nul, struct sc_output *out)
{
	switch (mode) {
	case 'l':
		write_list(cfg, out);
		return 1;
	case 'c':
		write_checks(&cfg->checks, "check", out);
		return 1;
	case 'a':
		write_checks(&cfg->acceptance, "acceptance", out);
		return 1;
	case 'F':
		return write_step(&cfg->format, "format", out);
	case 'M':
		return write_step(&cfg->mutation, "mutation", out);
	case 'x':
		return write_executor(&cfg->executor, out);
	case 'C':
		return 1;
	default:
		return write_values(cfg, key, mode == 'A', nul, out);
	}
}

static int run(int mode, const char *file, const char *key, int nul)
{
	/* Any key, the project's own included: the entries alone. */
	unsigned entries = mode == 'g' || mode == 'A' || mode == 'l' ?
			   SC_CONFIG_ENTRIES : 0;
	struct sc_config cfg;
	struct sc_output out;
	int ret;

	/* Records are a table for a person, unless -z asks for records. */
	sc_output_init_records(&out, STDOUT_FILENO, nul);
	sc_config_init(&cfg);
	/* Nothing half-read goes out: a failed read writes nothing. */
	ret = read_status(sc_config_read(&cfg, file, "BAD-CONFIG", entries));
	if (!ret) {
		if (!answer(&cfg, mode, key, nul, &out))
			ret = SC_EXIT_NO;
		if (sc_output_flush(&out) < 0) {
			sc_error_errno("WRITE-FAILED", "cannot write output");
			ret = SC_EXIT_INTERNAL;
		}
	}
	sc_config_release(&cfg);
	sc_output_release(&out);
	return ret;
}

static int libgit2_version(void)
{
	char v[64];

	if (sc_gitconfig_libgit2_version(v, sizeof(v)) < 0)
		return SC_EXIT_UNAVAILABLE;
	if (printf("%s\n", v) < 0 || fflush(stdout) == EOF) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		return SC_EXIT_INTERNAL;
	}
	return SC_EXIT_OK;
}

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "get", required_argument, NULL, 'g' },
		{ "get-all", required_argument, NULL, 'A' },
		{ "list", no_argument, NULL, 'l' },
		{ "checks", no_argument, NULL, 'c' },
		{ "executor", no_argument, NULL, 'x' },
		{ "check", no_argument, NULL, 'C' },
		{ "acceptance", no_argument, NULL, 'a' },
		{ "format", no_argument, NULL, 'F' },
		{ "mutation", no_argument, NULL, 'M' },
		{ "libgit2-version", no_argument, NULL, 'V' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	const char *file = "speccoder.conf", *key = NULL;
	int mode = 0, nul = 0, c;

	sc_diag_init(tool.name);
	while ((c = sc_getopt(argc, argv, "+hz", longopts, &tool)) != -1) {
		if (c == 'f') {
			file = optarg;
		} else if (c == 'z') {
			nul = 1;
		} else {
			if (mode)
				sc_usage_error(&tool, "choose one of --get, "
					       "--get-all, --list, --checks, "
					       "--acceptance, --format, "
					       "--mutation, --executor, --check");
			mode = c;
			key = optarg;
		}
	}
	if (!mode)
		sc_usage_error(&tool, "nothing to do");
	if (mode == 'V')
		return libgit2_version();
	if (optind < argc)
		sc_usage_error(&tool, "unexpected argument");
	if (nul && (mode == 'g' || mode == 'C'))
		sc_usage_error(&tool, "-z goes with --get-all, --list, "
			       "--checks, --acceptance, --format, "
			       "--mutation or --executor");
	return run(mode, file, key, nul);
}
