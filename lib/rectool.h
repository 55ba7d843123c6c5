#ifndef SC_RECTOOL_H
#define SC_RECTOOL_H

/*
 * sc-rec(1), the tool: its main parses the command line and calls
 * sc_rec_run() (lib/diag.h).  The format is lib/record.c, its JSON form
 * lib/recjson.c.
 */

enum sc_rec_mode {
	SC_REC_FIELDS,          /* NAME=VALUE...: one record */
	SC_REC_TO_JSON,         /* --to-json */
	SC_REC_FROM_JSON,       /* --from-json */
	SC_REC_FOR_TERMINAL,    /* --for-terminal */
};

struct sc_rec_opts {
	enum sc_rec_mode mode;
	int force_records;      /* -z */
	char *const *fields;    /* NAME=VALUE, each checked, type= first */
	int nfields;
};

/* Run sc-rec as O says; the exit status of sc-rec(1). */
int sc_rec_run(const struct sc_rec_opts *o);

#endif
