#ifndef SC_ACPCALL_H
#define SC_ACPCALL_H
/*
 * The agent's requests as type=call records for sc-acp's caller: the one
 * place that says which speccoder tool an ACP request is, so the caller
 * judges it with the same policy as a native call.
 */
#include <jansson.h>
#include "buf.h"
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

/* The most of the agent's own request a call carries (request=). */
#define SC_ACP_REQUEST_MAX ((size_t)64 << 10)

/*
 * The call records for a session/request_permission TOOLCALL (the request
 * merged over what the agent announced of the call): the agent's own
 * tool mapped to speccoder's, as a native call would be: tool=read, list,
 * write (content= when the whole new text is known; edit=1 when only a
 * part of the file changes), delete, run (shell= or argv=, cwd=),
 * network (url=), and a move as two calls (delete of the source, write of
 * the destination).  What cannot be one object is tool=other with the
 * agent's whole request in request=, for a person.  Each with
 * permission=1, kind=, tool-call-id= and title=, and outside=1 when the
 * agent would act in its own process (not through the client's file and
 * terminal methods, where it is judged again).  Ids come from ++*NEXT_ID.
 * Returns how many records R holds (1 or 2), each initialised here.
 */
size_t sc_acp_permission_calls(struct sc_record r[2], unsigned long *next_id,
			       const char *root, json_t *toolcall);

/*
 * The object a grant of call R covers (tool, path, command, cwd, url, the
 * request of an unmapped call) into OUT: two calls with the same object
 * are the same decision.
 */
void sc_acp_call_object(const struct sc_record *r, struct sc_buf *out);

#endif
