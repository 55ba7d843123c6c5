#include <string.h>

#include "buf.h"
#include "dotenv.h"

struct parser {
	const char *p, *end;
	unsigned long line;
	struct sc_buf name, value;
	struct sc_dotenv_error *err;
};

static int fail(struct parser *ps, const char *what)
{
	ps->err->line = ps->line;
	ps->err->what = what;
	return -1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static void skip_blanks(struct parser *ps)
{
	while (ps->p < ps->end && is_blank(*ps->p))
		ps->p++;
}

static int name_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

/* Skip to the end of the line (a comment), past its newline. */
static void skip_line(struct parser *ps)
{
	const char *nl = memchr(ps->p, '\n', (size_t)(ps->end - ps->p));

	ps->p = nl ? nl + 1 : ps->end;
	if (nl)
		ps->line++;
}

/* After a value: blanks, an optional comment, then the end of the line. */
static int end_of_line(struct parser *ps)
{
	skip_blanks(ps);
	if (ps->p < ps->end && *ps->p == '#') {
		skip_line(ps);
		return 0;
	}
	if (ps->p < ps->end && *ps->p != '\n')
		return fail(ps, "text after the closing quote");
	if (ps->p < ps->end) {
		ps->p++;
		ps->line++;
	}
	return 0;
}

static int parse_name(struct parser *ps)
{
	const char *start;

	if (ps->end - ps->p > 7 && !memcmp(ps->p, "export", 6) &&
	    is_blank(ps->p[6])) {
		ps->p += 6;
		skip_blanks(ps);
	}
	start = ps->p;
	if (ps->p >= ps->end || !name_start(*ps->p))
		return fail(ps, "expected NAME=VALUE");
	while (ps->p < ps->end && name_char(*ps->p))
		ps->p++;
	sc_buf_reset(&ps->name);
	sc_buf_add(&ps->name, start, (size_t)(ps->p - start));
	skip_blanks(ps);
	if (ps->p >= ps->end || *ps->p != '=')
		return fail(ps, "no '=' after the name");
	ps->p++;
	skip_blanks(ps);
	return 0;
}

static int parse_single(struct parser *ps)
{
	unsigned long first = ps->line;

	for (ps->p++; ps->p < ps->end && *ps->p != '\''; ps->p++) {
		if (*ps->p == '\n')
			ps->line++;
		sc_buf_addch(&ps->value, *ps->p);
	}
	if (ps->p >= ps->end) {
		ps->line = first;
		return fail(ps, "unterminated single quote");
	}
	ps->p++;
	return end_of_line(ps);
}

static char unescape(char c)
{
	switch (c) {
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	default: return c;
	}
}

static int parse_double(struct parser *ps)
{
	unsigned long first = ps->line;

	for (ps->p++; ps->p < ps->end && *ps->p != '"'; ps->p++) {
		char c = *ps->p;

		if (c == '\\' && ps->p + 1 < ps->end &&
		    strchr("nrt\"\\$`", ps->p[1])) {
			sc_buf_addch(&ps->value, unescape(*++ps->p));
			continue;
		}
		if (c == '\n')
			ps->line++;
		sc_buf_addch(&ps->value, c);
	}
	if (ps->p >= ps->end) {
		ps->line = first;
		return fail(ps, "unterminated double quote");
	}
	ps->p++;
	return end_of_line(ps);
}

/* Up to the end of the line or a '#' after white space; trailing blanks cut. */
static int parse_bare(struct parser *ps)
{
	const char *start = ps->p;
	size_t len;

	while (ps->p < ps->end && *ps->p != '\n' &&
	       !(*ps->p == '#' && (ps->p == start || is_blank(ps->p[-1]))))
		ps->p++;
	len = (size_t)(ps->p - start);
	while (len && is_blank(start[len - 1]))
		len--;
	sc_buf_add(&ps->value, start, len);
	if (ps->p < ps->end && *ps->p == '#')
		skip_line(ps);
	else if (ps->p < ps->end) {
		ps->p++;
		ps->line++;
	}
	return 0;
}

static int parse_assignment(struct parser *ps)
{
	if (parse_name(ps) < 0)
		return -1;
	sc_buf_reset(&ps->value);
	if (ps->p < ps->end && *ps->p == '\'')
		return parse_single(ps);
	if (ps->p < ps->end && *ps->p == '"')
		return parse_double(ps);
	return parse_bare(ps);
}

int sc_dotenv_parse(const char *text, size_t len, sc_dotenv_fn fn, void *ctx,
		    struct sc_dotenv_error *err)
{
	struct parser ps = { text, text + len, 1, SC_BUF_INIT, SC_BUF_INIT, err };
	const char *nul = memchr(text, '\0', len);
	int ret = 0;

	if (nul) {
		unsigned long line = 1;
		const char *q;

		for (q = text; q < nul; q++)
			line += *q == '\n';
		ps.line = line;
		ret = fail(&ps, "a NUL byte");
	}
	while (!ret && ps.p < ps.end) {
		skip_blanks(&ps);
		if (ps.p >= ps.end)
			break;
		if (*ps.p == '\n') {
			ps.p++;
			ps.line++;
			continue;
		}
		if (*ps.p == '#') {
			skip_line(&ps);
			continue;
		}
		ret = parse_assignment(&ps);
		if (!ret) {
			sc_buf_addch(&ps.value, 0); /* a valid pointer when empty */
			ret = fn(ctx, ps.name.data, ps.value.data, ps.value.len - 1);
		}
		sc_buf_wipe(&ps.value);
	}
	sc_buf_release(&ps.name);
	sc_buf_wipe(&ps.value);
	return ret;
}
