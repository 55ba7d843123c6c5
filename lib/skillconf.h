#ifndef SC_SKILLCONF_H
#define SC_SKILLCONF_H

/*
 * The [skill "ID"] sections of speccoder.conf(5), read by sc_config_load
 * (config.h), and the grammar of a skill's id and version that
 * speccoder-lock(5) shares.  Which skills a run loads is skills.h's.
 */

#include <stddef.h>

/* 1 when ID (LEN bytes) is a valid skill id: [A-Za-z0-9._-/], at most
 * 200 bytes, no leading '-', no empty, "." or ".." component. */
int sc_skill_valid_id(const char *id, size_t len);
/* 1 when VERSION (LEN bytes) is [A-Za-z0-9._+-]+, at most 100 bytes, no
 * leading '-'. */
int sc_skill_valid_version(const char *version, size_t len);

/* One [skill "ID"] of speccoder.conf, as written (path not yet joined). */
struct sc_skill_conf {
	char *id, *version, *path;
	int required;
};

struct sc_skill_confs {
	struct sc_skill_conf *v;
	size_t nr, alloc;
};

void sc_skill_confs_release(struct sc_skill_confs *c);

/*
 * One entry of [skill "ID"] (KEY is "ID.VAR"), handed here by
 * sc_config_load (config.h), the one reader of speccoder.conf; then the
 * check that each skill has a version and a path.  0, or -1 with
 * error[BAD-CONFIG] printed (a bad id, version or required, an empty
 * path, an unknown key).
 */
int sc_skill_conf_entry(struct sc_skill_confs *c, const char *key,
			const char *value);
int sc_skill_conf_finish(const struct sc_skill_confs *c);

/* The skill called ID (LEN bytes): NULL when there is none. */
struct sc_skill_conf *sc_skill_find(struct sc_skill_confs *c, const char *id,
				    size_t len);
/* The same, added (required, no version or path yet) when new. */
struct sc_skill_conf *sc_skill_named(struct sc_skill_confs *c, const char *id,
				     size_t len);

#endif
