#ifndef SC_ROOTGUARD_H
#define SC_ROOTGUARD_H

/*
 * What a writable root keeps read-only by default, so that sc-sandbox-exec
 * is safe when used alone (a CI step, `sc-sandbox-exec --root . -- make
 * test`) and not only behind the drivers, which pass --read-only
 * themselves.  A command that could write these would run code on the
 * person's next git command, next agent session or next shell:
 *
 *   - the repository's git directory: ROOT/.git, or the directory a .git
 *     file names (a linked worktree's, with its common directory; a
 *     submodule's), hooks and config included;
 *   - the agent configuration the policy protects (protected.h, class
 *     agent-config: .claude, .codex, .agents, .vscode, .mcp.json, ...),
 *     judged by the policy's own function on each top-level name, in any
 *     letter case;
 *   - shell startup files (.bashrc, .profile, .zshenv, ...) and .gitconfig.
 *
 * Only names present at the top of the root when the command starts are
 * covered: a bind mount needs something to cover.
 */

#include "strlist.h"

/*
 * Append to OUT the real paths under ROOT (a resolved directory) that stay
 * read-only, and outside it the git directories a .git file names.  -1
 * with error[BAD-GITDIR] when ROOT/.git is a file that names a missing
 * directory, or a directory outside ROOT that is not a linked worktree's
 * or a submodule's git directory.
 */
int sc_rootguard_paths(const char *root, struct sc_strlist *out);

/*
 * The paths of sc_rootguard_paths split by WRITABLE (real paths; ROOT
 * itself among them is skipped): a path some writable one names exactly
 * goes to LIFTED, every other to KEEP.  Each lifted path, and each
 * writable path inside a kept one, is named in warning[PROTECTION-LIFTED].
 */
int sc_rootguard_resolve(const char *root, const struct sc_strlist *writable,
			 struct sc_strlist *keep, struct sc_strlist *lifted);

/*
 * 0 when REAL (the resolved form of a --writable argument GIVEN) lies
 * beneath ROOT (resolved).  -1 with error[WRITABLE-OUTSIDE-ROOT]
 * otherwise: a writable place outside the root is asked for by name
 * (--writable-outside), never by a path that merely resolves there.
 */
int sc_rootguard_check_writable(const char *root, const char *real,
				const char *given);

/*
 * Say on stderr that REAL (a --writable-outside path) is writable although
 * it lies outside ROOT: warning[WRITABLE-OUTSIDE], on every run.  Nothing
 * is said for one inside the root.
 */
void sc_rootguard_note_outside(const char *root, const char *real);

/* The shell startup file names kept read-only (folded), NULL-terminated. */
const char *const *sc_rootguard_startup_files(void);

/*
 * 0 when ARG names a usable root: not "/", not a symlink, a directory the
 * user can read and enter.  -1 with error[BAD-ROOT] otherwise.
 */
int sc_rootguard_check_root(const char *arg);

/*
 * The path in the first line of FILE after PREFIX ("gitdir: "), a relative
 * one taken from FILE's directory; NULL when FILE does not hold one.
 */
char *sc_read_pointer(const char *file, const char *prefix);

/* The common directory a linked worktree's GITDIR names, or NULL. */
char *sc_read_commondir(const char *gitdir);

#endif
