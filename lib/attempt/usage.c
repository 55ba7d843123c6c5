/*
 * The model's usage, summed (usage.h).  The reading and the printing of
 * numbers follow jq 1.6 byte for byte, because the text view was a jq
 * program and a person comparing two reports must not see two numbers
 * for one journal: jq reads a member with its JSON parser (jv_parse) and
 * David Gay's strtod, and prints with Gay's shortest digits (jv_dtoa.c).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "termtext.h"
#include "usage.h"

/* jq's JSON whitespace: what ends a literal token. */
static int json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* A byte that makes the text something other than one literal. */
static int json_other(char c)
{
	return c == '[' || c == ']' || c == '{' || c == '}' || c == ',' ||
	       c == ':' || c == '"';
}

static size_t digits(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

/*
 * 1 when the literal TOK (NUL-terminated) is a number Gay's strtod reads
 * whole: leading \v or \f (isspace, not JSON whitespace), a sign, then
 * digits with a point and an exponent, or inf, infinity or nan in any
 * case (no "nan(...)").
 */
static int number_literal(const char *tok)
{
	const char *p = tok;
	size_t m;

	while (*p == '\v' || *p == '\f')
		p++;
	if (*p == '+' || *p == '-')
		p++;
	if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity") ||
	    !strcasecmp(p, "nan"))
		return 1;
	m = digits(p);
	p += m;
	if (*p == '.') {
		size_t f = digits(p + 1);

		p += 1 + f;
		m += f;
	}
	if (!m)
		return 0;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!digits(p))
			return 0;
		p += digits(p);
	}
	return !*p;
}

double sc_usage_number(const char *s)
{
	const char *p = s, *tok;
	char *lit;
	double d = 0;
	size_t n;

	if (!strncmp(p, "\xef\xbb\xbf", 3))
		p += 3;  /* jq's parser drops a leading byte order mark */
	while (json_space(*p))
		p++;
	tok = p;
	while (*p && !json_space(*p) && !json_other(*p))
		p++;
	n = (size_t)(p - tok);
	while (json_space(*p))
		p++;
	/* Nothing, more than one value, or an array, object or string. */
	if (!n || *p)
		return 0;
	/* true, false, null: a literal, not a number ("nan" included). */
	if (*tok == 't' || *tok == 'f' || *tok == 'n')
		return 0;
	lit = sc_xmemdup(tok, n);
	if (number_literal(lit))
		d = strtod(lit, NULL);  /* glibc rounds correctly, as Gay's does */
	free(lit);
	return d;
}

/* REC's one field NAME, as jq sees .NAME: NULL when there is none, or
 * more than one (a list), or its value is not UTF-8 (NAME@base64). */
static const struct sc_field *only(const struct sc_record *rec,
				   const char *name)
{
	const struct sc_field *one = NULL;
	size_t i;

	for (i = 0; i < rec->nr; i++) {
		if (strcmp(rec->fields[i].name, name))
			continue;
		if (one)
			return NULL;
		one = &rec->fields[i];
	}
	return one && sc_utf8_valid(one->value, one->value_len) ? one : NULL;
}

double sc_usage_count(const struct sc_record *rec, const char *name)
{
	const struct sc_field *f = only(rec, name);

	return f ? sc_usage_number(f->value) : 0;
}

/* 1 when REC's field NAME is there once and is VALUE exactly. */
static int field_is(const struct sc_record *rec, const char *name,
		    const char *value)
{
	const struct sc_field *f = only(rec, name);

	return f && f->value_len == strlen(value) &&
	       !memcmp(f->value, value, f->value_len);
}

/* jq's add starts from null, and null + x is x: -0 stays -0. */
static void sum(double *total, double x, int first)
{
	*total = first ? x : *total + x;
}

int sc_usage_add(struct sc_usage *u, const struct sc_record *rec)
{
	double in, rd, wr, saved, all;
	int first = !u->turns;

	if (!field_is(rec, "type", "usage"))
		return 0;
	in = sc_usage_count(rec, "input-tokens");
	rd = sc_usage_count(rec, "cache-read-tokens");
	wr = sc_usage_count(rec, "cache-write-tokens");
	if (field_is(rec, "provider", SC_USAGE_OPENAI)) {
		saved = 0.5 * rd;
		all = in;
	} else {
		saved = 0.9 * rd - 0.25 * wr;
		all = in + rd + wr;
	}
	sum(&u->in, in, first);
	sum(&u->out, sc_usage_count(rec, "output-tokens"), first);
	sum(&u->read, rd, first);
	sum(&u->write, wr, first);
	sum(&u->saved, saved, first);
	sum(&u->all, all, first);
	u->turns++;
	return 1;
}

double sc_usage_floor(double d)
{
	double t;

	/* NaN, infinities and doubles past 2^52 are whole already. */
	if (d != d || d >= 4503599627370496.0 || d <= -4503599627370496.0)
		return d;
	t = (double)(long long)d;
	if (t > d)
		t -= 1;
	return t == 0 && signbit(d) ? -0.0 : t;
}

void sc_usage_format(struct sc_buf *out, double d)
{
	char e[40], dig[24];
	int p, decpt, nd = 0, i;
	const char *c;

	if (d != d) {
		sc_buf_adds(out, "null");  /* jq: JSON has no NaN */
		return;
	}
	if (d > DBL_MAX)
		d = DBL_MAX;
	if (d < -DBL_MAX)
		d = -DBL_MAX;
	if (d == 0) {
		sc_buf_adds(out, signbit(d) ? "-0" : "0");
		return;
	}
	/* The fewest digits that read back as D (Gay's mode 0). */
	for (p = 0; p < 17; p++) {
		snprintf(e, sizeof(e), "%.*e", p, d);
		if (strtod(e, NULL) == d)
			break;
	}
	c = e;
	if (*c == '-') {
		sc_buf_addch(out, '-');
		c++;
	}
	for (; *c != 'e'; c++)
		if (*c != '.')
			dig[nd++] = *c;
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	decpt = atoi(c + 1) + 1;
	if (decpt <= -4 || decpt > nd + 15) {
		sc_buf_addch(out, dig[0]);
		if (nd > 1) {
			sc_buf_addch(out, '.');
			sc_buf_add(out, dig + 1, (size_t)nd - 1);
		}
		sc_buf_addf(out, "e%c%02d", decpt - 1 < 0 ? '-' : '+',
			    abs(decpt - 1));
	} else if (decpt <= 0) {
		sc_buf_adds(out, "0.");
		for (i = decpt; i < 0; i++)
			sc_buf_addch(out, '0');
		sc_buf_add(out, dig, (size_t)nd);
	} else {
		for (i = 0; i < nd || i < decpt; i++) {
			if (i == decpt)
				sc_buf_addch(out, '.');
			sc_buf_addch(out, i < nd ? dig[i] : '0');
		}
	}
}

void sc_usage_text(const struct sc_usage *u, struct sc_buf *out)
{
	double pct = 0;

	if (!u->turns)
		return;
	/* jq's "$all > 0": false for NaN (jq 1.6 orders NaN below numbers). */
	if (u->all > 0)
		pct = sc_usage_floor(u->saved * 100 / u->all);
	sc_buf_addf(out, "usage: %lu model turns, ", u->turns);
	sc_usage_format(out, u->in);
	sc_buf_adds(out, " input tokens, ");
	sc_usage_format(out, u->out);
	sc_buf_adds(out, " output tokens\n  cache: ");
	sc_usage_format(out, u->read);
	sc_buf_adds(out, " read, ");
	sc_usage_format(out, u->write);
	sc_buf_adds(out, " written; saved about ");
	sc_usage_format(out, sc_usage_floor(u->saved));
	sc_buf_adds(out, " input tokens (");
	sc_usage_format(out, pct);
	sc_buf_adds(out, "% of ");
	sc_usage_format(out, u->all);
	sc_buf_adds(out, ")\n");
}
