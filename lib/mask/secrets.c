#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "dotenv.h"
#include "io.h"
#include "record.h"
#include "scan.h"
#include "env.h"
#include "secrets.h"

/*
 * The largest secrets file read: far above any real one, and a bound on
 * what a mistaken --secrets-file /dev/zero can cost.
 */
#define SECRETS_FILE_MAX ((size_t)16 << 20)

void sc_secrets_init(struct sc_secrets *s)
{
	s->v = NULL;
	s->nr = s->alloc = 0;
}

void sc_secrets_release(struct sc_secrets *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		free(s->v[i].name);
		sc_buf_wipe(&s->v[i].value);
	}
	free(s->v);
	sc_secrets_init(s);
}

void sc_secrets_add(struct sc_secrets *s, const char *name,
		    const void *value, size_t len)
{
	struct sc_secret *sec;

	SC_ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	sec = &s->v[s->nr++];
	sec->name = sc_xstrdup(name);
	sc_buf_init(&sec->value);
	sc_buf_grow(&sec->value, len); /* one allocation: nothing left behind */
	sc_buf_add(&sec->value, value, len);
}

int sc_secrets_value_too_weak(const void *value, size_t len)
{
	const unsigned char *p = value;
	size_t i;

	if (len < 8)
		return 1;
	for (i = 0; i < len; i++)
		if (!isdigit(p[i]) && p[i] != '.')
			break;
	if (i == len)
		return 1;
	/* Only NUL bytes: padding, not a secret (and no literal to match). */
	for (i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

void sc_secrets_from_environ(struct sc_secrets *s, char *const *envp)
{
	for (; *envp; envp++) {
		const char *eq = strchr(*envp, '=');
		char *name;

		if (!eq || eq == *envp)
			continue;
		name = sc_xmemdup(*envp, (size_t)(eq - *envp));
		if (sc_env_name_is_secret(name))
			sc_secrets_add(s, name, eq + 1, strlen(eq + 1));
		free(name);
	}
}

/* A variable name: [A-Za-z_][A-Za-z0-9_]*. */
static int var_name_valid(const char *name)
{
	const char *p;

	for (p = name; *p; p++)
		if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= 'a' && *p <= 'z') || (p > name && *p >= '0' && *p <= '9')))
			return 0;
	return p > name;
}

/*
 * Whether a name a person gave may be echoed: an upper-case variable name
 * that no credential rule matches.  A token pasted where a name goes
 * ("--secret ghp_...", "--secret AKIA...") is never printed.
 */
static int name_may_be_shown(const char *name)
{
	struct sc_buf shown = SC_BUF_INIT;
	struct sc_scanner *sc;
	const char *p;
	int ok;

	for (p = name; *p; p++)
		if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return 0;
	sc = sc_scanner_new();
	if (!sc)
		return 0;
	sc_scan_show_path(sc, name, &shown);
	ok = shown.data && !strcmp(shown.data, name);
	sc_buf_release(&shown);
	sc_scanner_free(sc);
	return ok;
}

int sc_secrets_from_var(struct sc_secrets *s, const char *name)
{
	const char *value;

	/*
	 * Only a variable name is accepted, and a wrong one is not echoed:
	 * "--secret TOKEN=value" must not print the value it was given.
	 */
	if (!var_name_valid(name))
		return sc_error("SECRET-NAME", "--secret takes the name of an "
				"environment variable, never a value");
	value = getenv(name);
	if (value) {
		sc_secrets_add(s, name, value, strlen(value));
		return 0;
	}
	if (name_may_be_shown(name))
		return sc_error("SECRET-UNSET",
				"environment variable '%s' is not set", name);
	return sc_error("SECRET-UNSET", "the environment variable named by "
			"--secret is not set, and what was given looks like a "
			"value, so it is not shown: --secret takes a name; "
			"--secret-stdin NAME reads a value");
}

int sc_secrets_from_fd(struct sc_secrets *s, const char *name, int fd)
{
	struct sc_buf value = SC_BUF_INIT;
	int truncated = 0, ret = 0;

	if (!var_name_valid(name))
		return sc_error("SECRET-NAME", "--secret-stdin takes the name "
				"the value is masked as ([A-Za-z_][A-Za-z0-9_]*)");
	if (sc_read_fd_capped(fd, SECRETS_FILE_MAX, &value, &truncated) < 0) {
		sc_buf_wipe(&value);
		return sc_error_errno("SECRETS-FILE", "cannot read the value "
				      "of '%s' from standard input", name);
	}
	/* The newline echo or a here-string adds is not part of it. */
	if (value.len && value.data[value.len - 1] == '\n')
		value.len--;
	if (value.len && value.data[value.len - 1] == '\r')
		value.len--;
	if (truncated)
		ret = sc_error("SECRETS-FILE", "the value of '%s' on standard "
			       "input is larger than %zu bytes", name,
			       SECRETS_FILE_MAX);
	else if (!value.len)
		ret = sc_error("SECRET-EMPTY", "standard input held no value "
			       "for '%s'", name);
	else
		sc_secrets_add(s, name, value.data, value.len);
	sc_buf_wipe(&value);
	return ret;
}

/*
 * Read the whole regular file PATH into OUT: -1 with errno (EFBIG when
 * too large).  A final symlink is followed: secrets files are often links
 * into a secrets store.
 */
static int read_secret_file(const char *path, struct sc_buf *out)
{
	int st = sc_read_file_at(AT_FDCWD, path, SECRETS_FILE_MAX,
				 SC_OPEN_REGULAR, out);

	if (st == -2)
		errno = EFBIG;
	return st < 0 ? -1 : 0;
}

static void shown_path(char *dst, size_t size, const char *path)
{
	sc_sanitize(dst, size, path, strlen(path));
}

static int add_dotenv(void *ctx, const char *name, const char *value,
		      size_t len)
{
	sc_secrets_add(ctx, name, value, len);
	return 0;
}

int sc_secrets_from_dotenv(struct sc_secrets *s, const char *path)
{
	struct sc_buf text = SC_BUF_INIT;
	struct sc_dotenv_error err;
	char shown[512];
	int ret = 0;

	shown_path(shown, sizeof(shown), path);
	if (read_secret_file(path, &text) < 0) {
		ret = sc_error_errno("SECRETS-FILE", "cannot read '%s'", shown);
	} else if (sc_dotenv_parse(text.data ? text.data : "", text.len,
				   add_dotenv, s, &err) < 0) {
		ret = sc_error("SECRETS-FILE", "%s:%lu: %s", shown, err.line,
			       err.what);
	}
	sc_buf_wipe(&text);
	return ret;
}

int sc_secrets_from_key_file(struct sc_secrets *s, const char *spec)
{
	const char *eq = strchr(spec, '=');
	struct sc_buf text = SC_BUF_INIT;
	char shown[512];
	char *name;
	int ret = 0;

	if (!eq || eq == spec || !eq[1]) {
		shown_path(shown, sizeof(shown), spec);
		return sc_error("KEY-FILE", "'%s' is not NAME=PATH", shown);
	}
	name = sc_xmemdup(spec, (size_t)(eq - spec));
	shown_path(shown, sizeof(shown), eq + 1);
	if (read_secret_file(eq + 1, &text) < 0) {
		ret = sc_error_errno("KEY-FILE", "cannot read '%s'", shown);
	} else {
		/* The final newline ends the file, it is not part of the key. */
		while (text.len && (text.data[text.len - 1] == '\n' ||
				    text.data[text.len - 1] == '\r'))
			text.len--;
		sc_secrets_add(s, name, text.data ? text.data : "", text.len);
	}
	free(name);
	sc_buf_wipe(&text);
	return ret;
}

/* One type=secret record: name= and value= (value may hold NUL). */
static int add_record(struct sc_secrets *s, const struct sc_record *rec,
		      const char *shown, unsigned long nr)
{
	const struct sc_field *value = sc_record_get(rec, "value");
	const char *name = sc_record_str(rec, "name");
	const char *type = sc_record_type(rec);

	if (!type || strcmp(type, "secret"))
		return 0;  /* other records pass: readers ignore what is not theirs */
	if (!name || !*name || !value)
		return sc_error("SECRETS-FILE",
				"%s: record %lu: a secret needs name= and value=",
				shown, nr);
	sc_secrets_add(s, name, value->value, value->value_len);
	return 0;
}

int sc_secrets_from_records(struct sc_secrets *s, const char *path)
{
	struct sc_buf text = SC_BUF_INIT;
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record rec;
	char shown[512];
	unsigned long nr = 0;
	int status, ret = 0;

	shown_path(shown, sizeof(shown), path);
	if (read_secret_file(path, &text) < 0) {
		ret = sc_error_errno("SECRETS-FILE", "cannot read '%s'", shown);
		sc_buf_wipe(&text);   /* what was read before the error */
		return ret;
	}
	sc_input_init_mem(&in, text.data ? text.data : "", text.len);
	sc_reader_init(&rd, &in);
	sc_record_init(&rec);
	while (!ret && (status = sc_reader_next(&rd, &rec)) == SC_READ_RECORD)
		ret = add_record(s, &rec, shown, ++nr);
	if (!ret && status < 0)
		ret = sc_error("SECRETS-FILE", "%s: record %lu: %s at byte %llu",
			       shown, nr + 1,
			       rd.err_what ? rd.err_what : "malformed",
			       (unsigned long long)rd.err_offset);
	/* The record's store held values: wipe it before releasing. */
	sc_buf_wipe(&rec.store);
	sc_record_release(&rec);
	sc_buf_wipe(&text);
	return ret;
}

/* ---- an included file (worktree.include, --secret-file) ------------------ */

struct included_ctx {
	struct sc_secrets found;
	size_t assignments;
};

/* Only the variables whose names look secret: the --env predicate. */
static int add_included_var(void *ctx, const char *name, const char *value,
			    size_t len)
{
	struct included_ctx *c = ctx;

	c->assignments++;
	if (sc_env_name_is_secret(name))
		sc_secrets_add(&c->found, name, value, len);
	return 0;
}

/* Every line of TEXT strong enough to mask, as NAME:LINE. */
static void add_key_lines(struct sc_secrets *s, const char *name,
			  const char *text, size_t len)
{
	struct sc_buf label = SC_BUF_INIT;
	unsigned long line = 0;
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - text - i) : len - i;

		line++;
		if (n && text[i + n - 1] == '\r')
			n--;
		if (!sc_secrets_value_too_weak(text + i, n)) {
			sc_buf_reset(&label);
			sc_buf_addf(&label, "%s:%lu", name, line);
			sc_secrets_add(s, label.data, text + i, n);
		}
		i += (nl ? (size_t)(nl - text - i) + 1 : len - i);
	}
	sc_buf_release(&label);
}

int sc_secrets_from_included(struct sc_secrets *s, const char *name,
			     const char *text, size_t len)
{
	struct included_ctx c;
	struct sc_dotenv_error err;
	size_t i;
	int kind;

	memset(&c, 0, sizeof(c));
	sc_secrets_init(&c.found);
	if (sc_dotenv_parse(text, len, add_included_var, &c, &err) == 0 &&
	    c.assignments) {
		for (i = 0; i < c.found.nr; i++)
			sc_secrets_add(s, c.found.v[i].name,
				       c.found.v[i].value.data ?
				       c.found.v[i].value.data : "",
				       c.found.v[i].value.len);
		kind = SC_INCLUDED_DOTENV;
	} else {
		/* Not dotenv (a key, a certificate, a JSON credential): every
		 * line is a secret, the parse's partial finds dropped. */
		add_key_lines(s, name, text, len);
		kind = SC_INCLUDED_KEY;
	}
	sc_secrets_release(&c.found);
	return kind;
}

int sc_secrets_from_file(struct sc_secrets *s, const char *path)
{
	struct sc_buf text = SC_BUF_INIT;
	char shown[512];
	int ret = 0;

	shown_path(shown, sizeof(shown), path);
	if (read_secret_file(path, &text) < 0)
		ret = sc_error_errno("SECRETS-FILE", "cannot read '%s'", shown);
	else
		sc_secrets_from_included(s, path, text.data ? text.data : "",
					 text.len);
	sc_buf_wipe(&text);
	return ret;
}
