#ifndef SC_SKILLS_H
#define SC_SKILLS_H

/*
 * The skills a run would load (git-speccoder(1), speccoder.conf(5)):
 *
 * - each [skill "ID"] of speccoder.conf, with version = V, path = P
 *   (relative to the repository's top unless absolute) and
 *   required = true|false (default true);
 * - each repository skill: a directory under .claude/skills/,
 *   .agents/skills/ or .codex/skills/ that holds SKILL.md.  Its id is its
 *   path from the top (".claude/skills/pdf"), its version "repo", and it is
 *   always required: an agent finds it by itself, so it cannot be skipped.
 *   A configured skill whose path is that directory replaces it.
 *
 * Each is written as a type=package id= version= path= required= record,
 * the input of sc-pin verify --records.
 */

#include <stddef.h>

#include "io.h"
#include "skillconf.h"

/* The directories under the top whose subdirectories are skills. */
extern const char *const sc_skill_dirs[];

/*
 * Write the records for repository TOP and configuration CONFIG (NULL:
 * none).  0, or -1 after error[BAD-CONFIG] (a skill without version or
 * path, a bad id, version or required, an unknown key, an include),
 * error[BAD-SKILL-NAME] (a repository skill whose name cannot be an id) or
 * error[INPUT].
 */
int sc_skills_list(const char *top, const char *config,
		   struct sc_output *out);

/*
 * The id and version a run loads the skill at PATH under (the same
 * directory, however spelled), so a pin is made for the id verify looks
 * for: 0 with *ID and *VERSION set (the caller frees them), 1 when no
 * skill a run loads is at PATH, -1 after an error as sc_skills_list's.
 */
int sc_skills_at(const char *top, const char *config, const char *path,
		 char **id, char **version);

#endif
