/*
 * allowed_signers: parsed the way OpenSSH's sshsig.c and sshsigopt do, so a
 * file ssh-keygen -Y verify accepts means the same thing here.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "io.h"
#include "signers.h"

void sc_signers_init(struct sc_signers *s)
{
	s->v = NULL;
	s->nr = s->alloc = 0;
}

static void signer_release(struct sc_signer *g)
{
	free(g->principals);
	free(g->namespaces);
	sc_sshkey_release(&g->key);
}

void sc_signers_release(struct sc_signers *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		signer_release(&s->v[i]);
	free(s->v);
	sc_signers_init(s);
}

/* ---- patterns ---- */

static int match_pattern(const char *s, const char *p, size_t plen)
{
	/* Iterative glob with one backtrack point: linear-ish, no recursion. */
	const char *star = NULL, *ss = NULL, *pend = p + plen;

	while (*s) {
		if (p < pend && (*p == '?' || *p == *s)) {
			s++;
			p++;
		} else if (p < pend && *p == '*') {
			star = ++p;
			ss = s;
		} else if (star) {
			p = star;
			s = ++ss;
		} else {
			return 0;
		}
	}
	while (p < pend && *p == '*')
		p++;
	return p == pend;
}

int sc_match_pattern_list(const char *s, const char *list)
{
	int got = 0;

	while (*list) {
		const char *end = strchr(list, ',');
		size_t len = end ? (size_t)(end - list) : strlen(list);
		int neg = len && *list == '!';

		if (match_pattern(s, list + neg, len - (size_t)neg)) {
			if (neg)
				return -1;
			got = 1;
		}
		list += len + (end ? 1 : 0);
	}
	return got;
}

/* ---- lines ---- */

struct cursor {
	const char *p, *end;
};

static void skip_space(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

/* A word up to white space; quoted as OpenSSH's strdelimw allows. */
static int next_word(struct cursor *c, const char **w, size_t *len)
{
	const char *start = c->p;

	if (c->p < c->end && *c->p == '"') {
		const char *q = memchr(c->p + 1, '"', (size_t)(c->end - c->p - 1));

		if (!q)
			return -1;
		*w = c->p + 1;
		*len = (size_t)(q - c->p - 1);
		c->p = q + 1;
		return c->p < c->end && *c->p != ' ' && *c->p != '\t' ? -1 : 0;
	}
	while (c->p < c->end && *c->p != ' ' && *c->p != '\t')
		c->p++;
	*w = start;
	*len = (size_t)(c->p - start);
	return 0;
}

/* The options word: ends at white space outside double quotes. */
static int options_word(struct cursor *c, const char **w, size_t *len)
{
	int quoted = 0;

	*w = c->p;
	for (; c->p < c->end; c->p++) {
		if (*c->p == '\\' && quoted && c->p + 1 < c->end)
			c->p++;
		else if (*c->p == '"')
			quoted = !quoted;
		else if (!quoted && (*c->p == ' ' || *c->p == '\t'))
			break;
	}
	*len = (size_t)(c->p - *w);
	return quoted ? -1 : 0;
}

static const char *const unsupported_types[] = {
	"sk-ssh-ed25519@openssh.com",
	"sk-ecdsa-sha2-nistp256@openssh.com",
	"ecdsa-sha2-nistp384",
	"ecdsa-sha2-nistp521",
	"ssh-dss",
	"ssh-xmss@openssh.com",
};

/* 1 for a key type we know (usable or not), 0 for anything else. */
static int key_type_known(const char *w, size_t len, const char **unsupported)
{
	size_t i, n = strlen("-cert-v01@openssh.com");

	*unsupported = NULL;
	if (sc_sshkey_type_from_name(w, len) != SC_KEY_NONE)
		return 1;
	for (i = 0; i < sizeof(unsupported_types) / sizeof(*unsupported_types); i++)
		if (strlen(unsupported_types[i]) == len &&
		    !memcmp(unsupported_types[i], w, len)) {
			*unsupported = "key type not supported by sc-attest";
			return 1;
		}
	if (len > n && !memcmp(w + len - n, "-cert-v01@openssh.com", n)) {
		*unsupported = "certificates are not supported";
		return 1;
	}
	return 0;
}

/* ---- times ---- */

static int digits(const char *p, size_t n, int *out)
{
	int v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	*out = v;
	return 0;
}

/* YYYYMMDD[HHMM[SS]][Z], as OpenSSH's parse_absolute_time. */
static int parse_time(const char *s, size_t len, time_t *out)
{
	struct tm tm;
	int utc = len && s[len - 1] == 'Z', v;
	time_t t;

	len -= (size_t)utc;
	if (len != 8 && len != 12 && len != 14)
		return -1;
	memset(&tm, 0, sizeof(tm));
	if (digits(s, 4, &v) || v < 1970 || v > 9999)
		return -1;
	tm.tm_year = v - 1900;
	if (digits(s + 4, 2, &v) || v < 1 || v > 12)
		return -1;
	tm.tm_mon = v - 1;
	if (digits(s + 6, 2, &v) || v < 1 || v > 31)
		return -1;
	tm.tm_mday = v;
	if (len >= 12 && (digits(s + 8, 2, &tm.tm_hour) || tm.tm_hour > 23 ||
			  digits(s + 10, 2, &tm.tm_min) || tm.tm_min > 59))
		return -1;
	if (len == 14 && (digits(s + 12, 2, &tm.tm_sec) || tm.tm_sec > 59))
		return -1;
	tm.tm_isdst = -1;
	t = utc ? timegm(&tm) : mktime(&tm);
	if (t == (time_t)-1)
		return -1;
	*out = t;
	return 0;
}

/* ---- options ---- */

/* Copy a quoted value, undoing \" escapes.  Returns the bytes consumed. */
static size_t dequote(const char *p, const char *end, char **out)
{
	struct sc_buf v = SC_BUF_INIT;
	const char *q = p + 1;

	if (p >= end || *p != '"')
		return 0;
	for (; q < end && *q != '"'; q++) {
		if (*q == '\\' && q + 1 < end && q[1] == '"')
			q++;
		sc_buf_addch(&v, *q);
	}
	if (q >= end) {
		sc_buf_release(&v);
		return 0;
	}
	*out = sc_buf_detach(&v, NULL);
	return (size_t)(q + 1 - p);
}

static int opt_name(const char *p, const char *end, const char *name)
{
	size_t n = strlen(name);

	return (size_t)(end - p) >= n && !strncasecmp(p, name, n);
}

static int one_option(struct sc_signer *g, const char **pp, const char *end,
		      const char **why)
{
	const char *p = *pp;
	char *val = NULL;
	size_t used;

	if (opt_name(p, end, "cert-authority") &&
	    (p + 14 == end || p[14] == ','))
		return *why = "cert-authority is not supported: list each "
			      "signer's own key", -1;
	if (opt_name(p, end, "namespaces=")) {
		p += 11;
		if (g->namespaces)
			return *why = "namespaces given twice", -1;
		if (!(used = dequote(p, end, &val)))
			return *why = "namespaces needs a quoted value", -1;
		g->namespaces = val;
	} else if (opt_name(p, end, "valid-after=") ||
		   opt_name(p, end, "valid-before=")) {
		int after = p[6] == 'a' || p[6] == 'A';

		p += after ? 12 : 13;
		if (after ? g->has_after : g->has_before)
			return *why = "validity option given twice", -1;
		if (!(used = dequote(p, end, &val)))
			return *why = "validity needs a quoted time", -1;
		if (parse_time(val, strlen(val),
			       after ? &g->valid_after : &g->valid_before)) {
			free(val);
			return *why = "bad time: want YYYYMMDD[HHMM[SS]][Z]", -1;
		}
		free(val);
		*(after ? &g->has_after : &g->has_before) = 1;
	} else {
		return *why = "unknown option", -1;
	}
	*pp = p + used;
	return 0;
}

static int parse_options(struct sc_signer *g, const char *p, size_t len,
			 const char **why)
{
	const char *end = p + len;

	while (p < end) {
		if (one_option(g, &p, end, why))
			return -1;
		if (p < end && *p++ != ',')
			return *why = "options must be separated by commas", -1;
		if (p == end && p[-1] == ',')
			return *why = "trailing comma in options", -1;
	}
	return 0;
}

/* ---- one line ---- */

static int parse_key(struct sc_signer *g, struct cursor *c, const char **why)
{
	const char *type, *b64, *unsupported;
	size_t tlen, blen;
	char *tname;
	int ret;

	if (next_word(c, &type, &tlen) || !tlen)
		return *why = "no key", -1;
	if (!key_type_known(type, tlen, &unsupported))
		return *why = "unknown key type", -1;
	skip_space(c);
	if (next_word(c, &b64, &blen) || !blen)
		return *why = "no key after the key type", -1;
	if (unsupported) {
		g->unsupported = unsupported;
		return 0;
	}
	tname = sc_xmemdup(type, tlen);
	ret = sc_sshkey_from_base64(&g->key, tname, b64, blen, why);
	free(tname);
	return ret;
}

static int parse_line(struct sc_signer *g, const char *line, size_t len,
		      const char **why)
{
	struct cursor c = { line, line + len };
	const char *w, *unsupported;
	size_t wlen;

	if (next_word(&c, &w, &wlen) || !wlen)
		return *why = "bad principals", -1;
	if (wlen > SC_SIGNERS_PRINCIPALS_MAX)
		return *why = "principals longer than 1024 bytes", -1;
	g->principals = sc_xmemdup(w, wlen);
	skip_space(&c);
	if (c.p == c.end)
		return *why = "no key", -1;
	/* Options come first when the next word is not a key type. */
	{
		struct cursor peek = c;

		if (next_word(&peek, &w, &wlen) || !key_type_known(w, wlen,
								    &unsupported)) {
			if (options_word(&c, &w, &wlen))
				return *why = "unterminated quote in options", -1;
			if (parse_options(g, w, wlen, why))
				return -1;
			skip_space(&c);
		}
	}
	return parse_key(g, &c, why);
}

static int blank_or_comment(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i == len || p[i] == '#';
}

int sc_signers_parse(struct sc_signers *s, const char *text, size_t len,
		     struct sc_signers_error *err)
{
	const char *p = text, *end = text + len;
	unsigned long lineno = 0;

	err->line = 0;
	err->why = "";
	if (len > SC_SIGNERS_FILE_MAX)
		return err->why = "file larger than 1 MiB", -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct sc_signer g;

		lineno++;
		err->line = lineno;
		if (memchr(p, '\0', n))
			return err->why = "NUL byte in line", -1;
		if (n > SC_SIGNERS_LINE_MAX)
			return err->why = "line longer than 16384 bytes", -1;
		if (n && p[n - 1] == '\r')
			n--;
		if (!blank_or_comment(p, n)) {
			struct cursor c = { p, p + n };

			skip_space(&c);
			memset(&g, 0, sizeof(g));
			sc_sshkey_init(&g.key);
			g.line = lineno;
			if (parse_line(&g, c.p, (size_t)(c.end - c.p), &err->why)) {
				signer_release(&g);
				return -1;
			}
			SC_ALLOC_GROW(s->v, s->nr + 1, s->alloc);
			s->v[s->nr++] = g;
		}
		p = nl ? nl + 1 : end;
	}
	err->line = 0;
	return 0;
}

int sc_signers_load(struct sc_signers *s, const char *path)
{
	struct sc_buf text = SC_BUF_INIT;
	struct sc_signers_error err;
	size_t i;
	int st, ret = 0;

	st = sc_read_file_max(path, SC_SIGNERS_FILE_MAX, &text);
	if (st == -1) {
		sc_buf_release(&text);
		return sc_error_errno("ALLOWED-SIGNERS", "cannot read '%s'",
				      path);
	}
	if (st == -2) {
		ret = sc_error("ALLOWED-SIGNERS", "%s: file larger than 1 MiB",
			       path);
	} else if (sc_signers_parse(s, text.data ? text.data : "", text.len,
				    &err)) {
		if (err.line)
			sc_error("ALLOWED-SIGNERS", "%s:%lu: %s", path, err.line,
				 err.why);
		else
			sc_error("ALLOWED-SIGNERS", "%s: %s", path, err.why);
		ret = -1;
	}
	for (i = 0; !ret && i < s->nr; i++)
		if (s->v[i].unsupported)
			sc_warning("UNSUPPORTED-KEY", "%s:%lu: %s; line ignored",
				   path, s->v[i].line, s->v[i].unsupported);
	sc_buf_release(&text);
	return ret;
}

static enum sc_signer_status signer_allows(const struct sc_signer *g,
					   const char *ns, time_t now)
{
	if (g->namespaces && sc_match_pattern_list(ns, g->namespaces) != 1)
		return SC_SIGNER_NAMESPACE;
	if (g->has_after && now < g->valid_after)
		return SC_SIGNER_NOT_YET_VALID;
	if (g->has_before && now > g->valid_before)
		return SC_SIGNER_EXPIRED;
	return SC_SIGNER_OK;
}

enum sc_signer_status sc_signers_find(const struct sc_signers *s,
				      const struct sc_sshkey *key,
				      const char *ns, time_t now,
				      const struct sc_signer **match)
{
	enum sc_signer_status best = SC_SIGNER_UNKNOWN, st;
	size_t i;

	for (i = 0; i < s->nr; i++) {
		if (!sc_sshkey_equal(&s->v[i].key, key))
			continue;
		st = signer_allows(&s->v[i], ns, now);
		if (st == SC_SIGNER_OK) {
			*match = &s->v[i];
			return st;
		}
		best = st;
	}
	return best;
}

const char *sc_signer_status_text(enum sc_signer_status st)
{
	switch (st) {
	case SC_SIGNER_OK:
		return "allowed";
	case SC_SIGNER_NAMESPACE:
		return "key not allowed for this namespace";
	case SC_SIGNER_NOT_YET_VALID:
		return "key not yet valid";
	case SC_SIGNER_EXPIRED:
		return "key expired";
	default:
		return "key not in the allowed signers file";
	}
}
