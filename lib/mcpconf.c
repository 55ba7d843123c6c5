/*
 * The [mcp "NAME"] sections of speccoder.conf: see mcpconf.h.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "gitconfig.h"
#include "mcpconf.h"
#include "opt.h"
#include "shellwords.h"

/* The longest timeout of a server's call: an hour. */
#define MAX_TIMEOUT 3600

struct ctx {
	struct sc_mcp_conf *c;
	const char *prefix;     /* "mcp.NAME." */
	size_t len;
};

void sc_mcp_conf_init(struct sc_mcp_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->network = "none";
	c->timeout = 60;
}

void sc_mcp_conf_release(struct sc_mcp_conf *c)
{
	sc_sw_split_free(c->argv);
	for (size_t i = 0; i < c->nr_env; i++)
		free(c->env[i]);
	free(c->env);
	sc_mcp_conf_init(c);
}

int sc_mcp_server_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n && n <= 32 &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789-") == n;
}

static int set_key(struct sc_mcp_conf *c, const char *key, const char *value)
{
	const char *why;
	unsigned long long t;

	if (!strcmp(key, "command")) {
		if (c->argv)
			return sc_error("BAD-CONFIG", "mcp.*.command is set twice");
		if (sc_sw_split(value, &c->argv, &c->argc, &why) < 0)
			return sc_error("BAD-CONFIG", "mcp.*.command: %s", why);
		if (!c->argc)
			return sc_error("BAD-CONFIG", "mcp.*.command is empty");
	} else if (!strcmp(key, "env")) {
		if (!sc_sw_is_name(value, strlen(value)))
			return sc_error("BAD-CONFIG", "mcp.*.env '%s' is not a "
					"variable name", value);
		SC_ALLOC_GROW(c->env, c->nr_env + 2, c->alloc_env);
		c->env[c->nr_env++] = sc_xstrdup(value);
		c->env[c->nr_env] = NULL;
	} else if (!strcmp(key, "network")) {
		if (!strcmp(value, "none"))
			c->network = "none";
		else if (!strcmp(value, "loopback"))
			c->network = "loopback";
		else
			return sc_error("BAD-CONFIG", "mcp.*.network takes none "
					"or loopback");
	} else if (!strcmp(key, "timeout")) {
		if (sc_parse_uint(value, MAX_TIMEOUT, &t) < 0 || !t)
			return sc_error("BAD-CONFIG", "mcp.*.timeout takes "
					"seconds, 1 to %d", MAX_TIMEOUT);
		c->timeout = (unsigned)t;
	}
	/* allow is config.c's; other keys are left to later versions. */
	return 0;
}

static int on_entry(const char *key, const char *value, void *data)
{
	struct ctx *x = data;

	if (!value)
		value = "";
	if (!strncmp(key, "include.", 8) || !strncmp(key, "includeif.", 10))
		return sc_error("BAD-CONFIG", "includes are refused: a "
				"configuration must not pull in other files");
	/* libgit2 gives the subsection as written, the rest lower-cased. */
	if (strncmp(key, x->prefix, x->len) || strchr(key + x->len, '.'))
		return 0;
	return set_key(x->c, key + x->len, value);
}

int sc_mcp_conf_load(struct sc_mcp_conf *c, const char *path, const char *name)
{
	struct sc_buf prefix = SC_BUF_INIT;
	struct ctx x;
	int ret;

	sc_mcp_conf_init(c);
	sc_buf_addf(&prefix, "mcp.%s.", name);
	x.c = c;
	x.prefix = prefix.data;
	x.len = prefix.len;
	ret = sc_gitconfig_foreach(path, "BAD-CONFIG", on_entry, &x);
	sc_buf_release(&prefix);
	if (ret)
		sc_mcp_conf_release(c);
	return ret;
}
