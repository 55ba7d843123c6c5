#ifndef SC_MODELTOOL_H
#define SC_MODELTOOL_H

/*
 * sc-model(1), the tool: its main parses the command line, fills the
 * provider P (lib/model/provider.h) and calls one of these (lib/diag.h).  Each
 * returns the exit status of sc-model(1).
 */

#include "opt.h"
#include "provider.h"

/*
 * Prepare P (sc_provider_prepare: a usage error is TOOL's usage message),
 * read the conversation from stdin, ask P, then write the whole reply at
 * once: never a partial one.  ALLOWED: the labels the conversation may
 * carry; BUDGET: the tokens it may take (0: no bound).
 */
int sc_model_ask_run(const struct sc_tool *tool, struct sc_provider *p,
		     unsigned allowed, unsigned long long budget,
		     int force_records);

/*
 * --credential-source: one record naming where the key or the AWS
 * credentials would come from, for doctor; nothing is read from standard
 * input and nothing is sent.
 */
int sc_model_credential_run(struct sc_provider *p, int force_records);

#endif
