/*
 * The journal as text (reporttext.h).  A record is seen as sc-rec
 * --to-json shows it to jq: its fields grouped by name in the order each
 * name first appears, a group of one a string, of several a list, a group
 * with a value that is not UTF-8 base64 under NAME@base64.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "encode.h"
#include "record.h"
#include "reporttext.h"
#include "termtext.h"
#include "usage.h"

/* One field, sorted by name then place, so a group is a run of them. */
struct ent {
	const char *name;
	size_t i;
};

/* The groups of one record: a group is led by its first field. */
struct groups {
	const struct sc_record *rec;
	struct ent *ents;   /* sorted */
	size_t *start;      /* leader's field index -> its run in ents */
	size_t *count;      /* leader's field index -> its size; 0: no leader */
};

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* Sorting, not a scan per field: a hostile record holds a million names. */
static void groups_init(struct groups *g, const struct sc_record *rec)
{
	size_t n = rec->nr, a, b;

	g->rec = rec;
	g->ents = sc_xcalloc(n ? n : 1, sizeof(*g->ents));
	g->start = sc_xcalloc(n ? n : 1, sizeof(*g->start));
	g->count = sc_xcalloc(n ? n : 1, sizeof(*g->count));
	for (a = 0; a < n; a++) {
		g->ents[a].name = rec->fields[a].name;
		g->ents[a].i = a;
	}
	qsort(g->ents, n, sizeof(*g->ents), ent_cmp);
	for (a = 0; a < n; a = b) {
		for (b = a + 1; b < n && !strcmp(g->ents[b].name, g->ents[a].name); b++)
			;
		g->start[g->ents[a].i] = a;
		g->count[g->ents[a].i] = b - a;
	}
}

static void groups_release(struct groups *g)
{
	free(g->ents);
	free(g->start);
	free(g->count);
}

static const struct sc_field *member(const struct groups *g, size_t lead,
				     size_t k)
{
	return &g->rec->fields[g->ents[g->start[lead] + k].i];
}

static int group_utf8(const struct groups *g, size_t lead)
{
	size_t k;

	for (k = 0; k < g->count[lead]; k++)
		if (!sc_utf8_valid(member(g, lead, k)->value,
				   member(g, lead, k)->value_len))
			return 0;
	return 1;
}

/* The leader of the UTF-8 group NAME (jq's .NAME), or -1. */
static long find(const struct groups *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->rec->nr; i++)
		if (g->count[i] && !strcmp(g->rec->fields[i].name, name))
			return group_utf8(g, i) ? (long)i : -1;
	return -1;
}

/* A value on one line: newlines shown as '?' (cleaning comes later). */
static void oneline(struct sc_buf *out, const char *v, size_t len)
{
	const char *nl;

	while ((nl = memchr(v, '\n', len))) {
		sc_buf_add(out, v, (size_t)(nl - v));
		sc_buf_addch(out, '?');
		len -= (size_t)(nl - v) + 1;
		v = nl + 1;
	}
	sc_buf_add(out, v, len);
}

/* A group's values, joined with spaces, each on one line (jq's show). */
static void show(struct sc_buf *out, const struct groups *g, size_t lead,
		 int utf8)
{
	struct sc_buf b64 = SC_BUF_INIT;
	size_t k;

	for (k = 0; k < g->count[lead]; k++) {
		const struct sc_field *f = member(g, lead, k);

		if (k)
			sc_buf_addch(out, ' ');
		if (utf8) {
			oneline(out, f->value, f->value_len);
			continue;
		}
		sc_buf_reset(&b64);
		sc_base64_encode(&b64, f->value, f->value_len, 0);
		sc_buf_add(out, b64.data ? b64.data : "", b64.len);
	}
	sc_buf_release(&b64);
}

/* A string as jq's tojson writes it. */
static void json_string(struct sc_buf *out, const char *v, size_t len)
{
	size_t i;

	sc_buf_addch(out, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)v[i];
		const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" :
			c == '\b' ? "\\b" : c == '\f' ? "\\f" : c == '\n' ? "\\n" :
			c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;

		if (esc)
			sc_buf_adds(out, esc);
		else if (c < 0x20 || c == 0x7f)
			sc_buf_addf(out, "\\u%04x", c);
		else
			sc_buf_addch(out, (char)c);
	}
	sc_buf_addch(out, '"');
}

/*
 * TIME: jq's "\(.time // "-")", a repeated time as a JSON list; a newline
 * in a single time shown as '?', as in every other column, so that a
 * journal's time cannot draw a line that reads as another record.
 */
static void time_column(struct sc_buf *out, const struct groups *g)
{
	long t = find(g, "time");
	size_t k;

	if (t < 0) {
		sc_buf_addch(out, '-');
		return;
	}
	if (g->count[t] == 1) {
		const struct sc_field *f = member(g, (size_t)t, 0);

		for (k = 0; k < f->value_len; k++)
			sc_buf_addch(out, f->value[k] == '\n' ? '?' : f->value[k]);
		return;
	}
	sc_buf_addch(out, '[');
	for (k = 0; k < g->count[t]; k++) {
		if (k)
			sc_buf_addch(out, ',');
		json_string(out, member(g, (size_t)t, k)->value,
			    member(g, (size_t)t, k)->value_len);
	}
	sc_buf_addch(out, ']');
}

static int column_name(const char *name)
{
	return !strcmp(name, "type") || !strcmp(name, "time") ||
	       !strcmp(name, "text");
}

/* The text= values joined with spaces, one "    | " line per line
 * (jq's join(" ") | split("\n"): nothing for "", an empty last line
 * after a final newline). */
static void text_lines(struct sc_buf *out, const struct groups *g)
{
	struct sc_buf all = SC_BUF_INIT;
	long t = find(g, "text");
	const char *p, *end, *nl;
	size_t k;

	if (t < 0)
		return;
	for (k = 0; k < g->count[t]; k++) {
		if (k)
			sc_buf_addch(&all, ' ');
		sc_buf_add(&all, member(g, (size_t)t, k)->value,
			   member(g, (size_t)t, k)->value_len);
	}
	for (p = all.data, end = p + all.len; all.len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		sc_buf_adds(out, "    | ");
		sc_buf_add(out, p, nl ? (size_t)(nl - p) : (size_t)(end - p));
		sc_buf_addch(out, '\n');
		if (!nl)
			break;
	}
	sc_buf_release(&all);
}

/* REC's lines, not yet cleaned, into RAW. */
static void record_text(const struct sc_record *rec, struct sc_buf *raw)
{
	struct groups g;
	long type;
	size_t i;
	int first = 1;

	groups_init(&g, rec);
	time_column(raw, &g);
	sc_buf_adds(raw, "  ");
	type = find(&g, "type");
	if (type < 0)
		sc_buf_addch(raw, '-');  /* not UTF-8: jq stopped here */
	else
		show(raw, &g, (size_t)type, 1);
	sc_buf_adds(raw, "  ");
	for (i = 0; i < rec->nr; i++) {
		int utf8;

		if (!g.count[i])
			continue;
		utf8 = group_utf8(&g, i);
		if (utf8 && column_name(rec->fields[i].name))
			continue;
		if (!first)
			sc_buf_adds(raw, "  ");
		first = 0;
		sc_buf_adds(raw, rec->fields[i].name);
		sc_buf_adds(raw, utf8 ? "=" : "@base64=");
		show(raw, &g, i, utf8);
	}
	sc_buf_addch(raw, '\n');
	text_lines(raw, &g);
	groups_release(&g);
}

/* Clean RAW for the terminal onto OUT, newlines kept. */
static void emit(struct sc_buf *out, struct sc_buf *raw)
{
	sc_term_clean_keep(out, raw->data ? raw->data : "", raw->len,
			   SC_TERM_KEEP_NEWLINE);
	sc_buf_reset(raw);
}

/*
 * The view of IN onto OUT's buffer, flushed as it grows.  Returns the
 * reader's status: SC_READ_EOF when the journal was read whole.
 */
static int view(struct sc_reader *rd, struct sc_output *out,
		struct sc_buf *text)
{
	struct sc_record rec;
	struct sc_usage u = SC_USAGE_INIT;
	struct sc_buf raw = SC_BUF_INIT, clean = SC_BUF_INIT;
	int st;

	sc_record_init(&rec);
	while ((st = sc_reader_next(rd, &rec)) == SC_READ_RECORD) {
		sc_usage_add(&u, &rec);
		record_text(&rec, &raw);
		emit(text ? text : &clean, &raw);
		if (!text) {
			sc_output_add(out, clean.data, clean.len);
			sc_buf_reset(&clean);
			sc_output_unit_done(out);
		}
	}
	if (st == SC_READ_EOF) {
		sc_usage_text(&u, &raw);
		emit(text ? text : &clean, &raw);
		if (!text)
			sc_output_add(out, clean.data ? clean.data : "", clean.len);
	}
	sc_buf_release(&raw);
	sc_buf_release(&clean);
	sc_record_release(&rec);
	return st;
}

int sc_report_text_mem(const char *journal, size_t len, struct sc_buf *out)
{
	struct sc_input in;
	struct sc_reader rd;

	sc_input_init_mem(&in, journal, len);
	sc_reader_init(&rd, &in);
	sc_buf_adds(out, "");
	return view(&rd, NULL, out) == SC_READ_EOF ? 0 : -1;
}

int sc_report_text_run(const struct sc_report_opts *o, struct sc_output *out)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_buf head = SC_BUF_INIT;
	int fd, st, ret = SC_EXIT_OK;

	fd = open(o->journal, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		sc_error_errno("NO-JOURNAL", "cannot open the journal '%s'",
			       o->journal);
		return SC_EXIT_NO;
	}
	if (o->run) {
		struct sc_buf raw = SC_BUF_INIT;

		sc_buf_adds(&raw, "run ");
		sc_buf_adds(&raw, o->run);
		sc_buf_addch(&raw, '\n');
		emit(&head, &raw);
		sc_output_add(out, head.data, head.len);
		sc_buf_release(&raw);
	}
	sc_input_init_fd(&in, fd);
	sc_reader_init(&rd, &in);
	st = view(&rd, out, NULL);
	if (sc_reader_report(&rd, st) < 0)
		ret = st == SC_READ_IO ? SC_EXIT_INTERNAL : SC_EXIT_MALFORMED;
	if (sc_output_flush(out)) {
		sc_error_errno("WRITE-FAILED", "cannot write the report");
		ret = SC_EXIT_INTERNAL;
	}
	close(fd);
	sc_buf_release(&head);
	return ret;
}
