/*
 * The [mcp "NAME"] sections of speccoder.conf: see mcpconf.h.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "confvalue.h"
#include "diag.h"
#include "mcpconf.h"
#include "opt.h"
#include "shellwords.h"

/* The longest timeout of a server's call: an hour. */
#define MAX_TIMEOUT 3600

void sc_mcp_conf_init(struct sc_mcp_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->network = "none";
	c->timeout = 60;
}

void sc_mcp_conf_release(struct sc_mcp_conf *c)
{
	sc_sw_split_free(c->argv);
	sc_strlist_release(&c->env);
	sc_strlist_release(&c->hosts);
	sc_mcp_conf_init(c);
}

int sc_mcp_server_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n && n <= 32 &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789-") == n;
}

int sc_mcp_conf_entry(struct sc_mcp_conf *c, const char *key,
		      const char *value)
{
	unsigned long long t;

	if (!value)
		value = "";
	if (!strcmp(key, "command")) {
		return sc_confvalue_command("mcp.*.command", value, &c->argv,
					    &c->argc);
	} else if (!strcmp(key, "env")) {
		return sc_confvalue_name("mcp.*.env", value, &c->env);
	} else if (!strcmp(key, "network")) {
		if (!strcmp(value, "none"))
			c->network = "none";
		else if (!strcmp(value, "loopback"))
			c->network = "loopback";
		else
			return sc_error("BAD-CONFIG", "mcp.*.network takes none "
					"or loopback");
	} else if (!strcmp(key, "host")) {
		/* sc-sandbox-exec --allow-host judges the form; a word here. */
		if (!*value || strcspn(value, " \t\n\r\v\f") != strlen(value))
			return sc_error("BAD-CONFIG", "mcp.*.host takes one "
					"HOST[:PORT]");
		sc_strlist_add(&c->hosts, value);
	} else if (!strcmp(key, "timeout")) {
		if (sc_parse_uint(value, MAX_TIMEOUT, &t) < 0 || !t)
			return sc_error("BAD-CONFIG", "mcp.*.timeout takes "
					"seconds, 1 to %d", MAX_TIMEOUT);
		c->timeout = (unsigned)t;
	}
	/* allow is config.c's; other keys are left to later versions. */
	return 0;
}

void sc_mcp_conf_finish(struct sc_mcp_conf *c)
{
	/* A server with hosts of its own reaches those, through the proxy. */
	if (c->hosts.nr)
		c->network = "hosts";
}
