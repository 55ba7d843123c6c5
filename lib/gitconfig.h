#ifndef SC_GITCONFIG_H
#define SC_GITCONFIG_H

#include <stddef.h>

/*
 * Read one file in git-config syntax, as data, with libgit2: the project's
 * speccoder.conf, a sandbox profile.  Only the named file is read: never
 * the user's global, XDG or system configuration, never a repository's.
 *
 * libgit2 is mapped the first time a file is read, not when the program
 * starts: it brings some fifteen shared libraries (TLS, SSH, Kerberos)
 * whose loading costs more than a whole run of a tool that reads no
 * configuration.  Same library, same parser; only the moment changes.
 */

/* Called for each entry in file order; names are lower case as libgit2
 * gives them ("check.test.argv"); VALUE is NULL for a key written without
 * "=" (git reads it as true).  Return 0 to go on, -1 to stop. */
typedef int (*sc_gitconfig_fn)(const char *name, const char *value,
			       void *ctx);

enum sc_gitconfig_status {
	SC_GITCONFIG_OK = 0,
	SC_GITCONFIG_UNREADABLE = -1, /* missing, not a file, unreadable */
	SC_GITCONFIG_BAD = -2,        /* libgit2 refused it (message names the line) */
	SC_GITCONFIG_STOPPED = -3,    /* FN returned -1 */
	SC_GITCONFIG_NO_LIBGIT2 = -4, /* libgit2 cannot be loaded */
};

/*
 * Read PATH and call FN for every entry.  On failure the diagnostic has
 * been printed as error[CODE] (the caller's code, e.g. BAD-CONFIG) or, when
 * libgit2 cannot be loaded, error[LIBGIT2-UNAVAILABLE]; FN reports its own
 * SC_GITCONFIG_STOPPED.
 */
int sc_gitconfig_foreach(const char *path, const char *code,
			 sc_gitconfig_fn fn, void *ctx);

/*
 * The same over LEN bytes at DATA (fuzz targets, tests): written to a
 * private temporary file that is removed afterwards, since libgit2 1.5
 * parses only files.  SC_GITCONFIG_UNREADABLE when that file cannot be
 * made.
 */
int sc_gitconfig_foreach_mem(const char *data, size_t len, const char *code,
			     sc_gitconfig_fn fn, void *ctx);

/* The version of the libgit2 the tools load, as "MAJOR.MINOR.REV"; -1 when
 * it cannot be loaded (error[LIBGIT2-UNAVAILABLE] printed). */
int sc_gitconfig_libgit2_version(char *buf, size_t size);

/*
 * The line (from 1) of entry N (from 0, in file order, as FN sees them)
 * of PATH, when it is named NAME (libgit2's spelling); 0 when it cannot be
 * found.  For a diagnostic only ("FILE:LINE: ..."): git-config syntax is
 * read by libgit2, and this scan of key lines, section headers and
 * continuations never decides anything.
 */
unsigned sc_gitconfig_line(const char *path, size_t n, const char *name);

/* libgit2's boolean: true/yes/on/1, false/no/off/0.  -1 when not one. */
int sc_gitconfig_bool(const char *value, int *out);

#endif
