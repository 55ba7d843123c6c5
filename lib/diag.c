#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "termtext.h"

/* Long enough for any message; longer ones are cut, never overflowed. */
#define SC_DIAG_MAX 1024

static const char *progname = "sc";

void sc_diag_init(const char *name)
{
	const char *slash = strrchr(name, '/');

	progname = slash ? slash + 1 : name;
}

const char *sc_progname(void)
{
	return progname;
}

void sc_sanitize(char *dst, size_t dstsz, const char *src, size_t len)
{
	sc_term_clean_into(dst, dstsz, src, len);
}

__attribute__((format(printf, 4, 0)))
static void report(const char *kind, const char *code, const char *suffix,
		   const char *fmt, va_list ap)
{
	char raw[SC_DIAG_MAX], clean[SC_DIAG_MAX];
	int n = vsnprintf(raw, sizeof(raw), fmt, ap);

	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(raw))
		n = sizeof(raw) - 1;
	sc_sanitize(clean, sizeof(clean), raw, (size_t)n);
	/* One fprintf per message so concurrent writers do not interleave. */
	fprintf(stderr, "%s: %s[%s]: %s%s%s\n", progname, kind, code, clean,
		suffix ? ": " : "", suffix ? suffix : "");
	fflush(stderr);
}

void sc_vreport(const char *kind, const char *code, const char *fmt,
		va_list ap)
{
	report(kind, code, NULL, fmt, ap);
}

int sc_error(const char *code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error", code, NULL, fmt, ap);
	va_end(ap);
	return -1;
}

int sc_error_errno(const char *code, const char *fmt, ...)
{
	const char *why = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	report("error", code, why, fmt, ap);
	va_end(ap);
	return -1;
}

void sc_warning(const char *code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning", code, NULL, fmt, ap);
	va_end(ap);
}

void sc_die(int status, const char *code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error", code, NULL, fmt, ap);
	va_end(ap);
	exit(status);
}

void sc_die_errno(int status, const char *code, const char *fmt, ...)
{
	const char *why = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	report("error", code, why, fmt, ap);
	va_end(ap);
	exit(status);
}
