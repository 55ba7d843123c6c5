#ifndef SC_DOTENV_H
#define SC_DOTENV_H

/*
 * A dotenv parser (the --secrets-file format of sc-mask(1)):
 *
 *   # comment
 *   NAME=unquoted value   # a comment after white space
 *   export NAME='single quoted, literal, may span lines'
 *   NAME="double quoted: \n \r \t \" \\ \$ \` escapes, may span lines"
 *   NAME = value           (white space around '=' is allowed)
 *
 * NAME is [A-Za-z_][A-Za-z0-9_.-]*.  Nothing is expanded.  Any other line,
 * an unterminated quote, text after a closing quote, or a NUL byte is an
 * error naming the line; the parser never reports a value in an error.
 */

#include <stddef.h>

struct sc_dotenv_error {
	unsigned long line;  /* 1-based line where the fault is */
	const char *what;    /* a fixed text, never input bytes */
};

/*
 * Called once per assignment in file order.  NAME is NUL-terminated; VALUE
 * holds LEN bytes (NUL-terminated too) and is wiped after the call.  A
 * non-zero return stops the parse and is returned.
 */
typedef int (*sc_dotenv_fn)(void *ctx, const char *name, const char *value,
			    size_t len);

/* 0 when the whole text parsed, -1 on a syntax error (ERR filled in). */
int sc_dotenv_parse(const char *text, size_t len, sc_dotenv_fn fn, void *ctx,
		    struct sc_dotenv_error *err);

#endif
