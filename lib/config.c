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
#include "shellwords.h"

int sc_fingerprint_valid(const char *fp)
{
	return strlen(fp) == 16 && strspn(fp, "0123456789abcdef") == 16;
}

void sc_config_init(struct sc_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	sc_checks_init(&cfg->checks);
	sc_checks_init(&cfg->acceptance);
	sc_step_init(&cfg->format);
	sc_step_init(&cfg->mutation);
	sc_executor_init(&cfg->executor);
	sc_sandbox_policy_init(&cfg->sandbox);
}

static void list_release(struct sc_argv_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		sc_strlist_release(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void sc_config_release(struct sc_config *cfg)
{
	size_t i;

	sc_checks_release(&cfg->checks);
	sc_checks_release(&cfg->acceptance);
	sc_step_release(&cfg->format);
	sc_step_release(&cfg->mutation);
	sc_executor_release(&cfg->executor);
	sc_skill_confs_release(&cfg->skills);
	sc_sandbox_policy_release(&cfg->sandbox);
	list_release(&cfg->allow);
	list_release(&cfg->allow_prefix);
	list_release(&cfg->net_allow);
	list_release(&cfg->net_allow_prefix);
	for (i = 0; i < cfg->nr_servers; i++) {
		free(cfg->servers[i].name);
		sc_mcp_conf_release(&cfg->servers[i].conf);
	}
	free(cfg->servers);
	for (i = 0; i < cfg->nr_mcp; i++) {
		free(cfg->mcp[i].server);
		free(cfg->mcp[i].tool);
		free(cfg->mcp[i].digest);
	}
	free(cfg->mcp);
	sc_strlist_release(&cfg->net_hosts);
	for (i = 0; i < cfg->nr_net_rules; i++) {
		struct sc_net_rule *r = &cfg->net_rules[i];

		free(r->name);
		list_release(&r->argv);
		list_release(&r->argv_prefix);
		sc_strlist_release(&r->hosts);
	}
	free(cfg->net_rules);
	sc_strlist_release(&cfg->allow_fps);
	for (i = 0; i < cfg->nr_entries; i++) {
		free(cfg->entries[i].key);
		free(cfg->entries[i].value);
	}
	free(cfg->entries);
	sc_config_init(cfg);
}

static struct sc_mcp_server *server_named(const struct sc_config *cfg,
					  const char *server)
{
	size_t i;

	for (i = 0; i < cfg->nr_servers; i++)
		if (!strcmp(cfg->servers[i].name, server))
			return &cfg->servers[i];
	return NULL;
}

int sc_config_has_server(const struct sc_config *cfg, const char *server)
{
	return server_named(cfg, server) != NULL;
}

struct sc_mcp_conf *sc_config_mcp(struct sc_config *cfg, const char *server)
{
	struct sc_mcp_server *s = server_named(cfg, server);

	return s ? &s->conf : NULL;
}

/* VALUE of KEY split as a shell splits words, into the empty list A. */
static int split_words(const char *key, const char *value,
		       struct sc_strlist *a)
{
	const char *err;
	char **v;
	size_t n, i;

	if (sc_sw_split(value, &v, &n, &err) < 0)
		return sc_error("BAD-CONFIG", "%s: %s", key, err);
	for (i = 0; i < n; i++)
		sc_strlist_add(a, v[i]);
	sc_sw_split_free(v);
	return 0;
}

/* Split VALUE of KEY into a new item of LIST; MIN words at least. */
static int add_argv(struct sc_argv_list *list, const char *key,
		    const char *value, size_t min)
{
	struct sc_strlist a = { 0 };

	if (split_words(key, value, &a) < 0)
		return -1;
	if (a.nr < min) {
		sc_strlist_release(&a);
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

/* The server called SERVER (taken), added when new. */
static struct sc_mcp_server *add_server(struct sc_config *cfg, char *server)
{
	struct sc_mcp_server *s = server_named(cfg, server);

	if (s) {
		free(server);
		return s;
	}
	SC_ALLOC_GROW(cfg->servers, cfg->nr_servers + 1, cfg->alloc_servers);
	s = &cfg->servers[cfg->nr_servers++];
	s->name = server;
	sc_mcp_conf_init(&s->conf);
	return s;
}

/* mcp.SERVER.allow = TOOL [DIGEST] */
static int add_mcp(struct sc_config *cfg, const char *key, const char *server,
		   const char *value)
{
	struct sc_strlist a = { 0 };
	struct sc_mcp_allow *m;

	if (split_words(key, value, &a) < 0)
		return -1;
	if (a.nr < 1 || a.nr > 2) {
		sc_strlist_release(&a);
		return sc_error("BAD-CONFIG", "%s: want a tool name and an "
				"optional definition digest", key);
	}
	SC_ALLOC_GROW(cfg->mcp, cfg->nr_mcp + 1, cfg->alloc_mcp);
	m = &cfg->mcp[cfg->nr_mcp++];
	m->server = sc_xstrdup(server);
	m->tool = sc_xstrdup(a.v[0]);
	m->digest = a.nr > 1 ? sc_xstrdup(a.v[1]) : NULL;
	sc_strlist_release(&a);
	return 0;
}

/* The file being read and the index of its entry being added. */
struct load {
	struct sc_config *cfg;
	const char *path;   /* NULL: read from memory, no file to name */
	size_t at;
	unsigned flags;     /* SC_CONFIG_ENTRIES: no section is read */
};

/*
 * Check VALUE, entry AT of PATH named KEY, as sc-sandbox-exec --allow-host
 * checks a host: 0, or -1 with error[BAD-CONFIG] naming the file, the
 * entry's line, the key and why.
 */
static int check_host(const char *path, size_t at, const char *key,
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

/* A host list entry, already checked (check_entry). */
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
		return sc_strlist_add(&r->hosts, v), 0;
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

	if (sc_fingerprint_valid(v)) {
		sc_strlist_add(&cfg->allow_fps, v);
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

/* [sandbox]: the classifier's keys, then the sandbox's own. */
static int add_sandbox(const struct load *ld, struct sc_config *cfg,
		       const char *k, const char *value)
{
	struct sc_sandbox_src src = { "BAD-CONFIG", ld->path, ld->at, 0, NULL };
	const char *v = value ? value : "";

	if (!strcmp(k, "sandbox.networkallow"))
		return add_argv(&cfg->net_allow, k, v, 1);
	if (!strcmp(k, "sandbox.networkallowprefix"))
		return add_argv(&cfg->net_allow_prefix, k, v, 2);
	if (!strcmp(k, "sandbox.networkhosts"))
		return sc_strlist_add(&cfg->net_hosts, v), 0;
	return sc_sandbox_entry(&cfg->sandbox, &src, k, value);
}

/* [mcp "NAME"]: allow is the classifier's, the rest the server's. */
static int add_mcp_entry(struct sc_config *cfg, const char *k, char *sub,
			 const char *v)
{
	struct sc_mcp_server *s = add_server(cfg, sub);

	if (suffix(k, ".allow"))
		return add_mcp(cfg, k, s->name, v ? v : "");
	return sc_mcp_conf_entry(&s->conf, strrchr(k, '.') + 1, v);
}

/* K without "SECTION." when K is in SECTION, else NULL. */
static const char *in_section(const char *k, const char *section)
{
	size_t n = strlen(section);

	return !strncmp(k, section, n) && k[n] == '.' ? k + n + 1 : NULL;
}

/* 1 when K (libgit2's spelling) holds host list entries, which go to
 * sc-sandbox-exec --allow-host however they are read. */
static int host_key(const char *k)
{
	char *sub = subsection(k, "network");
	int hosts = sub && suffix(k, ".hosts");

	free(sub);
	return hosts || !strcmp(k, "sandbox.networkhosts");
}

/* What every read checks, the entries alone included. */
static int check_entry(const struct load *ld, const char *k, const char *v)
{
	if (!strncmp(k, "include.", 8) || !strncmp(k, "includeif.", 10))
		return sc_error("BAD-CONFIG", "%s: includes are refused: a "
				"configuration must not pull in other files", k);
	if (host_key(k))
		return check_host(ld->path, ld->at, k, v ? v : "");
	return 0;
}

static int add_one(const struct load *ld, struct sc_config *cfg,
		   const char *k, const char *value)
{
	const char *v = value ? value : "", *var;
	char *sub;

	if (check_entry(ld, k, value) < 0)
		return -1;
	if (ld->flags & SC_CONFIG_ENTRIES)
		return 0;
	if ((var = in_section(k, "check")))
		return sc_checks_entry(&cfg->checks, "check", var, value);
	if ((var = in_section(k, "acceptance")))
		return sc_checks_entry(&cfg->acceptance, "acceptance", var,
				       value);
	if ((var = in_section(k, "format")))
		return sc_step_entry(&cfg->format, "format", var, value);
	if ((var = in_section(k, "mutation")))
		return sc_step_entry(&cfg->mutation, "mutation", var, value);
	if ((var = in_section(k, "executor")))
		return sc_executor_entry(&cfg->executor, var, value);
	if ((var = in_section(k, "skill")))
		return sc_skill_conf_entry(&cfg->skills, var, value);
	if (in_section(k, "sandbox"))
		return add_sandbox(ld, cfg, k, value);
	if (!strcmp(k, "commands.allow"))
		return add_argv(&cfg->allow, k, v, 1);
	if (!strcmp(k, "commands.allowprefix"))
		return add_argv(&cfg->allow_prefix, k, v, 2);
	if (!strcmp(k, "mask.allowfingerprint"))
		return add_fingerprint(ld, cfg, k, v);
	if ((sub = subsection(k, "network")))
		return add_net(ld, k, sub, v);
	if ((sub = subsection(k, "mcp")))
		return add_mcp_entry(cfg, k, sub, value);
	return 0;
}

/* After the last entry: what no single entry shows. */
static int finish(struct sc_config *cfg)
{
	size_t i;

	if (sc_checks_finish(&cfg->checks, "check") < 0 ||
	    sc_checks_finish(&cfg->acceptance, "acceptance") < 0 ||
	    sc_step_finish(&cfg->format, "format") < 0 ||
	    sc_step_finish(&cfg->mutation, "mutation") < 0 ||
	    sc_executor_finish(&cfg->executor) < 0 ||
	    sc_skill_conf_finish(&cfg->skills) < 0)
		return -1;
	for (i = 0; i < cfg->nr_servers; i++)
		sc_mcp_conf_finish(&cfg->servers[i].conf);
	return 0;
}

/* One entry, kept as written; LD counts them, so a bad one can be found
 * by its line. */
static int add_entry(const char *k, const char *v, void *ctx)
{
	struct load *ld = ctx;
	struct sc_config *cfg = ld->cfg;
	struct sc_config_entry *e;
	int ret = add_one(ld, cfg, k, v);

	ld->at++;
	if (ret < 0)
		return -1;
	SC_ALLOC_GROW(cfg->entries, cfg->nr_entries + 1, cfg->alloc_entries);
	e = &cfg->entries[cfg->nr_entries++];
	e->key = sc_xstrdup(k);
	e->value = v ? sc_xstrdup(v) : NULL;
	return 0;
}

/* A reader's status as a configuration's, CFG emptied on failure. */
static int loaded(struct sc_config *cfg, int st, unsigned flags)
{
	if (st == SC_GITCONFIG_OK && !(flags & SC_CONFIG_ENTRIES) &&
	    finish(cfg) < 0)
		st = SC_GITCONFIG_BAD;
	if (st != SC_GITCONFIG_OK)
		sc_config_release(cfg);
	switch (st) {
	case SC_GITCONFIG_OK:
		return SC_CONFIG_OK;
	case SC_GITCONFIG_UNREADABLE:
		return SC_CONFIG_UNREADABLE;
	case SC_GITCONFIG_NO_LIBGIT2:
		return SC_CONFIG_NO_LIBGIT2;
	default:
		return SC_CONFIG_BAD;
	}
}

int sc_config_read(struct sc_config *cfg, const char *path, const char *code,
		   unsigned flags)
{
	struct load ld = { cfg, path, 0, flags };
	struct stat st;

	/* libgit2 treats a missing file as empty: a named file must exist */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		sc_error(code, "cannot read '%s'", path);
		return SC_CONFIG_UNREADABLE;
	}
	return loaded(cfg, sc_gitconfig_foreach(path, "BAD-CONFIG", add_entry,
						 &ld), flags);
}

int sc_config_load(struct sc_config *cfg, const char *path)
{
	return sc_config_read(cfg, path, "CONFIG-UNREADABLE", 0);
}

int sc_config_load_mem(struct sc_config *cfg, const char *data, size_t len)
{
	struct load ld = { cfg, NULL, 0, 0 };

	return loaded(cfg, sc_gitconfig_foreach_mem(data, len, "BAD-CONFIG",
						    add_entry, &ld), 0);
}

void sc_config_sandbox_policy(const struct sc_config *cfg,
			      const struct sc_sandbox_policy *over,
			      struct sc_sandbox_policy *out)
{
	const struct sc_sandbox_policy *own = &cfg->sandbox;
	size_t i;

	sc_sandbox_policy_init(out);
	sc_sandbox_policy_merge(out, own);
	/* The project's hosts replace the bare loopback, not a network
	 * someone named. */
	if (cfg->net_hosts.nr && over->net < 0 &&
	    (own->net < 0 || own->net == SC_NET_LOOPBACK)) {
		out->net = SC_NET_HOSTS;
		for (i = 0; i < cfg->net_hosts.nr; i++)
			sc_strlist_add(&out->allow_hosts, cfg->net_hosts.v[i]);
	}
	sc_sandbox_policy_merge(out, over);
}
