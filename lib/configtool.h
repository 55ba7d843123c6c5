#ifndef SC_CONFIGTOOL_H
#define SC_CONFIGTOOL_H

/*
 * sc-config(1), the tool: its main parses the command line and calls
 * sc_config_run() or sc_config_libgit2_version_run() (lib/diag.h).  The
 * file is read by the one reader of speccoder.conf (config.h).
 */

enum sc_config_query {
	SC_CONFIG_Q_GET,        /* --get KEY: the last value */
	SC_CONFIG_Q_GET_ALL,    /* --get-all KEY: every value */
	SC_CONFIG_Q_LIST,       /* --list: every entry as a record */
	SC_CONFIG_Q_CHECKS,     /* --checks */
	SC_CONFIG_Q_ACCEPTANCE, /* --acceptance */
	SC_CONFIG_Q_FORMAT,     /* --format */
	SC_CONFIG_Q_MUTATION,   /* --mutation */
	SC_CONFIG_Q_EXECUTOR,   /* --executor */
	SC_CONFIG_Q_CHECK,      /* --check: read whole, write nothing */
	SC_CONFIG_Q_MCP,        /* --mcp: the MCP servers */
};

struct sc_config_opts {
	enum sc_config_query query;
	const char *file;       /* --file, or speccoder.conf */
	const char *key;        /* GET and GET_ALL: KEY as given */
	int nul;                /* -z */
};

/*
 * Read O's file whole and answer O's query on standard output; nothing is
 * written when the file is refused.  SC_EXIT_NO when what is asked is not
 * configured (an unset key, no [format]...).
 */
int sc_config_run(const struct sc_config_opts *o);

/* --libgit2-version: the version of the libgit2 the tools load. */
int sc_config_libgit2_version_run(void);

#endif
