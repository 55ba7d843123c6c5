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

/* A host list entry, checked as sc-sandbox-exec --allow-host checks it. */
static int add_host(char ***v, size_t *nr, size_t *alloc, const char *key,
		    const char *value)
{
	const char *why;

	if (sc_host_entry_check(value, &why) < 0)
		return sc_error("BAD-CONFIG", "%s: '%s': %s", key, value, why);
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
static int add_net(struct sc_config *cfg, const char *k, char *sub,
		   const char *v)
{
	struct sc_net_rule *r = net_rule(cfg, sub);

	if (suffix(k, ".argv"))
		return add_argv(&r->argv, k, v, 1);
	if (suffix(k, ".argvprefix"))
		return add_argv(&r->argv_prefix, k, v, 2);
	if (suffix(k, ".hosts"))
		return add_host(&r->hosts, &r->nr_hosts, &r->alloc_hosts, k, v);
	return sc_error("BAD-CONFIG", "%s: unknown key (argv, argvPrefix or "
			"hosts)", k);
}

static int suffix(const char *name, const char *end)
{
	size_t n = strlen(name), e = strlen(end);

	return n > e && !strcmp(name + n - e, end);
}

/* One file being read: where a message says a key was. */
struct load {
	struct sc_config *cfg;
	const char *path;     /* NULL for text in memory */
	const char *data;     /* the text in memory, or NULL */
	size_t len;
	size_t nr_fps;        /* mask.allowFingerprint entries seen */
};

/* 1 when the bytes from P to END are WORD, case aside. */
static int word_is(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - p) == n && !strncasecmp(p, word, n);
}

/* Past the characters of a name (letters, digits, '-'), up to END. */
static const char *name_end(const char *p, const char *end)
{
	while (p < end && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			   (*p >= '0' && *p <= '9') || *p == '-'))
		p++;
	return p;
}

static const char *blanks_end(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/*
 * The line of the Nth (from 0) "allowFingerprint" key of a [mask]
 * section in the LEN bytes at TEXT, or 0.  libgit2 gives entries in file
 * order without their lines, so a message finds its line here.
 */
static unsigned long fp_key_line(const char *text, size_t len, size_t nth)
{
	const char *p = text, *end = text + len, *nl, *e;
	unsigned long line = 0;
	int in_mask = 0;

	for (; p && p < end; p = nl + 1) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		p = blanks_end(p, nl);
		if (p < nl && *p == '[') {
			p = blanks_end(p + 1, nl);
			e = name_end(p, nl);
			in_mask = word_is(p, e, "mask") &&
				  (e = blanks_end(e, nl)) < nl && *e == ']';
			p = memchr(p, ']', (size_t)(nl - p));
			if (!p)
				continue;
			p = blanks_end(p + 1, nl);
		}
		e = name_end(p, nl);
		if (in_mask && word_is(p, e, "allowFingerprint") && !nth--)
			return line;
	}
	return 0;
}

/* mask.allowFingerprint: 16 lower-case hex digits, as --scan prints. */
static int add_fingerprint(struct load *l, const char *v)
{
	struct sc_config *cfg = l->cfg;
	struct sc_buf text = SC_BUF_INIT;
	unsigned long line = 0;
	size_t nth = l->nr_fps++;

	if (sc_scan_fingerprint_valid(v)) {
		SC_ALLOC_GROW(cfg->allow_fps, cfg->nr_allow_fps + 1,
			      cfg->alloc_allow_fps);
		cfg->allow_fps[cfg->nr_allow_fps++] = sc_xstrdup(v);
		return 0;
	}
	if (l->data)
		line = fp_key_line(l->data, l->len, nth);
	else if (sc_read_file_max(l->path, (size_t)4 << 20, &text) == 0)
		line = fp_key_line(text.data, text.len, nth);
	sc_buf_release(&text);
	/* The value is not shown: what was pasted may be the secret.
	 * ("%.0lu" prints nothing for line 0: no line found.) */
	return sc_error("BAD-CONFIG", "%s%s%.0lu: mask.allowFingerprint: not a "
			"fingerprint (16 lower-case hex digits, as sc-mask "
			"--scan prints it)", l->path ? l->path : "(text)",
			line ? " line " : "", line);
}

static int add_entry(const char *k, const char *v, void *ctx)
{
	struct load *l = ctx;
	struct sc_config *cfg = l->cfg;
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
				&cfg->alloc_net_hosts, k, v);
	if (!strcmp(k, "mask.allowfingerprint"))
		return add_fingerprint(l, v);
	if ((sub = subsection(k, "network")))
		return add_net(cfg, k, sub, v);
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
	struct load l = { cfg, path, NULL, 0, 0 };
	struct stat st;

	/* libgit2 treats a missing file as empty: a named file must exist */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		sc_error("CONFIG-UNREADABLE", "cannot read '%s'", path);
		return SC_CONFIG_UNREADABLE;
	}
	return loaded(cfg, sc_gitconfig_foreach(path, "BAD-CONFIG", add_entry,
						 &l));
}

int sc_config_load_mem(struct sc_config *cfg, const char *data, size_t len)
{
	struct load l = { cfg, NULL, data, len, 0 };

	return loaded(cfg, sc_gitconfig_foreach_mem(data, len, "BAD-CONFIG",
						    add_entry, &l));
}
