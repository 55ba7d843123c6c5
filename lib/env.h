#ifndef SC_ENV_H
#define SC_ENV_H

/*
 * Environment scrubbing.  One list decides which variable names look
 * secret; sc-sandbox-exec drops them from a command's environment and
 * sc-mask --env masks their values, so both tools agree by construction.
 */

#include <stddef.h>

/*
 * 1 when NAME (a variable name, without '=') looks like it holds a secret:
 * ending in _API_KEY, _TOKEN or _PAT; starting with AWS_, ANTHROPIC_,
 * OPENAI_, AZURE_; containing SECRET, PASSWORD, KEY, PASS, CREDENTIAL,
 * AUTH, PRIVATE, DSN, COOKIE or SESSION.  Letter case is ignored.
 */
int sc_env_name_is_secret(const char *name);

enum sc_env_mode {
	SC_ENV_SCRUB = 0,  /* keep everything but secret-looking names */
	SC_ENV_SHORT,      /* keep only sc_env_short_list() and the keep list */
};

/* The names --env short keeps, NULL-terminated. */
const char *const *sc_env_short_list(void);

/*
 * Build a new environment from ENVP: by MODE, plus the names in KEEP (NKEEP
 * of them, kept even when they look secret), then the fixed settings
 * (NO_COLOR=1, CARGO_TERM_COLOR=never, GIT_TERMINAL_PROMPT=0) and
 * TMPDIR=TMPDIR when TMPDIR is not NULL.  Returns a NULL-terminated array
 * of new strings; free it with sc_env_free.
 */
char **sc_env_build(char *const *envp, enum sc_env_mode mode,
		    char *const *keep, size_t nkeep, const char *tmpdir);
void sc_env_free(char **env);

/*
 * Where a tool makes its private temporary files: the caller's TMPDIR
 * when it is absolute, else /tmp (a relative TMPDIR would move with the
 * command's working directory).
 */
const char *sc_env_tmpdir(void);

#endif
