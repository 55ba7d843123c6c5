#ifndef SC_GITOPEN_H
#define SC_GITOPEN_H

/*
 * Open a git repository without trusting it: the one function every tool
 * that reads a repository (sc-hash-git, sc-attest) calls.
 *
 * What "safely" means here:
 *   - Through libgit2 only: libgit2 runs no hook, fsmonitor, external
 *     filter, credential helper or alias, whatever the repository's config
 *     says.  Nothing here ever executes git.
 *   - libgit2's global, XDG, system and ProgramData configuration search
 *     paths are emptied before anything else, so neither the user's
 *     ~/.gitconfig nor /etc/gitconfig is read (no safe.directory from there
 *     either).  Only the repository's own config (and what its include.path
 *     pulls in) is read, and only as data.
 *   - The repository is opened without GIT_REPOSITORY_OPEN_FROM_ENV:
 *     GIT_DIR, GIT_WORK_TREE, GIT_CEILING_DIRECTORIES and friends are
 *     ignored; the place is the one the caller names.
 *   - Owner validation is on: a repository owned by another user is refused
 *     (SC_GITOPEN_UNSAFE_OWNER), as git refuses it.
 *   - A repository using what libgit2 1.5 cannot read correctly is refused,
 *     naming the extension: the SHA-256 object format, reftable, the
 *     worktreeConfig extension (git honours it even in a version-0
 *     repository, libgit2 1.5 ignores config.worktree), any extension
 *     unknown to this code, or a repository format version above 1.  It is
 *     never opened "as best it can".
 *
 * The libgit2 options are process-wide; sc_gitopen_init sets them once and
 * must run before any other libgit2 call of the process (sc_gitopen calls
 * it, so a tool that only uses sc_gitopen need not).
 */

#include <git2.h>

enum sc_gitopen_status {
	SC_GITOPEN_OK = 0,
	SC_GITOPEN_NOT_FOUND = -1,      /* error[NOT-A-REPOSITORY] */
	SC_GITOPEN_UNSAFE_OWNER = -2,   /* error[UNSAFE-REPOSITORY-OWNER] */
	SC_GITOPEN_UNSUPPORTED = -3,    /* error[UNSUPPORTED-REPOSITORY] */
	SC_GITOPEN_FAILED = -4,         /* error[GIT-FAILED] (libgit2 or I/O) */
};

/* Set libgit2's process-wide options (idempotent).  0, or -1 with an
 * error[GIT-FAILED] printed. */
int sc_gitopen_init(void);

/*
 * Open the repository at or above DIR (the search stops at a file system
 * boundary).  On success *OUT is the repository (free it with
 * git_repository_free).  On failure the diagnostic has been printed with
 * sc_error and the status says which; the tool's run function maps it to
 * an exit status (lib/diag.h).
 */
int sc_gitopen(git_repository **out, const char *dir);

/* libgit2's last error message, or a fixed text when it has none. */
const char *sc_git_errmsg(void);

#endif
