/*
 * sc-config(1): one value, all values of a key, every entry as records,
 * the checks with their argv split, the MCP servers, for scripts.  The drivers read the
 * configuration only through it, so no script parses a configuration or
 * splits an argv.  The file is read whole by the one reader (config.h)
 * whatever is asked: a file any tool would refuse is refused here too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "config.h"
#include "configtool.h"
#include "diag.h"
#include "gitconfig.h"
#include "io.h"
#include "record.h"
#include "rectable.h"

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
		sc_record_addu(&rec, "timeout", c->v[i].timeout);
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
	sc_record_addu(&rec, "timeout", s->timeout);
	if (!strcmp(section, "format"))
		sc_record_adds(&rec, "required", s->required ? "true" : "false");
	if (s->has_minimum)
		sc_record_addu(&rec, "minimum", s->minimum);
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
	for (i = 0; i < e->env.nr; i++)
		sc_record_adds(&rec, "env", e->env.v[i]);
	sc_record_queue(out, &rec);
	sc_record_release(&rec);
	return 1;
}

static int by_name(const void *a, const void *b)
{
	const struct sc_mcp_server *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/*
 * [mcp "NAME"]: one record a server that has a command, in name order, as
 * the one reader checked it; a driver takes the names and hands them to
 * sc-mcp --server or sc-acp --mcp, which read the rest themselves.
 */
static void write_mcp(const struct sc_config *cfg, struct sc_output *out)
{
	const struct sc_mcp_server **v;
	struct sc_record rec;
	size_t i, k, n = 0;

	v = sc_xcalloc(cfg->nr_servers + 1, sizeof(*v));
	for (i = 0; i < cfg->nr_servers; i++)
		if (cfg->servers[i].conf.argv)
			v[n++] = &cfg->servers[i];
	qsort(v, n, sizeof(*v), by_name);
	for (i = 0; i < n; i++) {
		const struct sc_mcp_conf *c = &v[i]->conf;

		sc_record_init(&rec);
		sc_record_adds(&rec, "type", "mcp");
		sc_record_adds(&rec, "name", v[i]->name);
		for (k = 0; k < c->argc; k++)
			sc_record_adds(&rec, "argv", c->argv[k]);
		for (k = 0; k < c->env.nr; k++)
			sc_record_adds(&rec, "env", c->env.v[k]);
		sc_record_adds(&rec, "network", c->network);
		for (k = 0; k < c->hosts.nr; k++)
			sc_record_adds(&rec, "host", c->hosts.v[k]);
		sc_record_addu(&rec, "timeout", c->timeout);
		sc_record_queue(out, &rec);
		sc_record_release(&rec);
	}
	free(v);
}

/* The exit status for a reading failure (diagnostic already printed). */
static int read_exit(int st)
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

/* What O asks of CFG, into OUT; 1 when it is configured. */
static int answer(const struct sc_config *cfg, const struct sc_config_opts *o,
		  struct sc_output *out)
{
	switch (o->query) {
	case SC_CONFIG_Q_LIST:
		write_list(cfg, out);
		return 1;
	case SC_CONFIG_Q_CHECKS:
		write_checks(&cfg->checks, "check", out);
		return 1;
	case SC_CONFIG_Q_ACCEPTANCE:
		write_checks(&cfg->acceptance, "acceptance", out);
		return 1;
	case SC_CONFIG_Q_FORMAT:
		return write_step(&cfg->format, "format", out);
	case SC_CONFIG_Q_MUTATION:
		return write_step(&cfg->mutation, "mutation", out);
	case SC_CONFIG_Q_EXECUTOR:
		return write_executor(&cfg->executor, out);
	case SC_CONFIG_Q_MCP:
		write_mcp(cfg, out);
		return 1;
	case SC_CONFIG_Q_CHECK:
		return 1;
	case SC_CONFIG_Q_GET:
	case SC_CONFIG_Q_GET_ALL:
		break;
	}
	return write_values(cfg, o->key, o->query == SC_CONFIG_Q_GET_ALL,
			    o->nul, out);
}

int sc_config_run(const struct sc_config_opts *o)
{
	/* Any key, the project's own included: the entries alone. */
	unsigned entries = o->query == SC_CONFIG_Q_GET ||
			   o->query == SC_CONFIG_Q_GET_ALL ||
			   o->query == SC_CONFIG_Q_LIST ? SC_CONFIG_ENTRIES : 0;
	struct sc_config cfg;
	struct sc_output out;
	int ret;

	/* Records are a table for a person, unless -z asks for records. */
	sc_output_init_records(&out, STDOUT_FILENO, o->nul);
	sc_config_init(&cfg);
	/* Nothing half-read goes out: a failed read writes nothing. */
	ret = read_exit(sc_config_read(&cfg, o->file, "BAD-CONFIG", entries));
	if (!ret) {
		if (!answer(&cfg, o, &out))
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

int sc_config_libgit2_version_run(void)
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
