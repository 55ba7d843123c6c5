/*
 * sc-config: read speccoder.conf for scripts: one value, all values of a
 * key, every entry as records, or the checks with their argv split.  The
 * drivers read the configuration only through it, so no script parses a
 * configuration or splits an argv.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "checks.h"
#include "config.h"
#include "diag.h"
#include "executor.h"
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
	"    --libgit2-version  the version of the libgit2 the tools load\n"
	"    -h, --help     show this help\n"
	"    --version      show the version\n",
	0,
};

struct query {
	char *key;            /* normalised: section and variable lower case */
	const char *file;
	size_t at;            /* the entry being read, to name its line */
	int all, nul, found;
	struct sc_output *out;
	struct sc_buf last;
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

static int on_entry(const char *name, const char *value, void *ctx)
{
	struct query *q = ctx;
	size_t at = q->at++;

	if (!value)
		value = "";
	if (!strncmp(name, "include.", 8) || !strncmp(name, "includeif.", 10))
		return sc_error("BAD-CONFIG", "includes are refused: a "
				"configuration must not pull in other files");
	if (strcmp(name, q->key))
		return 0;
	/* A host list goes to sc-sandbox-exec: checked here first, so a bad
	 * entry is named by its file and line as sc-classify names it. */
	if (sc_config_host_key(name) &&
	    sc_config_check_host(q->file, at, name, value) < 0)
		return -1;
	q->found = 1;
	if (!q->all) {
		sc_buf_reset(&q->last);
		sc_buf_adds(&q->last, value);
		return 0;
	}
	/* Held until the whole file is read: a refusal later writes nothing. */
	sc_output_add(q->out, value, strlen(value));
	sc_output_add(q->out, q->nul ? "" : "\n", 1);
	return 0;
}

static int on_list(const char *name, const char *value, void *ctx)
{
	struct sc_record rec;

	if (!value)
		value = "";
	if (!strncmp(name, "include.", 8) || !strncmp(name, "includeif.", 10))
		return sc_error("BAD-CONFIG", "includes are refused: a "
				"configuration must not pull in other files");
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "config");
	sc_record_adds(&rec, "key", name);
	sc_record_adds(&rec, "value", value);
	/* Held until the whole file is read: a refusal later writes nothing. */
	sc_record_queue(ctx, &rec);
	sc_record_release(&rec);
	return 0;
}

static void add_number(struct sc_record *rec, const char *name,
		       unsigned long long v)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu", v);
	sc_record_adds(rec, name, text);
}

/* [check "NAME"] or [acceptance "NAME"]: records of TYPE. */
static int write_checks(const char *file, const char *section,
			struct sc_output *out)
{
	struct sc_checks c;
	size_t i, k;
	int ret;

	sc_checks_init(&c);
	if ((ret = sc_checks_load_section(&c, file, section)))
		return ret;
	for (i = 0; i < c.nr && !ret; i++) {
		struct sc_record rec;

		sc_record_init(&rec);
		sc_record_adds(&rec, "type", section);
		sc_record_adds(&rec, "name", c.v[i].name);
		for (k = 0; k < c.v[i].argc; k++)
			sc_record_adds(&rec, "argv", c.v[i].argv[k]);
		if (c.v[i].timeout)
			add_number(&rec, "timeout", c.v[i].timeout);
		sc_record_queue(out, &rec);
		sc_record_release(&rec);
	}
	sc_checks_release(&c);
	return ret;
}

/* [format] or [mutation]: one record, *FOUND when configured. */
static int write_step(const char *file, const char *section,
		      struct sc_output *out, int *found)
{
	struct sc_step s;
	struct sc_record rec;
	size_t i;
	int ret;

	sc_step_init(&s);
	if ((ret = sc_step_load(&s, file, section)) || !s.argv)
		return ret;
	*found = 1;
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", section);
	for (i = 0; i < s.argc; i++)
		sc_record_adds(&rec, "argv", s.argv[i]);
	if (s.timeout)
		add_number(&rec, "timeout", s.timeout);
	if (!strcmp(section, "format"))
		sc_record_adds(&rec, "required", s.required ? "true" : "false");
	if (s.has_minimum)
		add_number(&rec, "minimum", s.minimum);
	if (s.report)
		sc_record_adds(&rec, "report", s.report);
	sc_record_queue(out, &rec);
	sc_record_release(&rec);
	sc_step_release(&s);
	return 0;
}

static int write_executor(const char *file, struct sc_output *out, int *found)
{
	struct sc_executor e;
	struct sc_record rec;
	size_t i;
	int ret;

	sc_executor_init(&e);
	if ((ret = sc_executor_load(&e, file)) || !e.argv)
		return ret;
	*found = 1;
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "executor");
	for (i = 0; i < e.argc; i++)
		sc_record_adds(&rec, "argv", e.argv[i]);
	for (i = 0; i < e.nr_env; i++)
		sc_record_adds(&rec, "env", e.env[i]);
	sc_record_queue(out, &rec);
	sc_record_release(&rec);
	sc_executor_release(&e);
	return 0;
}

/* The exit status for a reading failure (diagnostic already printed). */
static int read_status(int ret)
{
	switch (ret) {
	case SC_GITCONFIG_OK:
		return SC_EXIT_OK;
	case SC_GITCONFIG_UNREADABLE:
		return SC_EXIT_USAGE;
	case SC_GITCONFIG_NO_LIBGIT2:
		return SC_EXIT_UNAVAILABLE;
	default:
		return SC_EXIT_MALFORMED;
	}
}

static int run(int mode, const char *file, const char *key, int nul)
{
	struct sc_output out;
	struct query q = { NULL, file, 0, mode == 'A', nul, 0, NULL,
			   SC_BUF_INIT };
	int ret;

	/* Records are a table for a person, unless -z asks for records. */
	sc_output_init_records(&out, STDOUT_FILENO, nul);
	q.out = &out;
	if (mode == 'l')
		ret = sc_gitconfig_foreach(file, "BAD-CONFIG", on_list, &out);
	else if (mode == 'c')
		ret = write_checks(file, "check", &out);
	else if (mode == 'a')
		ret = write_checks(file, "acceptance", &out);
	else if (mode == 'F')
		ret = write_step(file, "format", &out, &q.found);
	else if (mode == 'M')
		ret = write_step(file, "mutation", &out, &q.found);
	else if (mode == 'x')
		ret = write_executor(file, &out, &q.found);
	else {
		q.key = normalise_key(key);
		ret = sc_gitconfig_foreach(file, "BAD-CONFIG", on_entry, &q);
	}
	ret = read_status(ret);
	if (!ret && mode == 'g' && q.found) {
		sc_output_add(&out, q.last.data, q.last.len);
		sc_output_add(&out, "\n", 1);
	}
	if (!ret && (mode == 'g' || mode == 'A' || mode == 'x' ||
		     mode == 'F' || mode == 'M') && !q.found)
		ret = SC_EXIT_NO;
	/* Nothing half-read goes out: a failed read writes nothing. */
	if (ret == SC_EXIT_OK || ret == SC_EXIT_NO) {
		if (sc_output_flush(&out) < 0) {
			sc_error_errno("WRITE-FAILED", "cannot write output");
			ret = SC_EXIT_INTERNAL;
		}
	}
	sc_buf_release(&q.last);
	free(q.key);
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
					       "--mutation, --executor");
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
	if (nul && mode == 'g')
		sc_usage_error(&tool, "-z goes with --get-all, --list, "
			       "--checks, --acceptance, --format, "
			       "--mutation or --executor");
	return run(mode, file, key, nul);
}
