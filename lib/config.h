#ifndef SC_CONFIG_H
#define SC_CONFIG_H

/*
 * speccoder.conf(5): the project's configuration, in git-config syntax,
 * read with libgit2 from the one file named, never from the user's global
 * or system git configuration.  include.path and includeIf are refused: a
 * configuration that decides what is allowed must not pull in files the
 * agent can write.
 *
 * An argv is one string split as a shell splits words (quotes and
 * backslashes honoured, nothing expanded); a key that holds a list is
 * repeated.
 */

#include <stddef.h>

struct sc_argv {
	char **v;        /* NULL-terminated */
	size_t n;
};

struct sc_mcp_allow {
	char *server;
	char *tool;
	char *digest;    /* NULL when the entry pins no definition digest */
};

struct sc_argv_list {
	struct sc_argv *items;
	size_t nr, alloc;
};

/*
 * [network "NAME"]: the hosts one command (argv, exact) or family of
 * commands (argvPrefix) may reach through sc-sandbox-exec --network hosts.
 */
struct sc_net_rule {
	char *name;
	struct sc_argv_list argv;         /* network.NAME.argv */
	struct sc_argv_list argv_prefix;  /* network.NAME.argvPrefix */
	char **hosts;                     /* network.NAME.hosts, checked */
	size_t nr_hosts, alloc_hosts;
};

struct sc_config {
	struct sc_argv_list checks;          /* check.NAME.argv */
	struct sc_argv_list allow;           /* commands.allow: exact argv */
	struct sc_argv_list allow_prefix;    /* commands.allowPrefix */
	struct sc_argv_list net_allow;       /* sandbox.networkAllow */
	struct sc_argv_list net_allow_prefix; /* sandbox.networkAllowPrefix */
	char **servers;                      /* every mcp.NAME section */
	size_t nr_servers, alloc_servers;
	struct sc_mcp_allow *mcp;            /* mcp.NAME.allow */
	size_t nr_mcp, alloc_mcp;
	char **net_hosts;                    /* sandbox.networkHosts, checked */
	size_t nr_net_hosts, alloc_net_hosts;
	struct sc_net_rule *net_rules;       /* every network.NAME section */
	size_t nr_net_rules, alloc_net_rules;
	char **allow_fps;                    /* mask.allowFingerprint, checked:
						16 lower-case hex digits */
	size_t nr_allow_fps, alloc_allow_fps;
};

enum sc_config_status {
	SC_CONFIG_OK = 0,
	SC_CONFIG_UNREADABLE = -1,  /* error[CONFIG-UNREADABLE] printed */
	SC_CONFIG_BAD = -2,         /* error[BAD-CONFIG] printed */
};

void sc_config_init(struct sc_config *cfg);
void sc_config_release(struct sc_config *cfg);
/* Read PATH into CFG.  Returns an sc_config_status. */
int sc_config_load(struct sc_config *cfg, const char *path);

/*
 * Parse a config file's text held in memory (for the fuzz target): the
 * text is written to a private temporary file and loaded as above.
 */
int sc_config_load_mem(struct sc_config *cfg, const char *data, size_t len);

/* 1 when SERVER has an [mcp "SERVER"] section. */
int sc_config_has_server(const struct sc_config *cfg, const char *server);

void sc_argv_free(struct sc_argv *a);

/* 1 when KEY (libgit2's spelling) holds host list entries:
 * sandbox.networkhosts and network.NAME.hosts. */
int sc_config_host_key(const char *key);

/*
 * Check VALUE, entry AT (from 0, in file order) of PATH (NULL: from
 * memory) named KEY, as sc-sandbox-exec --allow-host checks a host: 0, or
 * -1 with error[BAD-CONFIG] naming the file, the entry's line, the key and
 * why.  sc-classify and sc-config --get-all check alike.
 */
int sc_config_check_host(const char *path, size_t at, const char *key,
			 const char *value);


#endif
