#ifndef SC_CONFIGTOOL_H
#define SC_CONFIGTOOL_H

/*
 * sc-config(1), the tool: its main parses the command line and calls
 * sc_config_run() (lib/diag.h).  The file is read whole by the one reader
 * of speccoder.conf (config.h) whatever is asked, so a file any tool would
 * refuse is refused here too; nothing half-read goes out.
 */

/* What sc-config is asked: one of these, as its options say. */
enum sc_config_ask {
	SC_CONFIG_ASK_GET = 'g', /* --get KEY: the last value */
	SC_CONFIG_ASK_GET_ALL = 'A', /* --get-all KEY: every value */
	SC_CONFIG_ASK_LIST = 'l', /* --list: every entry as a record */
	SC_CONFIG_ASK_CHECKS = 'c', /* --checks */
	SC_CONFIG_ASK_ACCEPTANCE = 'a', /* --acceptance */
	SC_CONFIG_ASK_FORMAT = 'F', /* --format */
	SC_CONFIG_ASK_MUTATION = 'M', /* --mutation */
	SC_CONFIG_ASK_EXECUTOR = 'x', /* --executor */
	SC_CONFIG_ASK_CHECK = 'C', /* --check: read it, write nothing */
	SC_CONFIG_ASK_LIBGIT2_VERSION = 'V', /* the libgit2 the tools load */
};

struct sc_config_opts {
	int mode;               /* enum sc_config_ask */
	const char *file;       /* the configuration */
	const char *key;        /* --get, --get-all */
	int nul;                /* -z */
};

/* Run sc-config as O says; the exit status of sc-config(1). */
int sc_config_run(const struct sc_config_opts *o);

#endif
