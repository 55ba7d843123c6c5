#ifndef SC_CONFIG_H
#define SC_CONFIG_H

/*
 * speccoder.conf(5): the project's configuration, in git-config syntax,
 * read with libgit2 from the one file named, never from the user's global
 * or system git configuration.  include.path and includeIf are refused: a
 * configuration that decides what is allowed must not pull in files the
 * agent can write.
 *
 * This is its one reader: sc_config_load reads the file once, hands each
 * section's entries to the module that owns its type (checks.h,
 * executor.h, mcpconf.h, skills.h, profile.h), checks every section, and
 * gives every tool the same struct sc_config.  A file with one bad entry
 * is refused whole, by every tool alike.
 *
 * An argv is one string split as a shell splits words (quotes and
 * backslashes honoured, nothing expanded); a key that holds a list is
 * repeated.
 */

#include <stddef.h>

#include "checks.h"
#include "executor.h"
#include "mcpconf.h"
#include "profile.h"
#include "skillconf.h"
#include "strlist.h"

struct sc_mcp_allow {
	char *server;
	char *tool;
	char *digest;    /* NULL when the entry pins no definition digest */
};

/* Commands as split words, one sc_strlist each. */
struct sc_argv_list {
	struct sc_strlist *items;
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
	struct sc_strlist hosts;          /* network.NAME.hosts, checked */
};

/* One entry as written, for sc-config --get and --list. */
struct sc_config_entry {
	char *key;       /* libgit2's spelling: section and variable lower case */
	char *value;     /* NULL for a key without "=" */
};

/* [mcp "NAME"]: a server, its settings read for every server. */
struct sc_mcp_server {
	char *name;
	struct sc_mcp_conf conf;
};

struct sc_config {
	struct sc_checks checks;             /* [check "NAME"] */
	struct sc_checks acceptance;         /* [acceptance "NAME"] */
	struct sc_step format, mutation;     /* [format], [mutation] */
	struct sc_executor executor;         /* [executor] */
	struct sc_skill_confs skills;        /* [skill "ID"] */
	/* [sandbox]: the keys of the sandbox itself, as a profile's; unset
	 * values stay unset (sc_sandbox_policy_init). */
	struct sc_sandbox_policy sandbox;
	struct sc_argv_list allow;           /* commands.allow: exact argv */
	struct sc_argv_list allow_prefix;    /* commands.allowPrefix */
	struct sc_argv_list net_allow;       /* sandbox.networkAllow */
	struct sc_argv_list net_allow_prefix; /* sandbox.networkAllowPrefix */
	struct sc_mcp_server *servers;       /* every mcp.NAME section */
	size_t nr_servers, alloc_servers;
	struct sc_mcp_allow *mcp;            /* mcp.NAME.allow */
	size_t nr_mcp, alloc_mcp;
	struct sc_strlist net_hosts;         /* sandbox.networkHosts, checked */
	struct sc_net_rule *net_rules;       /* every network.NAME section */
	size_t nr_net_rules, alloc_net_rules;
	struct sc_strlist allow_fps;         /* mask.allowFingerprint, checked:
						16 lower-case hex digits */
	struct sc_config_entry *entries;     /* every entry, in file order */
	size_t nr_entries, alloc_entries;
};

enum sc_config_status {
	SC_CONFIG_OK = 0,
	SC_CONFIG_UNREADABLE = -1,  /* error[CONFIG-UNREADABLE] printed */
	SC_CONFIG_BAD = -2,         /* error[BAD-CONFIG] printed */
	SC_CONFIG_NO_LIBGIT2 = -3,  /* error[LIBGIT2-UNAVAILABLE] printed */
};

/* 1 when FP is a finding's fingerprint in form (sc-mask --scan, scan.h;
 * mask.allowFingerprint): 16 lower-case hex digits. */
int sc_fingerprint_valid(const char *fp);

void sc_config_init(struct sc_config *cfg);
void sc_config_release(struct sc_config *cfg);
/* Read PATH into CFG.  Returns an sc_config_status; CFG is empty on
 * failure.  A missing file is error[CONFIG-UNREADABLE]. */
int sc_config_load(struct sc_config *cfg, const char *path);
/*
 * The same, a missing file reported as error[CODE] (sc-config's
 * BAD-CONFIG).  FLAGS SC_CONFIG_ENTRIES: the entries alone, for
 * sc-config --get, --get-all and --list, which answer for any key, the
 * project's own included: the syntax, includes and host lists are
 * checked, no section is read.
 */
enum { SC_CONFIG_ENTRIES = 1 };
int sc_config_read(struct sc_config *cfg, const char *path, const char *code,
		   unsigned flags);

/*
 * Parse a config file's text held in memory (for the fuzz target): the
 * text is written to a private temporary file and loaded as above.
 */
int sc_config_load_mem(struct sc_config *cfg, const char *data, size_t len);

/* 1 when SERVER has an [mcp "SERVER"] section. */
int sc_config_has_server(const struct sc_config *cfg, const char *server);
/* The settings of server SERVER, or NULL when it has no section. */
struct sc_mcp_conf *sc_config_mcp(struct sc_config *cfg, const char *server);

/*
 * The sandbox policy of CFG's [sandbox] with OVER (a profile and the
 * command line, already merged) applied on top, into OUT (initialised
 * here): OVER's lists are added and its values win.  sandbox.networkHosts
 * gives --network hosts with those hosts, unless sandbox.network names
 * another network than loopback or OVER names any.
 */
void sc_config_sandbox_policy(const struct sc_config *cfg,
			      const struct sc_sandbox_policy *over,
			      struct sc_sandbox_policy *out);

#endif
