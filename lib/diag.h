#ifndef SC_DIAG_H
#define SC_DIAG_H

/*
 * Diagnostics and exit codes shared by every tool.
 *
 * Messages go to stderr as "sc-TOOL: error[CODE]: text" or
 * "sc-TOOL: warning[CODE]: text".  CODE is UPPER-HYPHEN-CASE and listed in
 * the tool's man page.  Control characters in the text are replaced before
 * printing, so input bytes can never move the cursor or forge a line.
 *
 * A message never holds a secret value: name the variable or the field,
 * never its content.
 *
 * Who decides the exit status: a tool's main parses and checks its
 * command line and calls one function of lib/, sc_TOOL_run() (or, for a
 * tool with commands, sc_TOOL_CMD_run()), which returns an enum sc_exit.
 * Those two are the only places an exit status is decided.  Everything
 * below reports with sc_error() and returns -1; a function whose callers
 * must tell one failure from another returns a status enum of its own
 * module instead (enum sc_scan_status, enum sc_tasks_status), documented
 * in its header, and the run function turns it into an exit status, in
 * a static function named *_exit when it takes more than a line.
 * sc_die() with a status is for allocation failure and broken invariants,
 * and sc_usage_error() (opt.h) for the command line.
 * t/0000-conventions.bats holds lib/ to this.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdnoreturn.h>

enum sc_exit {
	SC_EXIT_OK = 0,          /* success: allowed, clean, verified */
	SC_EXIT_NO = 1,          /* a negative answer: deny, finding, failure */
	SC_EXIT_USAGE = 2,       /* the command line is wrong */
	SC_EXIT_MALFORMED = 3,   /* the input is malformed */
	SC_EXIT_UNAVAILABLE = 4, /* the environment cannot give what was required */
	SC_EXIT_INTERNAL = 5,    /* internal or system error */
};

/*
 * The program name in every diagnostic.  Set once by main before anything
 * else; it is the only process-wide state of this module, kept global
 * because every diagnostic of the process carries the same name.
 */
void sc_diag_init(const char *progname);
const char *sc_progname(void);

/* Print "PROG: error[CODE]: ..." and return -1. */
int sc_error(const char *code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* As sc_error, appending ": strerror(errno)". */
int sc_error_errno(const char *code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sc_warning(const char *code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sc_vreport(const char *kind, const char *code, const char *fmt,
		va_list ap) __attribute__((format(printf, 3, 0)));

/* Print an error and exit with STATUS.  For mains and allocation failure. */
noreturn void sc_die(int status, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
noreturn void sc_die_errno(int status, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Copy SRC (length LEN), cleaned for a terminal (sc_term_clean_into() in
 * termtext.h: controls, escape sequences, bidi overrides), into DST: at
 * most DSTSZ-1 bytes, never cutting a character, NUL-terminated.
 */
void sc_sanitize(char *dst, size_t dstsz, const char *src, size_t len);

#endif
