#include <errno.h>
#include <fcntl.h>
#include <hs.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "config.h"
#include "diag.h"
#include "encode.h"
#include "paths.h"
#include "record.h"
#include "scan.h"
#include "strlist.h"

#if __has_include("scan-db.h")
#include "scan-db.h"
#else
static const unsigned char sc_scan_db[1];
static const size_t sc_scan_db_len = 0;
#define SC_SCAN_DB_RULES 0
#endif

/* An assigned value counts when this long and this unpredictable. */
#define ASSIGN_MIN_LEN 16
#define ASSIGN_SHORT_LEN 12  /* after a provider's name (SC_RULE_SHORT) */
#define ASSIGN_SHORT_ENTROPY 3.0
#define ASSIGN_MIN_ENTROPY 3.5
#define ASSIGN_MAX_LEN 4096

/* A token below this entropy is a placeholder ("ghp_xxxx..."), not a key. */
#define TOKEN_MIN_ENTROPY 3.0
#define TOKEN_ENTROPY_FROM 16

/* How far back from a match's end its value may start. */
#define VALUE_MAX_BACK 4096

/* How far a private key block may reach past its header. */
#define KEY_BLOCK_MAX ((size_t)16 << 10)

/*
 * Windows of large inputs: each is scanned whole; the next one starts
 * SC_SCAN_MAX_MATCH before the end of what this one owns, and a window
 * owns only the matches ending LOOKAHEAD before its end (so a value or a
 * key block read past a match's end is read whole), except the last.
 */
#define SCAN_WINDOW ((size_t)16 << 20)
#define LOOKAHEAD (KEY_BLOCK_MAX + ASSIGN_MAX_LEN)

struct sc_scanner {
	hs_database_t *db;
	hs_scratch_t *scratch;
	char (*allow)[17];   /* allowed fingerprints, sorted */
	size_t nr_allow, alloc_allow;
};

/* ---- building ---- */

static struct sc_scanner *finish_new(struct sc_scanner *sc)
{
	if (hs_alloc_scratch(sc->db, &sc->scratch) != HS_SUCCESS) {
		sc_scanner_free(sc);
		sc_error("MATCHER", "Vectorscan cannot allocate scratch space");
		return NULL;
	}
	return sc;
}

struct sc_scanner *sc_scanner_compile(void)
{
	struct sc_scanner *sc = sc_xcalloc(1, sizeof(*sc));

	if (sc_scan_rules_compile(&sc->db) < 0) {
		free(sc);
		return NULL;
	}
	return finish_new(sc);
}

/*
 * The built database is used when it was built from this table (same
 * number of rules: the header is regenerated whenever scanrules.c
 * changes) and Vectorscan accepts it for this machine; otherwise the
 * rules are compiled now, which costs a second but changes nothing else.
 */
struct sc_scanner *sc_scanner_new(void)
{
	struct sc_scanner *sc;

	if (!sc_scan_db_len || SC_SCAN_DB_RULES != sc_scan_nr_rules())
		return sc_scanner_compile();
	sc = sc_xcalloc(1, sizeof(*sc));
	if (hs_deserialize_database((const char *)sc_scan_db, sc_scan_db_len,
				    &sc->db) != HS_SUCCESS) {
		free(sc);
		return sc_scanner_compile();
	}
	return finish_new(sc);
}

int sc_scanner_serialize(const struct sc_scanner *sc, char **bytes,
			 size_t *len)
{
	if (hs_serialize_database(sc->db, bytes, len) != HS_SUCCESS)
		return sc_error("MATCHER", "Vectorscan cannot serialise the rules");
	return 0;
}

void sc_scanner_free(struct sc_scanner *sc)
{
	if (!sc)
		return;
	if (sc->scratch)
		hs_free_scratch(sc->scratch);
	if (sc->db)
		hs_free_database(sc->db);
	free(sc->allow);
	free(sc);
}

static int fp_cmp(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

int sc_scanner_allow(struct sc_scanner *sc, const char *fp)
{
	size_t i;

	if (!sc_fingerprint_valid(fp))
		return -1;
	SC_ALLOC_GROW(sc->allow, sc->nr_allow + 1, sc->alloc_allow);
	for (i = 0; i < 17; i++)
		sc->allow[sc->nr_allow][i] = fp[i];
	sc->nr_allow++;
	qsort(sc->allow, sc->nr_allow, sizeof(*sc->allow), fp_cmp);
	return 0;
}

int sc_scanner_allow_config(struct sc_scanner *sc, const char *config)
{
	struct sc_config cfg;
	size_t i;
	int st;

	sc_config_init(&cfg);
	st = sc_config_load(&cfg, config);
	if (st != SC_CONFIG_OK)
		return st;
	/* Checked by the reader: each is a fingerprint's form. */
	for (i = 0; i < cfg.allow_fps.nr; i++)
		sc_scanner_allow(sc, cfg.allow_fps.v[i]);
	sc_config_release(&cfg);
	return 0;
}

struct sc_scanner *sc_scanner_new_allowing(const char *config,
					   char *const *allow, size_t nr_allow,
					   int *cst)
{
	struct sc_scanner *sc = sc_scanner_new();
	size_t i;

	*cst = SC_CONFIG_OK;
	if (!sc)
		return NULL;
	/* The caller checked their form (sc_fingerprint_valid). */
	for (i = 0; i < nr_allow; i++)
		if (sc_scanner_allow(sc, allow[i]) < 0)
			sc_die(SC_EXIT_INTERNAL, "INTERNAL",
			       "--allow-fingerprint not checked");
	if (config && (*cst = sc_scanner_allow_config(sc, config))) {
		sc_scanner_free(sc);
		return NULL;
	}
	return sc;
}

static int allowed(const struct sc_scanner *sc, const char *fp)
{
	return sc->nr_allow &&
	       bsearch(fp, sc->allow, sc->nr_allow, sizeof(*sc->allow),
		       fp_cmp) != NULL;
}

/* ---- values ---- */

/*
 * log2 of X > 0 without libm (not otherwise linked): the exponent from the
 * double's bits, the mantissa m moved into [sqrt(1/2), sqrt(2)), then
 * ln m = 2 atanh((m - 1) / (m + 1)), a series that converges fast for
 * |t| <= 0.172: seven terms are exact to 1e-12.  (Called for every
 * distinct character of every candidate: it was a tenth of a scan.)
 */
static double log2_of(double x)
{
	uint64_t bits;
	double m, t, t2, sum = 0, term;
	int e, k;

	memcpy(&bits, &x, sizeof(bits));
	e = (int)((bits >> 52) & 0x7ff) - 1023;
	bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
	memcpy(&m, &bits, sizeof(m));
	if (m > 1.41421356237309504880) {
		m /= 2;
		e++;
	}
	t = (m - 1) / (m + 1);
	t2 = t * t;
	term = t;
	for (k = 1; k < 14; k += 2) {
		sum += term / k;
		term *= t2;
	}
	return e + 2 * sum / 0.69314718055994530942;
}

/*
 * H = log2 N - (1/N) sum c log2 c over the counts c of the distinct
 * bytes: each distinct byte is met once, on the second pass over P.
 */
double sc_scan_entropy(const char *p, size_t len)
{
	uint32_t count[256];
	double sum = 0;
	size_t i;

	if (!len)
		return 0;
	memset(count, 0, sizeof(count));
	for (i = 0; i < len; i++)
		count[(unsigned char)p[i]]++;
	for (i = 0; i < len; i++) {
		uint32_t *c = &count[(unsigned char)p[i]];

		if (*c > 1)
			sum += *c * log2_of(*c);
		*c = 0;
	}
	return log2_of((double)len) - sum / (double)len;
}

static int value_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || (c && strchr("+/=_.~!@#%^&*-", c));
}

/* A token's characters: what a value is made of, '=' padding aside. */
static int token_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || (c && strchr("+/_.~%$:@!*-", c));
}

/*
 * The value after an assignment's '=' or ':' at END, when long and random:
 * its extent into *FROM and *TO.  After a provider's name (SHORT), a
 * shorter value counts, and letters of both cases without a digit, with
 * less entropy (ids of 12 to 16 characters cannot reach 3.5 bits).
 */
static int strong_value(const char *data, size_t len, size_t end, int short_ok,
			size_t *from, size_t *to)
{
	size_t at = end, start;
	int digit = 0, alpha = 0, upper = 0, lower = 0;

	while (at < len && (data[at] == ' ' || data[at] == '\t' ||
			    data[at] == '"' || data[at] == '\'' || data[at] == '`'))
		at++;
	start = at;
	while (at < len && at - start < ASSIGN_MAX_LEN && value_char(data[at])) {
		digit |= data[at] >= '0' && data[at] <= '9';
		upper |= data[at] >= 'A' && data[at] <= 'Z';
		lower |= data[at] >= 'a' && data[at] <= 'z';
		at++;
	}
	alpha = upper || lower;
	if (at - start < (short_ok ? ASSIGN_SHORT_LEN : ASSIGN_MIN_LEN) ||
	    !((digit && alpha) || (short_ok && upper && lower)) ||
	    sc_scan_entropy(data + start, at - start) <
	    (short_ok ? ASSIGN_SHORT_ENTROPY : ASSIGN_MIN_ENTROPY))
		return 0;
	*from = start;
	*to = at;
	return 1;
}

static const char *find_bytes(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	return k <= n ? memmem(hay, n, needle, k) : NULL;
}

/* A private key block: from its BEGIN line through its END line. */
static void key_block(const char *data, size_t len, size_t end,
		      size_t *from, size_t *to)
{
	size_t back = end > 128 ? end - 128 : 0, lim;
	const char *p = data + back, *begin = NULL, *q;

	while ((q = find_bytes(p, end - (size_t)(p - data), "-----BEGIN"))) {
		begin = q;
		p = q + 1;
	}
	*from = begin ? (size_t)(begin - data) : end;
	lim = len - end < KEY_BLOCK_MAX ? len - end : KEY_BLOCK_MAX;
	*to = end;
	q = find_bytes(data + end, lim, "-----END");
	if (q) {
		const char *dash = find_bytes(q + 8, lim - (size_t)(q + 8 - (data + end)),
					      "-----");

		*to = dash ? (size_t)(dash + 5 - data) : (size_t)(q + 8 - data);
	}
}

/* A token ending at END: back over its characters, trailing '=' included. */
static size_t token_start(const char *data, size_t base, size_t end)
{
	size_t at = end, floor = end - base > VALUE_MAX_BACK ?
				   end - VALUE_MAX_BACK : base;

	while (at > floor && data[at - 1] == '=')
		at--;
	while (at > floor && token_char(data[at - 1]))
		at--;
	return at;
}

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32) of N bytes at P. */
static uint32_t crc32_ieee(const char *p, size_t n)
{
	uint32_t crc = 0xffffffffu;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		crc ^= (unsigned char)p[i];
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

/* A base62 digit's value (0-9A-Za-z), or -1. */
static int base62_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 36;
	return -1;
}

/* The base62 of a checksummed token, its checksum included: 36 (GitHub's
 * and npm's today), at most 255 as GitHub allows its tokens to grow. */
#define CRC_TOKEN_MIN 36
#define CRC_TOKEN_MAX 255

int sc_scan_crc32_token(const char *p, size_t len)
{
	size_t body = 0, i;
	uint64_t sum = 0;
	const char *b;

	while (body < len && body < CRC_TOKEN_MAX + 1 &&
	       base62_digit(p[len - 1 - body]) >= 0)
		body++;
	if (body < CRC_TOKEN_MIN || body > CRC_TOKEN_MAX || len < body + 4)
		return -1;
	b = p + len - body;
	if (b[-1] != '_' || (len > body + 4 && base62_digit(b[-5]) >= 0) ||
	    (memcmp(b - 4, "gh", 2) && memcmp(b - 4, "npm", 3)) ||
	    (!memcmp(b - 4, "gh", 2) && !(b[-2] && strchr("pousr", b[-2]))))
		return -1;
	for (i = body - 6; i < body; i++)
		sum = sum * 62 + (uint64_t)base62_digit(b[i]);
	return sum == crc32_ieee(b, body - 6);
}

/* Bech32's checksum (BIP 173): the generator of its BCH code. */
static uint32_t bech32_step(uint32_t chk, unsigned v)
{
	static const uint32_t gen[5] = { 0x3b6a57b2, 0x26508e6d, 0x1ea119fa,
					 0x3d4233dd, 0x2a1462b3 };
	uint32_t top = chk >> 25;
	int i;

	chk = ((chk & 0x1ffffff) << 5) ^ v;
	for (i = 0; i < 5; i++)
		if ((top >> i) & 1)
			chk ^= gen[i];
	return chk;
}

#define AGE_HRP "age-secret-key-"
#define AGE_DATA 58   /* 52 characters of key, 6 of checksum */

int sc_scan_age_key_valid(const char *p, size_t len)
{
	static const char charset[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
	const size_t hrp = sizeof(AGE_HRP) - 1;
	const char *d;
	uint32_t chk = 1;
	size_t i;

	if (len < hrp + 1 + AGE_DATA)
		return -1;
	d = p + len - AGE_DATA;
	if (d[-1] != '1' || strncasecmp(d - 1 - hrp, AGE_HRP, hrp))
		return -1;
	for (i = 0; i < hrp; i++)
		chk = bech32_step(chk, (unsigned char)AGE_HRP[i] >> 5);
	chk = bech32_step(chk, 0);
	for (i = 0; i < hrp; i++)
		chk = bech32_step(chk, (unsigned char)AGE_HRP[i] & 31);
	for (i = 0; i < AGE_DATA; i++) {
		char c = d[i] >= 'A' && d[i] <= 'Z' ? (char)(d[i] + 32) : d[i];
		const char *at = c ? strchr(charset, c) : NULL;

		if (!at)
			return -1;
		chk = bech32_step(chk, (unsigned)(at - charset));
	}
	return chk == 1;
}

/* The first 16 hex digits of the value's SHA-256 (config.h's form). */
static void fingerprint(const char *p, size_t len, char out[17])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;

	if (!EVP_Digest(p, len, md, &mdlen, EVP_sha256(), NULL))
		sc_die(SC_EXIT_INTERNAL, "INTERNAL", "SHA-256 failed");
	sc_hex_into(out, md, 8);
}

/* ---- scanning ---- */

/* A match accepted in the current window: its value and its line. */
struct cand {
	uint64_t from, to;   /* the value, absolute offsets */
	unsigned long line;
	unsigned rule;
};

/*
 * One scan of an input seen window by window.  BASE is the absolute
 * offset of the window's first byte; matches ending at or before OWNED
 * were handled by an earlier window.  Newlines are counted up to NL_AT.
 */
struct scan_run {
	struct sc_scanner *sc;
	sc_scan_found_fn fn;
	void *ctx;
	const char *win;
	size_t win_len;
	uint64_t base, owned, own_to;
	uint64_t nl_at;
	unsigned long nl_count;
	struct cand *c;
	size_t nr, alloc;
	size_t *last;        /* per rule: its latest candidate + 1, or 0 */
	long found;
};

/*
 * After a provider's name, at AT (the character the rule ended on):
 * quotes, blanks, Go's "string" type, then an assignment operator (=, :,
 * =>, :=, ::=, ||=, ?=, the '>' of an XML element, or the ',' after a
 * quoted name, as in setProperty("NAME", "value")).  The offset after the
 * operator, or 0 when there is none.  (Parsed here: the same in the
 * regex made Vectorscan five times slower with a hundred names.)
 */
static size_t assign_operator(const char *d, size_t len, size_t at)
{
	int quoted = 0;

	while (at < len && (d[at] == '"' || d[at] == '\'')) {
		quoted = 1;
		at++;
	}
	while (at < len && (d[at] == ' ' || d[at] == '\t'))
		at++;
	if (len - at > 6 && !memcmp(d + at, "string", 6)) {
		at += 6;
		while (at < len && (d[at] == ' ' || d[at] == '\t'))
			at++;
	}
	if (at >= len)
		return 0;
	switch (d[at]) {
	case '=':
		return at + 1 + (at + 1 < len && d[at + 1] == '>');
	case ':':
		while (at < len && d[at] == ':')
			at++;
		return at + (at < len && d[at] == '=');
	case '>':
		return at + 1;
	case '|':
		if (at + 1 >= len || d[at + 1] != '|')
			return 0;
		return at + 2 + (at + 2 < len && d[at + 2] == '=');
	case '?':
		return at + 1 < len && d[at + 1] == '=' ? at + 2 : 0;
	case ',':
		return quoted ? at + 1 : 0;
	}
	return 0;
}

/*
 * A rule with a repeat reports every end of a long token: when only token
 * characters lie between its latest candidate's end and TO, this end
 * belongs to the same token, which grows without walking back again.
 */
static int extends_last(struct scan_run *r, unsigned id, size_t to)
{
	struct cand *c;
	size_t at;

	if (!r->last[id])
		return 0;
	c = &r->c[r->last[id] - 1];
	if (c->to < r->base || r->base + to <= c->to ||
	    r->base + to - c->to > 64 ||
	    r->base + to - c->from > VALUE_MAX_BACK)
		return 0;
	for (at = (size_t)(c->to - r->base); at < to; at++)
		if (!token_char(r->win[at]))
			return 0;
	c->to = r->base + to;
	return 1;
}

static int on_rule(unsigned id, unsigned long long from,
		   unsigned long long to, unsigned flags, void *ctx)
{
	struct scan_run *r = ctx;
	const struct sc_scan_rule *rule = &sc_scan_rules[id];
	uint64_t end = r->base + to;
	size_t vf, vt;
	struct cand *c;

	(void)from;
	(void)flags;
	if (end <= r->owned || end > r->own_to)
		return 0;
	if (rule->flags & SC_RULE_ASSIGN) {
		if (rule->flags & SC_RULE_SHORT &&
		    !(to = assign_operator(r->win, r->win_len, (size_t)to - 1)))
			return 0;
		if (!strong_value(r->win, r->win_len, (size_t)to,
				  !!(rule->flags & SC_RULE_SHORT), &vf, &vt))
			return 0;
	} else if (rule->flags & SC_RULE_KEY_BLOCK) {
		key_block(r->win, r->win_len, (size_t)to, &vf, &vt);
	} else if (extends_last(r, id, (size_t)to)) {
		return 0;
	} else {
		/* Its entropy is checked once, on its final extent (report). */
		vf = token_start(r->win, 0, (size_t)to);
		vt = (size_t)to;
	}
	/* The same value reported again at a later end: keep the longest. */
	if (r->last[id]) {
		c = &r->c[r->last[id] - 1];
		if (c->from == r->base + vf) {
			if (r->base + vt > c->to)
				c->to = r->base + vt;
			return 0;
		}
	}
	SC_ALLOC_GROW(r->c, r->nr + 1, r->alloc);
	c = &r->c[r->nr++];
	c->from = r->base + vf;
	c->to = r->base + vt;
	c->line = 0;
	c->rule = id;
	r->last[id] = r->nr;
	return 0;
}

/*
 * The newlines in the N bytes at P.  With SSE2 (every x86-64): sixteen
 * bytes compared at a time, each newline adding 1 to a byte lane (the
 * compare gives -1, subtracted), the lanes summed by psadbw before any
 * can overflow.  Otherwise eight bytes at a time: a byte of
 * x = word ^ "\n\n..." is zero exactly where a newline is, and
 * ((x & 0x7f..) + 0x7f..) | x has its high bit clear only there.
 * (Every byte of a scanned file is counted: this was a sixteenth of it.)
 */
static unsigned long count_newlines(const char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, nl = ones * '\n';
	const uint64_t low7 = ones * 0x7f, high = ones * 0x80;
	unsigned long count = 0;
	size_t i = 0;

#ifdef __SSE2__
	const __m128i want = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	while (n - i >= 16) {
		__m128i acc = zero, sums;
		size_t end = n - i >= 255 * 16 ? i + 255 * 16 :
			     i + ((n - i) & ~(size_t)15);

		for (; i < end; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));

			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, want));
		}
		sums = _mm_sad_epu8(acc, zero);
		count += (unsigned long)_mm_cvtsi128_si32(sums) +
			 (unsigned long)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
	}
#endif
	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, p + i, 8);
		x ^= nl;
		y = ((x & low7) + low7) | x;
		/* One bit a newline, summed into the top byte by a multiply
		 * (no popcount instruction in the baseline x86-64 ISA). */
		count += (unsigned long)((((~y & high) >> 7) * ones) >> 56);
	}
	for (; i < n; i++)
		count += p[i] == '\n';
	return count;
}

/* The line of absolute offset AT, which lies in the window. */
static unsigned long line_at(struct scan_run *r, uint64_t at)
{
	const char *w = r->win, *p, *end;

	while (r->nl_at > at) {
		/* Back: the window holds [base, nl_at) at least. */
		p = memrchr(w + (at - r->base), '\n', (size_t)(r->nl_at - at));
		if (!p)
			break;
		r->nl_count--;
		r->nl_at = r->base + (uint64_t)(p - w);
	}
	if (r->nl_at > at) {
		r->nl_at = at;
		return r->nl_count + 1;
	}
	end = w + (at - r->base);
	r->nl_count += count_newlines(w + (r->nl_at - r->base),
				      (size_t)(end - (w + (r->nl_at - r->base))));
	r->nl_at = at;
	return r->nl_count + 1;
}

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->rule != y->rule)
		return x->rule < y->rule ? -1 : 1;
	return (x->from > y->from) - (x->from < y->from);
}

static int cand_from_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	return (x->from > y->from) - (x->from < y->from);
}

/* A token too predictable to be a key ("ghp_xxxx..."): not a finding. */
static int placeholder(const struct scan_run *r, const struct cand *c)
{
	const struct sc_scan_rule *rule = &sc_scan_rules[c->rule];
	size_t len = (size_t)(c->to - c->from);

	if (rule->flags & (SC_RULE_NO_ENTROPY | SC_RULE_ASSIGN) ||
	    len < TOKEN_ENTROPY_FROM)
		return 0;
	return sc_scan_entropy(r->win + (c->from - r->base), len) <
	       TOKEN_MIN_ENTROPY;
}

/*
 * A token whose format carries a checksum (GitHub's and npm's CRC32, an
 * age key's Bech32), and whose checksum is wrong, is no token of that
 * format (a made-up example, a typo, a look-alike):
 * not a finding of its rule.  Assigned to a secret-looking name, it is
 * still one of secret-assignment, the rule for values without a format.
 */
static int bad_checksum(const struct scan_run *r, const struct cand *c)
{
	const char *p = r->win + (c->from - r->base);
	size_t len = (size_t)(c->to - c->from);
	unsigned flags = sc_scan_rules[c->rule].flags;

	return (flags & SC_RULE_CRC32 && !sc_scan_crc32_token(p, len)) ||
	       (flags & SC_RULE_BECH32 && !sc_scan_age_key_valid(p, len));
}

/* Report the window's candidates: once per line, rule and fingerprint. */
static void report(struct scan_run *r)
{
	size_t i, j, line_start = 0;
	char (*fps)[17];

	if (!r->nr)
		return;
	/* Lines in offset order, so counting newlines goes forward. */
	qsort(r->c, r->nr, sizeof(*r->c), cand_from_cmp);
	for (i = 0; i < r->nr; i++)
		r->c[i].line = line_at(r, r->c[i].from < r->base ? r->base :
				       r->c[i].from);
	qsort(r->c, r->nr, sizeof(*r->c), cand_cmp);
	fps = sc_xcalloc(r->nr, sizeof(*fps));
	for (i = 0; i < r->nr; i++) {
		const struct cand *c = &r->c[i];
		struct sc_scan_finding f;
		int dup = 0;

		if (i && c->line != r->c[i - 1].line)
			line_start = i;
		fps[i][0] = 0;
		if (placeholder(r, c) || bad_checksum(r, c))
			continue;
		fingerprint(r->win + (c->from - r->base), (size_t)(c->to - c->from),
			    fps[i]);
		/*
		 * Once per value and rule on a line; and once for all the
		 * assignment rules: a name both provider and secret-looking
		 * is one finding, named by the more specific rule.
		 */
		for (j = line_start; j < i && !dup; j++)
			dup = fps[j][0] && !memcmp(fps[j], fps[i], 16) &&
			      (r->c[j].rule == c->rule ||
			       (sc_scan_rules[r->c[j].rule].flags &
				sc_scan_rules[c->rule].flags & SC_RULE_ASSIGN));
		if (dup)
			continue;
		f.rule = sc_scan_rules[c->rule].id;
		f.line = c->line;
		memcpy(f.fingerprint, fps[i], sizeof(f.fingerprint));
		/* Allowed: said, never dropped silently, never counted. */
		f.allowed = allowed(r->sc, fps[i]);
		r->fn(r->ctx, &f);
		r->found += !f.allowed;
	}
	free(fps);
}

/*
 * Scan the window WIN (LEN bytes at absolute offset R->base).  Unless it
 * is the LAST, it owns matches ending up to LOOKAHEAD before its end.
 * Returns where the next window must start, or UINT64_MAX on error.
 */
static uint64_t scan_window(struct scan_run *r, const char *win, size_t len,
			    int last)
{
	uint64_t next;

	r->win = win;
	r->win_len = len;
	r->own_to = last || len <= LOOKAHEAD ? r->base + len :
		    r->base + len - LOOKAHEAD;
	r->nr = 0;
	memset(r->last, 0, sc_scan_nr_rules() * sizeof(*r->last));
	if (len && hs_scan(r->sc->db, win, (unsigned)len, 0, r->sc->scratch,
			   on_rule, r) != HS_SUCCESS) {
		sc_error("MATCHER", "Vectorscan scan failed");
		return UINT64_MAX;
	}
	report(r);
	/* Count the newlines this window owns, for the next one. */
	line_at(r, r->own_to);
	r->owned = r->own_to;
	next = r->own_to > r->base + SC_SCAN_MAX_MATCH ?
	       r->own_to - SC_SCAN_MAX_MATCH : r->base;
	return next;
}

static void run_init(struct scan_run *r, struct sc_scanner *sc,
		     sc_scan_found_fn fn, void *ctx)
{
	memset(r, 0, sizeof(*r));
	r->sc = sc;
	r->fn = fn;
	r->ctx = ctx;
	r->last = sc_xcalloc(sc_scan_nr_rules(), sizeof(*r->last));
}

static void run_release(struct scan_run *r)
{
	free(r->c);
	free(r->last);
}

long sc_scan_buffer_ex(struct sc_scanner *sc, const char *data, size_t len,
		       sc_scan_found_fn fn, void *ctx)
{
	struct scan_run r;
	long ret;

	run_init(&r, sc, fn, ctx);
	for (;;) {
		size_t n = len - (size_t)r.base;
		int last = n <= SCAN_WINDOW;
		uint64_t next;

		next = scan_window(&r, data + r.base, last ? n : SCAN_WINDOW,
				   last);
		if (next == UINT64_MAX) {
			run_release(&r);
			return -1;
		}
		if (last)
			break;
		r.base = next;
	}
	ret = r.found;
	run_release(&r);
	return ret;
}

struct plain {
	sc_scan_fn fn;
	void *ctx;
};

static void plain_hit(void *ctx, const struct sc_scan_finding *f)
{
	struct plain *p = ctx;

	p->fn(p->ctx, f->rule, f->line);
}

long sc_scan_buffer(struct sc_scanner *sc, const char *data, size_t len,
		    sc_scan_fn fn, void *ctx)
{
	struct plain p = { fn, ctx };

	return sc_scan_buffer_ex(sc, data, len, plain_hit, &p);
}

/*
 * Scan what FD reads, window by window: memory stays at one window
 * whatever the size.  -1 (with errno) when reading fails, -2 on a
 * matcher error.
 */
static long scan_fd(struct sc_scanner *sc, int fd, sc_scan_found_fn fn,
		    void *ctx)
{
	struct scan_run r;
	char *buf = sc_xmalloc(SCAN_WINDOW);
	size_t len = 0;
	long ret = 0;
	int eof = 0;

	run_init(&r, sc, fn, ctx);
	while (!eof) {
		uint64_t next;

		while (len < SCAN_WINDOW) {
			ssize_t n = read(fd, buf + len, SCAN_WINDOW - len);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				ret = -1;
				goto out;
			}
			if (!n) {
				eof = 1;
				break;
			}
			len += (size_t)n;
		}
		next = scan_window(&r, buf, len, eof);
		if (next == UINT64_MAX) {
			ret = -2;
			goto out;
		}
		if (!eof) {
			size_t keep = len - (size_t)(next - r.base);

			memmove(buf, buf + (len - keep), keep);
			len = keep;
			r.base = next;
		}
	}
	ret = r.found;
out:
	explicit_bzero(buf, SCAN_WINDOW);
	free(buf);
	run_release(&r);
	return ret;
}

/* ---- files ---- */

struct walk {
	struct sc_scanner *sc;
	struct sc_output *out;
	const char *shown;   /* the path as printed */
	int found, failed, incomplete, internal;
};

static void count_hit(void *ctx, const char *rule, unsigned long line)
{
	(void)rule;
	(void)line;
	(*(int *)ctx)++;
}

void sc_scan_show_path(struct sc_scanner *sc, const char *path,
		       struct sc_buf *shown)
{
	const char *p = path;

	sc_buf_reset(shown);
	while (*p) {
		size_t n = strcspn(p, "/");
		int hits = 0;

		if (n && sc_scan_buffer(sc, p, n, count_hit, &hits) < 0)
			hits = 1;
		if (hits)
			sc_buf_adds(shown, "(name not shown)");
		else
			sc_buf_add(shown, p, n);
		p += n;
		if (*p == '/') {
			sc_buf_addch(shown, '/');
			p++;
		}
	}
}

void sc_scan_finding_record(struct sc_record *rec,
			    const struct sc_scan_finding *f, const char *file)
{
	char num[32];

	snprintf(num, sizeof(num), "%lu", f->line);
	sc_record_adds(rec, "type", "finding");
	sc_record_adds(rec, "code", f->allowed ? "CREDENTIAL-ALLOWED" :
		       "CREDENTIAL");
	sc_record_adds(rec, "rule", f->rule);
	sc_record_adds(rec, "file", file);
	sc_record_adds(rec, "line", num);
	if (f->fingerprint[0])
		sc_record_adds(rec, "fingerprint", f->fingerprint);
	if (f->allowed)
		sc_record_adds(rec, "allowed", "fingerprint");
}

static void emit(void *ctx, const struct sc_scan_finding *f)
{
	struct walk *w = ctx;
	struct sc_record rec;

	sc_record_init(&rec);
	sc_scan_finding_record(&rec, f, w->shown);
	if (sc_record_write(w->out, &rec) < 0)
		w->failed = 1;
	sc_record_release(&rec);
	w->found |= !f->allowed;
}

/* Something under the paths was not scanned: say what, fail the scan. */
static void incomplete(struct walk *w, const char *msg, const char *why)
{
	sc_error("SCAN-INCOMPLETE", "'%s' not scanned: %s", msg, why);
	w->incomplete = 1;
}

static void scan_file(struct walk *w, const char *path, const char *shown,
		      const char *msg)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	long n;

	if (fd < 0) {
		incomplete(w, msg, strerror(errno));
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		incomplete(w, msg, "not a regular file");
		close(fd);
		return;
	}
	w->shown = shown;
	n = scan_fd(w->sc, fd, emit, w);
	if (n == -1)
		incomplete(w, msg, strerror(errno));
	else if (n == -2)
		w->internal = 1;
	close(fd);
}

static void scan_path(struct walk *w, const char *path, int top);

/* A symlink under a directory: what git would commit, its target's name. */
static void scan_link(struct walk *w, const char *path, const char *shown,
		      const char *msg)
{
	char target[4096];
	ssize_t n = readlink(path, target, sizeof(target));

	if (n < 0 || (size_t)n >= sizeof(target)) {
		incomplete(w, msg, n < 0 ? strerror(errno) : "link too long");
		return;
	}
	w->shown = shown;
	if (sc_scan_buffer_ex(w->sc, target, (size_t)n, emit, w) < 0)
		w->internal = 1;
}

static void scan_dir(struct walk *w, const char *path, const char *msg)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct sc_strlist names = { 0 };
	size_t i;

	if (fd < 0 || sc_dir_list(fd, SIZE_MAX, &names) < 0) {
		incomplete(w, msg, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	for (i = 0; i < names.nr; i++) {
		struct sc_buf child = SC_BUF_INIT;

		if (!strcmp(names.v[i], ".git"))
			continue;
		sc_buf_adds(&child, path);
		if (child.len && child.data[child.len - 1] != '/')
			sc_buf_addch(&child, '/');
		sc_buf_adds(&child, names.v[i]);
		scan_path(w, child.data, 0);
		sc_buf_release(&child);
	}
	sc_strlist_release(&names);
}

/*
 * A path named on the command line is followed; symlinks under it are not
 * (a symlink is a name, scanned as such with its directory's listing, not
 * a file of the tree).  Anything else that is neither a directory nor a
 * regular file (a FIFO, a socket, a device) cannot be scanned: it is
 * SCAN-INCOMPLETE, never skipped silently.
 */
static void scan_path(struct walk *w, const char *path, int top)
{
	struct sc_buf shown = SC_BUF_INIT;
	struct stat st;
	char msg[512];

	sc_scan_show_path(w->sc, path, &shown);
	sc_sanitize(msg, sizeof(msg), shown.data, shown.len);
	if ((top ? stat(path, &st) : lstat(path, &st)) < 0) {
		if (top) {
			sc_error_errno("INPUT", "cannot read '%s'", msg);
			w->failed = 1;
		} else {
			incomplete(w, msg, strerror(errno));
		}
	} else if (S_ISDIR(st.st_mode)) {
		scan_dir(w, path, msg);
	} else if (S_ISREG(st.st_mode)) {
		scan_file(w, path, shown.data, msg);
	} else if (S_ISLNK(st.st_mode)) {
		scan_link(w, path, shown.data, msg);
	} else {
		incomplete(w, msg, "not a regular file");
	}
	sc_buf_release(&shown);
}

int sc_scan_paths(struct sc_scanner *sc, char *const *paths, int npaths,
		  struct sc_output *out)
{
	struct walk w = { sc, out, NULL, 0, 0, 0, 0 };
	int i;

	for (i = 0; i < npaths; i++) {
		scan_path(&w, paths[i], 1);
		if (sc_output_unit_done(out) < 0)
			break;
	}
	if (sc_output_flush(out) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		return SC_SCAN_FAILED;
	}
	if (w.internal)
		return SC_SCAN_FAILED;
	if (w.incomplete)
		return SC_SCAN_INCOMPLETE;
	if (w.failed)
		return SC_SCAN_NO_PATH;
	return w.found ? SC_SCAN_FOUND : SC_SCAN_CLEAN;
}
