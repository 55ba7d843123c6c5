/*
 * /etc/passwd read directly: see passwd.h for why not getpwuid.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "io.h"
#include "passwd.h"

#define PASSWD_FIELDS 7

/* A uid as passwd(5) writes it: decimal digits only, within uid_t. */
static int parse_uid(const char *p, size_t len, uid_t *out)
{
	unsigned long long v = 0;
	size_t i;

	if (!len || len > 10)
		return -1;
	for (i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (unsigned)(p[i] - '0');
	}
	if (v > (uid_t)-1 - 1)   /* (uid_t)-1 is "no uid" to the kernel */
		return -1;
	*out = (uid_t)v;
	return 0;
}

/*
 * Split the line P..END at its colons into F (start, length): 0 when it
 * has exactly PASSWD_FIELDS fields.
 */
static int split(const char *p, const char *end, const char *f[],
		 size_t flen[])
{
	size_t n = 0;

	for (;;) {
		const char *c = memchr(p, ':', (size_t)(end - p));

		if (n == PASSWD_FIELDS)
			return -1;
		f[n] = p;
		flen[n++] = (size_t)((c ? c : end) - p);
		if (!c)
			break;
		p = c + 1;
	}
	return n == PASSWD_FIELDS ? 0 : -1;
}

int sc_passwd_parse_home(const char *data, size_t len, uid_t uid, char **home)
{
	const char *p = data, *end, *nl;

	*home = NULL;
	if (!data)
		return SC_PASSWD_NOT_FOUND;
	for (end = data + len; p < end; p = nl + 1) {
		const char *f[PASSWD_FIELDS];
		size_t flen[PASSWD_FIELDS];
		const char *le;
		uid_t u;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		le = nl;
		if (le > p && le[-1] == '\r')
			le--;
		/* NIS compat lines name no user of their own. */
		if (p == le || *p == '+' || *p == '-' || *p == '#' ||
		    memchr(p, '\0', (size_t)(le - p)) ||
		    split(p, le, f, flen) < 0 || !flen[0] ||
		    parse_uid(f[2], flen[2], &u) < 0 || u != uid)
			continue;
		/* The first entry for the uid is the one getpwuid gives. */
		if (!flen[5] || f[5][0] != '/')
			return SC_PASSWD_NOT_FOUND;
		*home = sc_xmemdup(f[5], flen[5]);
		return SC_PASSWD_FOUND;
	}
	return SC_PASSWD_NOT_FOUND;
}

int sc_passwd_home(const char *path, uid_t uid, char **home)
{
	struct sc_buf b = SC_BUF_INIT;
	int ret;

	*home = NULL;
	if (sc_read_file_max(path, SC_PASSWD_MAX, &b) != 0) {
		sc_buf_release(&b);
		return SC_PASSWD_UNREADABLE;
	}
	ret = sc_passwd_parse_home(b.data ? b.data : "", b.len, uid, home);
	sc_buf_release(&b);
	return ret;
}
