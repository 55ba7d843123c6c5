#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "gitconfig.h"
#include "paths.h"
#include "skillconf.h"

/* ---- ID@VERSION: the grammar of speccoder-lock(5) ---- */

static int all_in(const char *s, size_t len, const char *extra)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || (c && strchr(extra, c))))
			return 0;
	}
	return 1;
}

/* An id may name a repository skill by its path: no empty, . or ..
 * component, no leading '/' or '-'. */
int sc_skill_valid_id(const char *id, size_t len)
{
	if (!len || len > 200 || *id == '-' || !all_in(id, len, "._-/"))
		return 0;
	return sc_path_plain(id, len);
}

int sc_skill_valid_version(const char *version, size_t len)
{
	return len && len <= 100 && *version != '-' &&
	       all_in(version, len, "._+-");
}

/* ---- [skill "ID"] ---- */

struct sc_skill_conf *sc_skill_find(struct sc_skill_confs *c, const char *id,
				    size_t len)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (strlen(c->v[i].id) == len && !memcmp(c->v[i].id, id, len))
			return &c->v[i];
	return NULL;
}

struct sc_skill_conf *sc_skill_named(struct sc_skill_confs *c, const char *id,
				     size_t len)
{
	struct sc_skill_conf *sk = sc_skill_find(c, id, len);

	if (sk)
		return sk;
	SC_ALLOC_GROW(c->v, c->nr + 1, c->alloc);
	memset(&c->v[c->nr], 0, sizeof(c->v[c->nr]));
	c->v[c->nr].id = sc_xmemdup(id, len);
	c->v[c->nr].required = 1;
	return &c->v[c->nr++];
}

void sc_skill_confs_release(struct sc_skill_confs *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		free(c->v[i].id);
		free(c->v[i].version);
		free(c->v[i].path);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* VALUE NULL: a key without "=", which git reads as true. */
static int set_key(struct sc_skill_conf *sk, const char *var,
		   const char *raw)
{
	const char *value = raw ? raw : "";

	if (!strcmp(var, "version")) {
		if (!sc_skill_valid_version(value, strlen(value)))
			return sc_error("BAD-CONFIG", "skill '%s': version is "
					"not [A-Za-z0-9._+-]+", sk->id);
		free(sk->version);
		sk->version = sc_xstrdup(value);
		return 0;
	}
	if (!strcmp(var, "path")) {
		if (!*value)
			return sc_error("BAD-CONFIG", "skill '%s': empty path",
					sk->id);
		free(sk->path);
		sk->path = sc_xstrdup(value);
		return 0;
	}
	if (!strcmp(var, "required")) {
		if (sc_gitconfig_bool(raw, &sk->required) < 0)
			return sc_error("BAD-CONFIG", "skill '%s': required is "
					"not true or false", sk->id);
		return 0;
	}
	return sc_error("BAD-CONFIG", "skill '%s': unknown key '%s'", sk->id,
			var);
}

int sc_skill_conf_entry(struct sc_skill_confs *c, const char *key,
			const char *value)
{
	const char *var = strrchr(key, '.');
	struct sc_skill_conf *sk;

	if (!var || var == key)
		return sc_error("BAD-CONFIG", "'skill.%s': a skill needs an id: "
				"[skill \"ID\"]", key);
	sk = sc_skill_named(c, key, (size_t)(var - key));
	if (!sc_skill_valid_id(sk->id, strlen(sk->id)))
		return sc_error("BAD-CONFIG", "skill id '%s' is not valid "
				"(see speccoder-lock(5))", sk->id);
	return set_key(sk, var + 1, value);
}

int sc_skill_conf_finish(const struct sc_skill_confs *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (!c->v[i].version || !c->v[i].path)
			return sc_error("BAD-CONFIG", "skill '%s' needs a "
					"version and a path", c->v[i].id);
	return 0;
}
