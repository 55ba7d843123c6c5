#ifndef SC_ACPCALL_H
#define SC_ACPCALL_H
/*
 * The agent's requests as type=call records for sc-acp's caller: the one
 * place that says which speccoder tool an ACP request is, so the caller
 * judges it with the same policy as a native call.
 */
#include <jansson.h>
#include "record.h"

/* Start R as "type=call id=ID tool=TOOL" (R is initialised here). */
void sc_acp_call_start(struct sc_record *r, unsigned long id, const char *tool);

/*
 * Add field NAME for PATH as the caller judges it: relative to ROOT (an
 * absolute, resolved directory) when PATH is inside it, "." for ROOT
 * itself; any other path as the agent wrote it, for the caller to refuse.
 * Lexical only: sc-classify resolves symlinks and "..".
 */
void sc_acp_add_path(struct sc_record *r, const char *root, const char *name,
		     const char *path);

/*
 * The call record for a session/request_permission TOOLCALL: the agent's
 * own tool mapped to speccoder's (read, list, write, delete, run,
 * network), or tool=other when it cannot be judged as one object; with
 * permission=1, kind=, tool-call-id= and title=.  Everything the agent
 * would do outside speccoder's sandboxed tools (commands, fetches, the
 * rest) gets outside=1: a person decides.
 */
void sc_acp_permission_call(struct sc_record *r, unsigned long id,
			    const char *root, json_t *toolcall);

#endif
