#ifndef SC_ACPTRACK_H
#define SC_ACPTRACK_H
/*
 * What the agent said about each of its tool calls (sc-acp(1)): ACP's
 * session/request_permission carries a ToolCallUpdate that may hold only
 * the id, the raw input and a title, the kind, locations and diff having
 * come earlier in a tool_call notification.  The tracker keeps each
 * tool_call and its updates by id, merged as ACP says (a field present
 * replaces the one before), so a request is judged on everything the
 * agent announced, and remembers the object a grant covered.
 *
 * Memory is bounded whatever the agent sends: at most SC_ACPTRACK_MAX
 * calls and SC_ACPTRACK_BYTES of their JSON; past either, the oldest
 * calls are forgotten (a request for a forgotten id is judged on what it
 * carries itself, as one for an id never announced).
 */
#include <stddef.h>
#include <jansson.h>

#define SC_ACPTRACK_MAX 1024
#define SC_ACPTRACK_BYTES ((size_t)64 << 20)

struct sc_acptrack_call {
	char *id;
	json_t *info;        /* the merged ToolCall object */
	size_t bytes;        /* what it holds, as the agent sent it */
	char *granted;       /* the object a grant covered, or NULL */
	unsigned long seq;   /* age, for forgetting the oldest */
};

struct sc_acptrack {
	struct sc_acptrack_call *v;
	size_t nr, alloc;
	size_t bytes;
	unsigned long seq;
};

void sc_acptrack_init(struct sc_acptrack *t);
void sc_acptrack_release(struct sc_acptrack *t);

/*
 * Take a tool_call (NEW 1: it replaces any call of that id, as agents
 * that announce a call again mean) or a tool_call_update (NEW 0: merged
 * into the call, or starting one when the id is unknown).  U is the
 * update object (borrowed), COST the size of the message that carried
 * it.  The call, or NULL when U has no string toolCallId.
 */
struct sc_acptrack_call *sc_acptrack_update(struct sc_acptrack *t, json_t *u,
					    int is_new, size_t cost);

/* The call of ID, or NULL. */
struct sc_acptrack_call *sc_acptrack_find(struct sc_acptrack *t,
					  const char *id);

/*
 * A new object: the call as announced (C's info, or nothing) with the
 * fields of UPDATE (a permission request's toolCall) merged over it.
 */
json_t *sc_acptrack_merged(const struct sc_acptrack_call *c, json_t *update);

/* Record that C's object OBJECT was granted (OBJECT copied). */
void sc_acptrack_grant(struct sc_acptrack_call *c, const char *object);

#endif
