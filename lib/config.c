/*
 * speccoder.conf through libgit2: see config.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "config.h"
#include "diag.h"
#include "gitconfig.h"
#include "hostlist.h"
#include "io.h"
#include "scan.h"
#include "shellwords.h"

void sc_config_init(struct sc_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
}

void sc_argv_free(struct sc_argv *a)
{
	sc_sw_split_free(a->v);
	a->v = NULL;
	a->n = 0;
}

static void list_release(struct sc_argv_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		sc_argv_free(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void sc_config_release(struct sc_config *cfg)
{
	size_t i;

	list_release(&cfg->checks);
	list_release(&cfg->allow);
	list_release(&cfg->allow_prefix);
	list_release(&cfg->net_allow);
	list_release(&cfg->net_allow_prefix);
	for (i = 0; i < cfg->nr_servers; i++)
		free(cfg->servers[i]);
	free(cfg->servers);
	for (i = 0; i < cfg->nr_mcp; i++) {
		free(cfg->mcp[i].server);
		free(cfg->mcp[i].tool);
		free(cfg->mcp[i].digest);
	}
	free(cfg->mcp);
	for (i = 0; i < cfg->nr_net_hosts; i++)
		free(cfg->net_hosts[i]);
	free(cfg->net_hosts);
	for (i = 0; i < cfg->nr_net_rules; i++) {
		struct sc_net_rule *r = &cfg->net_rules[i];
		size_t k;

		free(r->name);
		list_release(&r->argv);
		list_release(&r->argv_prefix);
		for (k = 0; k < r->nr_hosts; k++)
			free(r->hosts[k]);
		free(r->hosts);
	}
	free(cfg->net_rules);
	for (i = 0; i < cfg->nr_allow_fps; i++)
		free(cfg->allow_fps[i]);
	free(cfg->allow_fps);
	sc_config_init(cfg);
}

int sc_config_has_server(const struct sc_config *cfg, const char *server)
{
	size_t i;

	for (i = 0; i < cfg->nr_servers; i++)
		if (!strcmp(cfg->servers[i], server))
			return 1;
	return 0;
}

/* Split VALUE of KEY into a new item of LIST; MIN words at least. */
static int add_argv(struct sc_argv_list *list, const char *key,
		    const char *value, size_t min)
{
	struct sc_argv a;
	const char *err;

	if (sc_sw_split(value, &a.v, &a.n, &err) < 0)
		return sc_error("BAD-CONFIG", "%s: %s", key, err);
	if (a.n < min) {
		sc_argv_free(&a);
		if (min > 1)
			return sc_error("BAD-CONFIG", "%s: a prefix needs a "
					"program and at least one more word", key);
		return sc_error("BAD-CONFIG", "%s: empty command", key);
	}
	SC_ALLOC_GROW(list->items, list->nr + 1, list->alloc);
	list->items[list->nr++] = a;
	return 0;
}

/* "mcp.NAME.KEY" -> NAME (malloc'd), or NULL. */
static char *subsection(const char *name, const char *section)
{
	size_t n = strlen(section);
	const char *dot;

	if (strncmp(name, section, n) || name[n] != '.')
		return NULL;
	dot = strrchr(name + n + 1, '.');
	if (!dot || dot == name + n + 1)
		return NULL;
	return sc_xmemdup(name + n + 1, (size_t)(dot - name - n - 1));
}

static int add_server(struct sc_config *cfg, char *server)
{
	if (sc_config_has_server(cfg, server)) {
		free(server);
		return 0;
	}
	SC_ALLOC_GROW(cfg->servers, cfg->nr_servers + 1, cfg->alloc_servers);
	cfg->servers[cfg->nr_servers++] = server;
	return 0;
}

/* mcp.SERVER.allow = TOOL [DIGEST] */
static int add_mcp(struct sc_config *cfg, const char *key, const char *server,
		   const char *value)
{
	struct sc_argv a;
	const char *err;
	struct sc_mcp_allow *m;

	if (sc_sw_split(value, &a.v, &a.n, &err) < 0)
		return sc_error("BAD-CONFIG", "%s: %s", key, err);
	if (a.n < 1 || a.n > 2) {
		sc_argv_free(&a);
		return sc_error("BAD-CONFIG", "%s: want a tool name and an "
				"optional definition digest", key);
	}
	SC_ALLOC_GROW(cfg->mcp, cfg->nr_mcp + 1, cfg->alloc_mcp);
	m = &cfg->mcp[cfg->nr_mcp++];
	m->server = sc_xstrdup(server);
	m->tool = sc_xstrdup(a.v[0]);
	m->digest = a.n > 1 ? sc_xstrdup(a.v[1]) : NULL;
	sc_argv_free(&a);
	return 0;
}

/* The file being read and the index of its entry being added. */
struct load {
	struct sc_config *cfg;
	const char *path;   /* NULL: read from memory, no file to name */
	size_t at;
};

int sc_config_check_host(const char *path, size_t at, const char *key,
			 const char *value)
{
	const char *why;
	unsigned line;

	if (sc_host_entry_check(value, &why) == 0)
		return 0;
	/* a list is often long: the line says which entry */
	line = sc_gitconfig_line(path, at, key);
	if (line)
		return sc_error("BAD-CONFIG", "%s:%u: %s: '%s': %s", path, line,
				key, value, why);
	return sc_error("BAD-CONFIG", "%s%s%s: '%s': %s", path ? path : "",
			path ? ": " : "", key, value, why);
}

/* A host list entry, checked as sc-sandbox-exec --allow-host checks it. */
static int add_host(char ***v, size_t *nr, size_t *alloc, const char *key,
		    const char *value, const struct load *ld)
{
	if (sc_config_check_host(ld->path, ld->at, key, value) < 0)
		return -1;
	SC_ALLOC_GROW(*v, *nr + 1, *alloc);
	(*v)[(*nr)++] = sc_xstrdup(value);
	return 0;
}

static struct sc_net_rule *net_rule(struct sc_config *cfg, char *name)
{
	size_t i;

	for (i = 0; i < cfg->nr_net_rules; i++)
		if (!strcmp(cfg->net_rules[i].name, name)) {
			free(name);
			return &cfg->net_rules[i];
		}
	SC_ALLOC_GROW(cfg->net_rules, cfg->nr_net_rules + 1,
		      cfg->alloc_net_rules);
	memset(&cfg->net_rules[cfg->nr_net_rules], 0, sizeof(*cfg->net_rules));
	cfg->net_rules[cfg->nr_net_rules].name = name;
	return &cfg->net_rules[cfg->nr_net_rules++];
}

static int suffix(const char *name, const char *end);

/* network.NAME.argv | argvPrefix | hosts; any other key is a mistake. */
static int add_net(const struct load *ld, const char *k, char *sub,
		   const char *v)
{
	struct sc_net_rule *r = net_rule(ld->cfg, sub);

	if (suffix(k, ".argv"))
		return add_argv(&r->argv, k, v, 1);
	if (suffix(k, ".argvprefix"))
		return add_argv(&r->argv_prefix, k, v, 2);
	if (suffix(k, ".hosts"))
		return add_host(&r->hosts, &r->nr_hosts, &r->alloc_hosts, k, v,
				ld);
	return sc_error("BAD-CONFIG", "%s: unknown key (argv, argvPrefix or "
			"hosts)", k);
}

static int suffix(const char *name, const char *end)
{
	size_t n = strlen(name), e = strlen(end);

	return n > e && !strcmp(name + n - e, end);
}

/*
 * mask.allowFingerprint: 16 lower-case hex digits, as sc-mask --scan
 * prints them.  The value is never shown: what was pasted may be the
 * secret itself.
 */
static int add_fingerprint(const struct load *ld, struct sc_config *cfg,
			   const char *k, const char *v)
{
	unsigned line;

	if (sc_scan_fingerprint_valid(v)) {
		SC_ALLOC_GROW(cfg->allow_fps, cfg->nr_allow_fps + 1,
			      cfg->alloc_allow_fps);
		cfg->allow_fps[cfg->nr_allow_fps++] = sc_xstrdup(v);
		return 0;
	}
	line = sc_gitconfig_line(ld->path, ld->at, k);
	if (line)
		return sc_error("BAD-CONFIG", "%s:%u: mask.allowFingerprint: "
				"not a fingerprint (16 lower-case hex digits, "
				"as sc-mask --scan prints it)", ld->path, line);
	return sc_error("BAD-CONFIG", "%s%smask.allowFingerprint: not a "
			"fingerprint (16 lower-case hex digits, as sc-mask "
			"--scan prints it)", ld->path ? ld->path : "",
			ld->path ? ": " : "");
}

static int add_one(const struct load *ld, struct sc_config *cfg,
		   const char *k, const char *v)
{
	char *sub;

	if (!v)
		v = "";
	if (!strncmp(k, "include.", 8) || !strncmp(k, "includeif.", 10))
		return sc_error("BAD-CONFIG", "%s: includes are refused", k);
	if (!strcmp(k, "commands.allow"))
		return add_argv(&cfg->allow, k, v, 1);
	if (!strcmp(k, "commands.allowprefix"))
		return add_argv(&cfg->allow_prefix, k, v, 2);
	if (!strcmp(k, "sandbox.networkallow"))
		return add_argv(&cfg->net_allow, k, v, 1);
	if (!strcmp(k, "sandbox.networkallowprefix"))
		return add_argv(&cfg->net_allow_prefix, k, v, 2);
	if (!strcmp(k, "sandbox.networkhosts"))
		return add_host(&cfg->net_hosts, &cfg->nr_net_hosts,
				&cfg->alloc_net_hosts, k, v, ld);
	if (!strcmp(k, "mask.allowfingerprint"))
		return add_fingerprint(ld, cfg, k, v);
	if ((sub = subsection(k, "network")))
		return add_net(ld, k, sub, v);
	if ((sub = subsection(k, "check"))) {
		free(sub);
		if (suffix(k, ".argv"))
			return add_argv(&cfg->checks, k, v, 1);
		return 0;
	}
	if ((sub = subsection(k, "mcp"))) {
		int ret = 0;

		if (suffix(k, ".allow"))
			ret = add_mcp(cfg, k, sub, v);
		add_server(cfg, sub);
		return ret;
	}
	return 0;
}

int sc_config_host_key(const char *key)
{
	char *sub = subsection(key, "network");
	int hosts = sub && suffix(key, ".hosts");

	free(sub);
	return hosts || !strcmp(key, "sandbox.networkhosts");
}

/* One entry; LD counts them, so a bad one can be found by its line. */
static int add_entry(const char *k, const char *v, void *ctx)
{
	struct load *ld = ctx;
	int ret = add_one(ld, ld->cfg, k, v);

	ld->at++;
	return ret;
}

/* A reader's status as a configuration's, CFG emptied on failure. */
static int loaded(struct sc_config *cfg, int st)
{
	if (st != SC_GITCONFIG_OK)
		sc_config_release(cfg);
	switch (st) {
	case SC_GITCONFIG_OK:
		return SC_CONFIG_OK;
	case SC_GITCONFIG_UNREADABLE:
	case SC_GITCONFIG_NO_LIBGIT2:
		return SC_CONFIG_UNREADABLE;
	default:
		return SC_CONFIG_BAD;
	}
}

int sc_config_load(struct sc_config *cfg, const char *path)
{
	struct load ld = { cfg, path, 0 };
	struct stat st;

	/* libgit2 treats a missing file as empty: a named file must exist */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		sc_error("CONFIG-UNREADABLE", "cannot read '%s'", path);
		return SC_CONFIG_UNREADABLE;
	}
	return loaded(cfg, sc_gitconfig_foreach(path, "BAD-CONFIG", add_entry,
						 &ld));
}

int sc_config_load_mem(struct sc_config *cfg, const char *data, size_t len)
{
	struct load ld = { cfg, NULL, 0 };

	return loaded(cfg, sc_gitconfig_foreach_mem(data, len, "BAD-CONFIG",
						    add_entry, &ld));
}
