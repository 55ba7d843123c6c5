#include <hs.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "diag.h"
#include "encode.h"
#include "mask.h"

struct form {
	char *text;
	size_t len;
	size_t secret;  /* index into names */
	size_t lead;    /* leading NUL bytes, checked by hand (see compile) */
	unsigned kind;  /* FORM_* */
};

/*
 * FORM_WRAP forms (base64 and hex) are matched in the unwrapped stream
 * (see struct sc_masker), FORM_CASELESS ones (percent-encodings) in any
 * mix of upper and lower case: "%3a" and "%3A" in one string.
 */
enum { FORM_WRAP = 1, FORM_CASELESS = 2 };

struct sc_mask_set {
	char **names;        /* sanitised secret names, for markers */
	size_t nr_names;
	struct form *forms;  /* sorted by text, no duplicates */
	size_t nr_forms, alloc_forms;
	size_t longest;      /* of the raw stream's forms */
	size_t wlongest;     /* of the unwrapped stream's forms */
	hs_database_t *db;   /* raw forms; NULL when there is none */
	hs_database_t *wdb;  /* FORM_WRAP forms; NULL when there is none */
	size_t *caseless;    /* indexes of the FORM_CASELESS forms */
	size_t nr_caseless;
};

/* A range of the stream to replace: [start, end). */
struct span {
	uint64_t start, end;
	size_t best_len;     /* the longest match in it names the marker */
	size_t secret;
	int opened;          /* plain text before it written, marker pending */
};

struct sc_masker {
	const struct sc_mask_set *set;
	hs_stream_t *stream;
	hs_scratch_t *scratch;
	uint64_t pos;        /* bytes fed */
	uint64_t done;       /* everything before it is written or replaced */
	struct sc_buf hold;  /* bytes [hold_base, pos) */
	uint64_t hold_base;
	struct span *spans;  /* spans[head..nr): sorted, disjoint, not touching */
	size_t head, nr, alloc;
	sc_mask_hit_fn hit;
	void *hit_ctx;
	/*
	 * The unwrapped stream: the input without the line breaks (and the
	 * indentation after them) that wrap base64 or hex, so an encoding
	 * wrapped at any width, with "\n" or "\r\n", matches as one form.
	 * A gap removed is one line break ("\n", "\r" or "\r\n") and at most
	 * GAP_INDENT spaces or tabs after it; anything longer stays, so a
	 * match's bytes span at most (GAP_MAX + 1) times its length.
	 * segs[seg_head..nr_segs) map runs of unwrapped bytes back to the
	 * input: run k starts at unwrapped offset w and input offset o.
	 */
	hs_stream_t *wstream;
	uint64_t wpos;       /* unwrapped bytes fed */
	struct seg { uint64_t w, o; } *segs;
	size_t seg_head, nr_segs, alloc_segs;
	struct gap { int in, cr, indent; } gap;
	int gap_before;      /* bytes were dropped since the last run */
	struct sc_buf wbuf;  /* the unwrapped bytes of the current feed */
};

#define GAP_INDENT 16
#define GAP_MAX (2 + GAP_INDENT)

/* ---- building the forms ---- */

static void add_form_kind(struct sc_mask_set *set, struct sc_buf *text,
			  size_t secret, unsigned kind)
{
	struct form *f;

	if (!text->len) {
		sc_buf_wipe(text);
		return;
	}
	SC_ALLOC_GROW(set->forms, set->nr_forms + 1, set->alloc_forms);
	f = &set->forms[set->nr_forms++];
	f->text = sc_buf_detach(text, &f->len);
	f->secret = secret;
	f->kind = kind;
	for (f->lead = 0; f->lead < f->len && !f->text[f->lead]; f->lead++)
		;
}

static void add_form(struct sc_mask_set *set, struct sc_buf *text,
		     size_t secret)
{
	add_form_kind(set, text, secret, 0);
}

static void add_raw(struct sc_mask_set *set, const char *p, size_t len,
		    size_t secret)
{
	struct sc_buf b = SC_BUF_INIT;

	sc_buf_add(&b, p, len);
	add_form(set, &b, secret);
}

/* Percent-encoders: strict, form, Python's quote(), encodeURIComponent. */
static const int pct_flags[] = { 0, SC_PCT_FORM, SC_PCT_SLASH, SC_PCT_JS };

static const int json_flags[] = {
	0, SC_JSON_SLASH, SC_JSON_ASCII, SC_JSON_HTML,
	SC_JSON_ASCII | SC_JSON_UPPER, SC_JSON_HTML | SC_JSON_UPPER,
	SC_JSON_SLASH | SC_JSON_ASCII,
};

static void add_encodings(struct sc_mask_set *set, const char *v, size_t len,
			  size_t secret)
{
	struct sc_buf b = SC_BUF_INIT;
	unsigned off;
	size_t i;

	for (off = 0; off < 3; off++) {
		sc_base64_window(&b, v, len, off, 0);
		add_form_kind(set, &b, secret, FORM_WRAP);
		sc_base64_window(&b, v, len, off, SC_B64_URL);
		add_form_kind(set, &b, secret, FORM_WRAP);
	}
	sc_hex_encode(&b, v, len, 0);
	add_form_kind(set, &b, secret, FORM_WRAP);
	sc_hex_encode(&b, v, len, 1);
	add_form_kind(set, &b, secret, FORM_WRAP);
	for (i = 0; i < sizeof(pct_flags) / sizeof(*pct_flags); i++) {
		sc_percent_encode(&b, v, len, pct_flags[i]);
		add_form_kind(set, &b, secret,
			      memchr(b.data, '%', b.len) ? FORM_CASELESS : 0);
	}
	for (i = 0; i < sizeof(json_flags) / sizeof(*json_flags); i++) {
		sc_json_escape(&b, v, len, json_flags[i]);
		add_form(set, &b, secret);
	}
}

/* Each line (without "\r\n" or "\n") of a multi-line value, when strong. */
static void add_lines(struct sc_mask_set *set, const char *v, size_t len,
		      size_t secret)
{
	const char *end = v + len;

	while (v < end) {
		const char *nl = memchr(v, '\n', (size_t)(end - v));
		size_t n = nl ? (size_t)(nl - v) : (size_t)(end - v);
		struct sc_buf b = SC_BUF_INIT;

		if (n && v[n - 1] == '\r')
			n--;
		if (!sc_secrets_value_too_weak(v, n)) {
			add_raw(set, v, n, secret);
			sc_json_escape(&b, v, n, 0);
			add_form(set, &b, secret);
		}
		v = nl ? nl + 1 : end;
	}
}

static int form_cmp(const void *a, const void *b)
{
	const struct form *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->text, y->text, n);

	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	/* Equal texts: the earlier secret names the form. */
	return x->secret < y->secret ? -1 : x->secret > y->secret;
}

static void wipe_free(char *p, size_t len)
{
	volatile char *q = p;
	size_t i;

	for (i = 0; i < len; i++)
		q[i] = 0;
	free(p);
}

static void sort_unique(struct sc_mask_set *set)
{
	size_t i, n = 0;

	if (!set->nr_forms)
		return;
	qsort(set->forms, set->nr_forms, sizeof(*set->forms), form_cmp);
	for (i = 0; i < set->nr_forms; i++) {
		struct form *f = &set->forms[i];

		if (n && f->len == set->forms[n - 1].len &&
		    !memcmp(f->text, set->forms[n - 1].text, f->len)) {
			set->forms[n - 1].kind |= f->kind;
			wipe_free(f->text, f->len);
		} else {
			set->forms[n++] = *f;
		}
	}
	set->nr_forms = n;
	/*
	 * A raw form whose text is also a FORM_WRAP one is matched in the
	 * unwrapped stream only, which holds every byte a raw match could
	 * cover.  The longest form of each stream bounds what it holds back.
	 */
	set->caseless = sc_xcalloc(n, sizeof(*set->caseless));
	for (i = 0; i < n; i++) {
		size_t *longest = set->forms[i].kind & FORM_WRAP ?
				  &set->wlongest : &set->longest;

		if (set->forms[i].len > *longest)
			*longest = set->forms[i].len;
		if (set->forms[i].kind & FORM_CASELESS)
			set->caseless[set->nr_caseless++] = i;
	}
}

static int caseless_index_cmp(const void *a, const void *b, void *ctx);

/* Compile the forms whose FORM_WRAP bit is WRAP into *DB (NULL: none). */
static int compile_one(struct sc_mask_set *set, unsigned wrap,
		       hs_database_t **db)
{
	const char **exprs;
	unsigned *ids, *flags;
	size_t *lens, i, n = 0;
	hs_compile_error_t *err = NULL;
	hs_error_t rc;

	exprs = sc_xcalloc(set->nr_forms, sizeof(*exprs));
	ids = sc_xcalloc(set->nr_forms, sizeof(*ids));
	flags = sc_xcalloc(set->nr_forms, sizeof(*flags));
	lens = sc_xcalloc(set->nr_forms, sizeof(*lens));
	/*
	 * Vectorscan's literal API refuses a literal that starts with a NUL
	 * byte, so such a form is registered without its leading NULs and
	 * on_match checks them.  A form of only NULs has nothing to register
	 * (no such value is strong enough to reach here as a raw form).
	 */
	for (i = 0; i < set->nr_forms; i++) {
		const struct form *f = &set->forms[i];

		if (f->lead == f->len || (f->kind & FORM_WRAP) != wrap)
			continue;
		exprs[n] = f->text + f->lead;
		ids[n] = (unsigned)i;
		flags[n] = f->kind & FORM_CASELESS ? HS_FLAG_CASELESS : 0;
		lens[n++] = f->len - f->lead;
	}
	rc = n ? hs_compile_lit_multi(exprs, flags, ids, lens, (unsigned)n,
				      HS_MODE_STREAM, NULL, db, &err)
	       : HS_SUCCESS;
	free(exprs);
	free(ids);
	free(flags);
	free(lens);
	if (rc != HS_SUCCESS) {
		/* The message may quote a pattern, which is a secret: not shown. */
		hs_free_compile_error(err);
		*db = NULL;
		return sc_error("MATCHER", "Vectorscan cannot compile the forms "
				"(error %d)", (int)rc);
	}
	return 0;
}

static int compile(struct sc_mask_set *set)
{
	if (!set->nr_forms)
		return 0;
	if (set->nr_forms > 0x7fffffff)
		return sc_error("MATCHER", "too many secret forms");
	if (compile_one(set, 0, &set->db) < 0 ||
	    compile_one(set, FORM_WRAP, &set->wdb) < 0)
		return -1;
	return 0;
}

static size_t add_name(struct sc_mask_set *set, const char *name)
{
	char shown[256];

	sc_sanitize(shown, sizeof(shown), name, strlen(name));
	set->names = sc_xrealloc(set->names,
				 sc_st_mult(set->nr_names + 1, sizeof(char *)));
	set->names[set->nr_names] = sc_xstrdup(shown);
	return set->nr_names++;
}

static int warned_before(const struct sc_secrets *s, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(s->v[j].name, s->v[i].name) &&
		    sc_secrets_value_too_weak(s->v[j].value.data,
					      s->v[j].value.len))
			return 1;
	return 0;
}

struct sc_mask_set *sc_mask_set_build(const struct sc_secrets *s, int warn)
{
	struct sc_mask_set *set = sc_xcalloc(1, sizeof(*set));
	size_t i;

	for (i = 0; i < s->nr; i++) {
		const struct sc_secret *sec = &s->v[i];
		const char *v = sec->value.data ? sec->value.data : "";
		size_t id;
		char shown[256];

		if (sc_secrets_value_too_weak(v, sec->value.len)) {
			sc_sanitize(shown, sizeof(shown), sec->name,
				    strlen(sec->name));
			if (warn && !warned_before(s, i))
				sc_warning("SHORT-SECRET", "'%s' is shorter than "
					   "8 bytes or only digits and dots: "
					   "not masked", shown);
			continue;
		}
		id = add_name(set, sec->name);
		add_raw(set, v, sec->value.len, id);
		add_encodings(set, v, sec->value.len, id);
		if (memchr(v, '\n', sec->value.len))
			add_lines(set, v, sec->value.len, id);
	}
	sort_unique(set);
	if (set->nr_caseless)
		qsort_r(set->caseless, set->nr_caseless, sizeof(*set->caseless),
			caseless_index_cmp, set);
	if (compile(set) < 0) {
		sc_mask_set_free(set);
		return NULL;
	}
	return set;
}

void sc_mask_set_free(struct sc_mask_set *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->nr_forms; i++)
		wipe_free(set->forms[i].text, set->forms[i].len);
	for (i = 0; i < set->nr_names; i++)
		free(set->names[i]);
	free(set->names);
	free(set->forms);
	free(set->caseless);
	if (set->db)
		hs_free_database(set->db);
	if (set->wdb)
		hs_free_database(set->wdb);
	free(set);
}

size_t sc_mask_set_forms(const struct sc_mask_set *set)
{
	return set->nr_forms;
}

const char *sc_mask_set_form(const struct sc_mask_set *set, size_t i,
			     size_t *len)
{
	if (i >= set->nr_forms)
		return NULL;
	*len = set->forms[i].len;
	return set->forms[i].text;
}

size_t sc_mask_set_longest(const struct sc_mask_set *set)
{
	return set->longest > set->wlongest ? set->longest : set->wlongest;
}

const char *sc_mask_set_name(const struct sc_mask_set *set, size_t i)
{
	return i < set->nr_names ? set->names[i] : NULL;
}

size_t sc_mask_set_secrets(const struct sc_mask_set *set)
{
	return set->nr_names;
}

/*
 * Percent-encodings match in any case, so they are also searched in case
 * blind order: set->caseless is sorted by strncasecmp (their texts hold
 * no NUL: an encoder writes it %00), and the forms starting with P in any
 * case follow the first one not less than P.
 */
static int caseless_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t k = alen < blen ? alen : blen;
	int c = strncasecmp(a, b, k);

	if (c)
		return c;
	return (alen > blen) - (alen < blen);
}

static int caseless_index_cmp(const void *a, const void *b, void *ctx)
{
	const struct sc_mask_set *set = ctx;
	const struct form *x = &set->forms[*(const size_t *)a];
	const struct form *y = &set->forms[*(const size_t *)b];

	return caseless_cmp(x->text, x->len, y->text, y->len);
}

static int caseless_begins(const struct sc_mask_set *set, const char *p,
			   size_t n)
{
	size_t lo = 0, hi = set->nr_caseless;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct form *f = &set->forms[set->caseless[mid]];

		if (caseless_cmp(f->text, f->len, p, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < set->nr_caseless; lo++) {
		const struct form *f = &set->forms[set->caseless[lo]];

		if (f->len < n || strncasecmp(f->text, p, n))
			return 0;
		if (f->len > n)
			return 1;
	}
	return 0;
}

/*
 * 1 when the N bytes at P are a proper prefix of some form: a match could
 * still start there.  The forms are sorted, so the forms starting with P
 * follow the first form not less than P.
 */
int sc_mask_set_begins_form(const struct sc_mask_set *set, const char *p,
			     size_t n)
{
	size_t lo = 0, hi = set->nr_forms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct form *f = &set->forms[mid];
		size_t k = f->len < n ? f->len : n;
		int c = memcmp(f->text, p, k);

		if (c < 0 || (!c && f->len < n))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < set->nr_forms && lo < hi + 2; lo++) {
		const struct form *f = &set->forms[lo];

		if (f->len > n && !memcmp(f->text, p, n))
			return 1;
		if (f->len >= n && memcmp(f->text, p, n))
			break;
	}
	return caseless_begins(set, p, n);
}

/* ---- the stream ---- */

struct sc_masker *sc_masker_new(const struct sc_mask_set *set)
{
	struct sc_masker *m = sc_xcalloc(1, sizeof(*m));

	m->set = set;
	/* One scratch serves both databases: allocated for each in turn. */
	if ((set->db && (hs_alloc_scratch(set->db, &m->scratch) != HS_SUCCESS ||
			 hs_open_stream(set->db, 0, &m->stream) != HS_SUCCESS)) ||
	    (set->wdb && (hs_alloc_scratch(set->wdb, &m->scratch) != HS_SUCCESS ||
			  hs_open_stream(set->wdb, 0, &m->wstream) != HS_SUCCESS))) {
		sc_masker_free(m);
		sc_error("MATCHER", "Vectorscan cannot open a stream");
		return NULL;
	}
	return m;
}

const struct sc_mask_set *sc_masker_get_set(const struct sc_masker *m)
{
	return m->set;
}

void sc_masker_set_hit(struct sc_masker *m, sc_mask_hit_fn fn, void *ctx)
{
	m->hit = fn;
	m->hit_ctx = ctx;
}

void sc_masker_free(struct sc_masker *m)
{
	if (!m)
		return;
	if (m->stream)
		hs_close_stream(m->stream, NULL, NULL, NULL);
	if (m->wstream)
		hs_close_stream(m->wstream, NULL, NULL, NULL);
	if (m->scratch)
		hs_free_scratch(m->scratch);
	sc_buf_wipe(&m->hold);
	sc_buf_wipe(&m->wbuf);
	free(m->spans);
	free(m->segs);
	free(m);
}

/* Merge [start, end) into the spans, joining every span it overlaps or touches. */
static void add_span(struct sc_masker *m, uint64_t start, uint64_t end,
		     size_t len, size_t secret)
{
	struct span s = { start, end, len, secret, 0 };
	size_t k = m->nr, j;

	/* Matches come in end order, so the search from the tail is short. */
	while (k > m->head && m->spans[k - 1].end >= start)
		k--;
	for (j = k; j < m->nr && m->spans[j].start <= end; j++) {
		const struct span *o = &m->spans[j];

		if (o->start < s.start)
			s.start = o->start;
		if (o->end > s.end)
			s.end = o->end;
		if (o->best_len > s.best_len ||
		    (o->best_len == s.best_len && o->secret < s.secret)) {
			s.best_len = o->best_len;
			s.secret = o->secret;
		}
		s.opened |= o->opened;
	}
	if (j == k) {
		/* Nothing merged: insert at k. */
		if (m->head && m->nr == m->alloc) {
			memmove(m->spans, m->spans + m->head,
				(m->nr - m->head) * sizeof(*m->spans));
			m->nr -= m->head;
			k -= m->head;
			m->head = 0;
		}
		SC_ALLOC_GROW(m->spans, m->nr + 1, m->alloc);
		memmove(m->spans + k + 1, m->spans + k,
			(m->nr - k) * sizeof(*m->spans));
		m->nr++;
	} else if (j > k + 1) {
		memmove(m->spans + k + 1, m->spans + j,
			(m->nr - j) * sizeof(*m->spans));
		m->nr -= j - k - 1;
	}
	m->spans[k] = s;
}

static int on_match(unsigned id, unsigned long long from,
		    unsigned long long to, unsigned flags, void *ctx)
{
	struct sc_masker *m = ctx;
	const struct form *f = &m->set->forms[id];
	uint64_t start = to - f->len;

	(void)from;
	(void)flags;
	if (f->lead) {
		size_t k;

		/* Bytes no longer held were replaced already: masking is safe. */
		if (to < f->len)
			return 0;
		for (k = 0; k < f->lead && start + k >= m->hold_base; k++)
			if (m->hold.data[start + k - m->hold_base])
				return 0;
	}
	add_span(m, start, to, f->len, f->secret);
	if (m->hit)
		m->hit(m->hit_ctx, f->secret);
	return 0;
}

/* The input offset of unwrapped offset W (at or after segs[seg_head].w). */
static uint64_t unwrapped_to_input(const struct sc_masker *m, uint64_t w)
{
	size_t lo = m->seg_head, hi = m->nr_segs;

	/* The last run starting at or before W. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->segs[mid].w <= w)
			lo = mid;
		else
			hi = mid;
	}
	return m->segs[lo].o + (w - m->segs[lo].w);
}

/* A match in the unwrapped stream: mask the input bytes it came from. */
static int on_wmatch(unsigned id, unsigned long long from,
		     unsigned long long to, unsigned flags, void *ctx)
{
	struct sc_masker *m = ctx;
	const struct form *f = &m->set->forms[id];
	uint64_t start = unwrapped_to_input(m, to - f->len);
	uint64_t end = unwrapped_to_input(m, to - 1) + 1;

	(void)from;
	(void)flags;
	add_span(m, start, end, f->len, f->secret);
	if (m->hit)
		m->hit(m->hit_ctx, f->secret);
	return 0;
}

/* Keep the N bytes at P (input offset AT) in the unwrapped stream. */
static void keep_run(struct sc_masker *m, const unsigned char *p, size_t n,
		     uint64_t at)
{
	if (m->gap_before || m->nr_segs == m->seg_head) {
		SC_ALLOC_GROW(m->segs, m->nr_segs + 1, m->alloc_segs);
		m->segs[m->nr_segs].w = m->wpos + m->wbuf.len;
		m->segs[m->nr_segs].o = at;
		m->nr_segs++;
		m->gap_before = 0;
	}
	sc_buf_add(&m->wbuf, p, n);
}

/*
 * Byte C of the input: 1 when the unwrapped stream drops it (G updated).
 * A line break starts a gap; in a gap, the "\n" of a "\r\n" and up to
 * GAP_INDENT spaces or tabs are dropped too; any other byte ends it and
 * is kept (a second line break too: a blank line stays).
 */
static int gap_step(struct gap *g, unsigned char c)
{
	if (!g->in) {
		if (c != '\n' && c != '\r')
			return 0;
		g->in = 1;
		g->cr = c == '\r';
		g->indent = 0;
		return 1;
	}
	if (c == '\n' && g->cr && !g->indent) {
		g->cr = 0;
		return 1;
	}
	if ((c == ' ' || c == '\t') && g->indent < GAP_INDENT) {
		g->cr = 0;
		g->indent++;
		return 1;
	}
	g->in = g->cr = g->indent = 0;
	return 0;
}

/*
 * Append the bytes of DATA (input offset M->pos) that the unwrapped
 * stream keeps to M->wbuf, noting where each run of kept bytes starts.
 * The gap state carries over from one feed to the next.  Lines are
 * copied whole: only the bytes after a line break are looked at one by
 * one.
 */
static void unwrap(struct sc_masker *m, const unsigned char *data, size_t len)
{
	size_t i = 0;

	sc_buf_reset(&m->wbuf);
	sc_buf_grow(&m->wbuf, len);
	while (i < len) {
		const unsigned char *nl, *cr;
		size_t end;

		if (m->gap.in) {
			if (gap_step(&m->gap, data[i]))
				m->gap_before = 1;
			else
				keep_run(m, data + i, 1, m->pos + i);
			i++;
			continue;
		}
		nl = memchr(data + i, '\n', len - i);
		end = nl ? (size_t)(nl - data) : len;
		cr = memchr(data + i, '\r', end - i);
		if (cr)
			end = (size_t)(cr - data);
		if (end > i)
			keep_run(m, data + i, end - i, m->pos + i);
		i = end;
		if (i < len) {
			/* A line break starts a gap. */
			gap_step(&m->gap, data[i]);
			m->gap_before = 1;
			i++;
		}
	}
}

static void write_plain(struct sc_masker *m, uint64_t to, struct sc_buf *out)
{
	if (to <= m->done)
		return;
	sc_buf_add(out, m->hold.data + (m->done - m->hold_base),
		   (size_t)(to - m->done));
	m->done = to;
}

static void write_marker(struct sc_masker *m, const struct span *s,
			 struct sc_buf *out)
{
	sc_buf_adds(out, "[redacted:");
	sc_buf_adds(out, m->set->names[s->secret]);
	sc_buf_addch(out, ']');
	if (s->end > m->done)
		m->done = s->end;
}

/*
 * No match not yet reported can start before LIMIT: write everything before
 * it, plain or replaced.  A span reaching LIMIT stays open, since a later
 * match may touch or overlap it and must join it; except when the input is
 * IDLE: then every span starting before LIMIT is replaced at once, so a
 * live log shows it.  A match that touches or overlaps it later gets a
 * marker of its own for the part not yet written (write_plain and
 * write_marker never go back before m->done), so nothing leaks.
 */
static void advance(struct sc_masker *m, uint64_t limit, int idle,
		    struct sc_buf *out)
{
	while (m->head < m->nr && m->spans[m->head].start < limit) {
		struct span *s = &m->spans[m->head];

		if (!s->opened)
			write_plain(m, s->start, out);
		if (!idle && s->end >= limit) {
			s->opened = 1;
			if (s->end > m->done)
				m->done = s->end;
			return;  /* text after it waits for its marker */
		}
		write_marker(m, s, out);
		m->head++;
	}
	if (m->head == m->nr)
		m->head = m->nr = 0;
	if (m->head < m->nr && m->spans[m->head].start < limit)
		limit = m->spans[m->head].start;
	if (limit > m->pos)
		limit = m->pos;
	write_plain(m, limit, out);
}

/*
 * The first byte a new match could start at: (longest form - 1) back in
 * the input, and (longest wrapped form - 1) back in the unwrapped stream,
 * whichever input byte is earlier.
 */
static uint64_t safe_limit(const struct sc_masker *m)
{
	uint64_t back = m->set->longest ? m->set->longest - 1 : 0;
	uint64_t limit = m->pos > back ? m->pos - back : 0, w;

	if (m->wstream && m->nr_segs > m->seg_head) {
		back = m->set->wlongest - 1;
		if (m->wpos <= back)
			return 0;
		w = unwrapped_to_input(m, m->wpos - back);
		if (w < limit)
			limit = w;
	}
	return limit;
}

/* Drop held bytes nobody needs: written ones older than the hold-back. */
static void trim(struct sc_masker *m)
{
	uint64_t keep = safe_limit(m);

	if (m->done < keep)
		keep = m->done;
	if (keep > m->hold_base) {
		sc_buf_consume(&m->hold, (size_t)(keep - m->hold_base));
		m->hold_base = keep;
	}
	/* Runs wholly before the unwrapped hold-back are not needed. */
	if (m->wstream) {
		uint64_t back = m->set->wlongest;
		uint64_t w = m->wpos > back ? m->wpos - back : 0;

		while (m->nr_segs - m->seg_head > 1 &&
		       m->segs[m->seg_head + 1].w <= w)
			m->seg_head++;
		if (m->seg_head > 64 && m->seg_head * 2 > m->nr_segs) {
			memmove(m->segs, m->segs + m->seg_head,
				(m->nr_segs - m->seg_head) * sizeof(*m->segs));
			m->nr_segs -= m->seg_head;
			m->seg_head = 0;
		}
	}
}

int sc_masker_feed(struct sc_masker *m, const void *data, size_t len,
		   struct sc_buf *out)
{
	if (!len)
		return 0;
	if (!m->stream && !m->wstream) {
		sc_buf_add(out, data, len);
		m->pos += len;
		m->done = m->hold_base = m->pos;
		return 0;
	}
	sc_buf_add(&m->hold, data, len);
	if (m->stream && hs_scan_stream(m->stream, data, (unsigned)len, 0,
					m->scratch, on_match, m) != HS_SUCCESS)
		return sc_error("MATCHER", "Vectorscan scan failed");
	if (m->wstream) {
		unwrap(m, data, len);
		if (m->wbuf.len &&
		    hs_scan_stream(m->wstream, m->wbuf.data, (unsigned)m->wbuf.len,
				   0, m->scratch, on_wmatch, m) != HS_SUCCESS)
			return sc_error("MATCHER", "Vectorscan scan failed");
		m->wpos += m->wbuf.len;
	}
	m->pos += len;
	advance(m, safe_limit(m), 0, out);
	trim(m);
	return 0;
}

/*
 * The first input byte at or after FROM where the unwrapped rest of the
 * held bytes could begin a form (M->pos when none can).
 */
static uint64_t wrapped_prefix_start(const struct sc_masker *m, uint64_t from)
{
	size_t n = (size_t)(m->pos - from), k = 0, i;
	const char *h = m->hold.data + (from - m->hold_base);
	char *text = sc_xmalloc(n + 1);
	uint64_t *at = sc_xcalloc(n + 1, sizeof(*at)), found = m->pos;
	struct gap g = { 0, 0, 0 };

	/* The same gaps as unwrap(), from a fresh state. */
	for (i = 0; i < n; i++) {
		if (gap_step(&g, (unsigned char)h[i]))
			continue;
		text[k] = h[i];
		at[k++] = from + i;
	}
	for (i = 0; i < k; i++)
		if (sc_mask_set_begins_form(m->set, text + i, k - i)) {
			found = at[i];
			break;
		}
	explicit_bzero(text, n + 1);
	free(text);
	free(at);
	return found;
}

int sc_masker_idle(struct sc_masker *m, struct sc_buf *out)
{
	uint64_t p, limit;

	if (!m->stream && !m->wstream)
		return 0;
	limit = safe_limit(m);
	for (p = limit; p < m->pos; p++)
		if (sc_mask_set_begins_form(m->set, m->hold.data + (p - m->hold_base),
				(size_t)(m->pos - p)))
			break;
	if (m->wstream && p > limit) {
		uint64_t w = wrapped_prefix_start(m, limit);

		if (w < p)
			p = w;
	}
	advance(m, p, 1, out);
	trim(m);
	return 0;
}

int sc_masker_finish(struct sc_masker *m, struct sc_buf *out)
{
	int ret = 0;

	if ((m->stream && hs_reset_stream(m->stream, 0, m->scratch, on_match,
					  m) != HS_SUCCESS) ||
	    (m->wstream && hs_reset_stream(m->wstream, 0, m->scratch, on_wmatch,
					   m) != HS_SUCCESS))
		ret = sc_error("MATCHER", "Vectorscan cannot end the stream");
	advance(m, UINT64_MAX, 0, out);
	sc_buf_wipe(&m->hold);
	sc_buf_wipe(&m->wbuf);
	m->pos = m->done = m->hold_base = 0;
	m->head = m->nr = 0;
	m->wpos = 0;
	m->seg_head = m->nr_segs = 0;
	memset(&m->gap, 0, sizeof(m->gap));
	m->gap_before = 0;
	return ret;
}

size_t sc_masker_held(const struct sc_masker *m)
{
	return (size_t)(m->pos - m->done);
}

int sc_masker_mask(struct sc_masker *m, const void *data, size_t len,
		   struct sc_buf *out)
{
	/* Scanned in slices, since Vectorscan takes an unsigned length. */
	const char *p = data;

	while (len) {
		size_t n = len > (1u << 30) ? (1u << 30) : len;

		if (sc_masker_feed(m, p, n, out) < 0)
			return -1;
		p += n;
		len -= n;
	}
	return sc_masker_finish(m, out);
}
