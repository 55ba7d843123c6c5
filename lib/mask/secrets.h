#ifndef SC_SECRETS_H
#define SC_SECRETS_H

/*
 * The secrets sc-mask(1) masks, gathered from its sources: the environment
 * (--env, --secret NAME), standard input (--secret-stdin NAME), a dotenv file (--secrets-file), a key file
 * (--key-file NAME=PATH) and a record file (--records, type=secret records
 * with name= and value=).  A value never comes from the command line.
 *
 * Values are wiped when the list is released.  Errors name the source, the
 * line and the variable, never the value.  A source that cannot be read or
 * parsed is an error: masking with a partial list is worse than refusing.
 */

#include <stddef.h>

#include "buf.h"

/* A value holding newlines is also masked line by line (lib/mask/mask.c). */
struct sc_secret {
	char *name;
	struct sc_buf value;
};

struct sc_secrets {
	struct sc_secret *v;
	size_t nr, alloc;
};

void sc_secrets_init(struct sc_secrets *s);
/* Wipe every value and free the list. */
void sc_secrets_release(struct sc_secrets *s);
void sc_secrets_add(struct sc_secrets *s, const char *name,
		    const void *value, size_t len);

/* Which environment variables are secret: sc_env_name_is_secret (env.h). */

/*
 * 1 when VALUE is too weak to mask: under 8 bytes, only digits and dots,
 * or only NUL bytes.
 */
int sc_secrets_value_too_weak(const void *value, size_t len);

/* --env: every variable of ENVP (NAME=VALUE strings) whose name looks secret. */
void sc_secrets_from_environ(struct sc_secrets *s, char *const *envp);
/*
 * --secret NAME: -1 and error[SECRET-UNSET] when NAME is not set (naming
 * it only when it looks like a name, never like a credential).
 */
int sc_secrets_from_var(struct sc_secrets *s, const char *name);
/*
 * --secret-stdin NAME: the value is all of FD, less one final newline (or
 * CR LF); -1 and error[SECRET-NAME], [SECRET-EMPTY] or [SECRETS-FILE].
 */
int sc_secrets_from_fd(struct sc_secrets *s, const char *name, int fd);
/* --secrets-file PATH: -1 and error[SECRETS-FILE] naming the line. */
int sc_secrets_from_dotenv(struct sc_secrets *s, const char *path);
/* --key-file NAME=PATH: -1 and error[KEY-FILE]. */
int sc_secrets_from_key_file(struct sc_secrets *s, const char *spec);
/* --records PATH: -1 and error[SECRETS-FILE] naming the record. */
int sc_secrets_from_records(struct sc_secrets *s, const char *path);

/*
 * A file of the person's (an included file, worktree.include; sc-mask
 * --secret-file): when TEXT is a dotenv file with at least one assignment,
 * the value of every variable whose name looks secret (the --env
 * predicate, sc_env_name_is_secret), masked as the variable's name;
 * otherwise a key file: every line of at least 8 bytes that is not only
 * digits and dots (sc_secrets_value_too_weak), masked as NAME:LINE (LINE
 * 1-based, a CR before the newline not part of it).  Returns which it was.
 */
enum { SC_INCLUDED_DOTENV = 1, SC_INCLUDED_KEY = 2 };
int sc_secrets_from_included(struct sc_secrets *s, const char *name,
			     const char *text, size_t len);
/* --secret-file PATH: the file read whole, then as above with NAME PATH;
 * -1 and error[SECRETS-FILE] when it cannot be read. */
int sc_secrets_from_file(struct sc_secrets *s, const char *path);

#endif
