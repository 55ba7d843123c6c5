/*
 * The agent's tool calls by id, merged as ACP's tool_call_update says.
 */
#include <stdlib.h>
#include <string.h>

#include "acptrack.h"
#include "alloc.h"

void sc_acptrack_init(struct sc_acptrack *t)
{
	memset(t, 0, sizeof(*t));
}

static void drop(struct sc_acptrack *t, size_t i)
{
	struct sc_acptrack_call *c = &t->v[i];

	t->bytes -= c->bytes;
	free(c->id);
	free(c->granted);
	json_decref(c->info);
	t->v[i] = t->v[--t->nr];
}

void sc_acptrack_release(struct sc_acptrack *t)
{
	while (t->nr)
		drop(t, 0);
	free(t->v);
	sc_acptrack_init(t);
}

struct sc_acptrack_call *sc_acptrack_find(struct sc_acptrack *t,
					  const char *id)
{
	size_t i;

	for (i = 0; id && i < t->nr; i++)
		if (!strcmp(t->v[i].id, id))
			return &t->v[i];
	return NULL;
}

/* Forget the oldest calls until one more of COST bytes fits. */
static void make_room(struct sc_acptrack *t, size_t cost)
{
	while (t->nr && (t->nr >= SC_ACPTRACK_MAX ||
			 t->bytes + cost > SC_ACPTRACK_BYTES)) {
		size_t i, old = 0;

		for (i = 1; i < t->nr; i++)
			if (t->v[i].seq < t->v[old].seq)
				old = i;
		drop(t, old);
	}
}

/* Every member of U but the ones that say what it is, over INFO. */
static void merge_into(json_t *info, json_t *u)
{
	const char *key;
	json_t *v;

	json_object_foreach(u, key, v) {
		if (!strcmp(key, "sessionUpdate"))
			continue;
		/* A null member clears it, as an absent one would read. */
		if (json_is_null(v))
			json_object_del(info, key);
		else
			json_object_set(info, key, v);
	}
}

struct sc_acptrack_call *sc_acptrack_update(struct sc_acptrack *t, json_t *u,
					    int is_new, size_t cost)
{
	const char *id = json_string_value(json_object_get(u, "toolCallId"));
	struct sc_acptrack_call *c;

	if (!id)
		return NULL;
	c = sc_acptrack_find(t, id);
	if (c && is_new) {
		drop(t, (size_t)(c - t->v));
		c = NULL;
	}
	if (c && t->bytes + cost > SC_ACPTRACK_BYTES) {
		/* Keep what a grant covered across the room made for it. */
		char *granted = c->granted;
		json_t *info = json_incref(c->info);

		c->granted = NULL;
		drop(t, (size_t)(c - t->v));
		make_room(t, cost);
		SC_ALLOC_GROW(t->v, t->nr + 1, t->alloc);
		c = &t->v[t->nr++];
		memset(c, 0, sizeof(*c));
		c->id = sc_xstrdup(id);
		c->info = info;
		c->granted = granted;
	} else if (!c) {
		make_room(t, cost);
		SC_ALLOC_GROW(t->v, t->nr + 1, t->alloc);
		c = &t->v[t->nr++];
		memset(c, 0, sizeof(*c));
		c->id = sc_xstrdup(id);
		c->info = json_object();
	}
	merge_into(c->info, u);
	c->bytes += cost;
	t->bytes += cost;
	c->seq = ++t->seq;
	return c;
}

json_t *sc_acptrack_merged(const struct sc_acptrack_call *c, json_t *update)
{
	json_t *m = c ? json_deep_copy(c->info) : json_object();

	if (!m)
		m = json_object();
	if (json_is_object(update))
		merge_into(m, update);
	return m;
}

void sc_acptrack_grant(struct sc_acptrack_call *c, const char *object)
{
	free(c->granted);
	c->granted = sc_xstrdup(object);
}
