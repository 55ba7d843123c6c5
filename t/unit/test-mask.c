/*
 * The masker's leak properties: every form of every generated secret, at
 * every split point between reads, inside another secret, overlapping
 * another, is gone from the output; and the output does not depend on how
 * the input was cut into reads.  All secrets here are generated test values.
 */
#include "../lib/tap.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "encode.h"
#include "mask.h"
#include "secrets.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static size_t rnd_below(size_t n)
{
	return (size_t)(rnd() % n);
}

/* A generated secret: letters, digits and the bytes encoders escape. */
static void gen_secret(struct sc_buf *b, size_t len)
{
	static const char chars[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
		"+/=-_.~!@#$%^&*()\"\\<>& :;'\n\t";
	size_t i;

	sc_buf_reset(b);
	for (i = 0; i < len; i++)
		sc_buf_addch(b, chars[rnd_below(sizeof(chars) - 1)]);
	/* Never only digits and dots, never starting or ending in a newline. */
	b->data[0] = 'k';
	b->data[len - 1] = 'z';
}

static void gen_filler(struct sc_buf *b, size_t len)
{
	static const char chars[] = "abcdefghij klmnop\nqrstuv=:\"{}[],0123";
	size_t i;

	for (i = 0; i < len; i++)
		sc_buf_addch(b, chars[rnd_below(sizeof(chars) - 1)]);
}

static int contains(const struct sc_buf *hay, const char *needle, size_t n)
{
	return n && hay->len >= n && memmem(hay->data, hay->len, needle, n);
}

/* Mask IN feeding it in pieces of the sizes CUTS gives, calling idle between. */
static void mask_cut(struct sc_masker *m, const char *in, size_t len,
		     size_t piece, int idle, struct sc_buf *out)
{
	size_t at = 0;

	sc_buf_reset(out);
	while (at < len) {
		size_t n = piece ? piece : 1 + rnd_below(97);

		if (n > len - at)
			n = len - at;
		assert_int_equal(sc_masker_feed(m, in + at, n, out), 0);
		at += n;
		if (idle)
			assert_int_equal(sc_masker_idle(m, out), 0);
	}
	assert_int_equal(sc_masker_finish(m, out), 0);
}

/* IN with each run of adjacent markers replaced by "[R]". */
static void collapse_markers(const struct sc_buf *in, struct sc_buf *out)
{
	size_t i = 0;

	sc_buf_reset(out);
	while (i < in->len) {
		int run = 0;

		while (i + 10 <= in->len && !memcmp(in->data + i, "[redacted:", 10)) {
			const char *end = memchr(in->data + i, ']', in->len - i);

			assert_non_null(end);
			i = (size_t)(end - in->data) + 1;
			run = 1;
		}
		if (run)
			sc_buf_adds(out, "[R]");
		else
			sc_buf_addch(out, in->data[i++]);
	}
}

static void same_up_to_markers(const struct sc_buf *a, const struct sc_buf *b)
{
	struct sc_buf x = SC_BUF_INIT, y = SC_BUF_INIT;

	collapse_markers(a, &x);
	collapse_markers(b, &y);
	assert_int_equal(x.len, y.len);
	assert_memory_equal(x.data, y.data, x.len);
	sc_buf_release(&x);
	sc_buf_release(&y);
}

static struct sc_mask_set *build(struct sc_secrets *s)
{
	struct sc_mask_set *set = sc_mask_set_build(s, 0);

	assert_non_null(set);
	return set;
}

static void test_exact_replacement(void **state)
{
	struct sc_secrets s;
	struct sc_mask_set *set;
	struct sc_masker *m;
	struct sc_buf out = SC_BUF_INIT;
	const char *in = "a TESTVALUE-0001 b TESTVALUE-0001TESTVALUE-0001 c";

	(void)state;
	sc_secrets_init(&s);
	sc_secrets_add(&s, "TOK", "TESTVALUE-0001", 14);
	set = build(&s);
	m = sc_masker_new(set);
	assert_int_equal(sc_masker_mask(m, in, strlen(in), &out), 0);
	/* Touching matches are one replacement. */
	assert_string_equal(out.data, "a [redacted:TOK] b [redacted:TOK] c");
	sc_buf_release(&out);
	sc_masker_free(m);
	sc_mask_set_free(set);
	sc_secrets_release(&s);
}

static void test_nested_and_overlapping(void **state)
{
	struct sc_secrets s;
	struct sc_mask_set *set;
	struct sc_masker *m;
	struct sc_buf out = SC_BUF_INIT;
	const char *in = "<OUTER-aaaaINNER-bbbbbbbb-OUTER> <xxxxxxxxOVERLAP-yyyyyyyy>";
	struct sc_buf want = SC_BUF_INIT;
	size_t cut;

	(void)state;
	sc_secrets_init(&s);
	sc_secrets_add(&s, "INNER", "INNER-bbbbbbbb", 14);
	sc_secrets_add(&s, "OUTER", "OUTER-aaaaINNER-bbbbbbbb-OUTER", 30);
	sc_secrets_add(&s, "LEFT", "xxxxxxxxOVERLAP", 15);
	sc_secrets_add(&s, "RIGHT", "OVERLAP-yyyyyyyy", 16);
	set = build(&s);
	m = sc_masker_new(set);
	for (cut = 0; cut <= strlen(in); cut++) {
		sc_buf_reset(&out);
		assert_int_equal(sc_masker_feed(m, in, cut, &out), 0);
		assert_int_equal(sc_masker_idle(m, &out), 0);
		assert_int_equal(sc_masker_feed(m, in + cut, strlen(in) - cut,
						&out), 0);
		assert_int_equal(sc_masker_finish(m, &out), 0);
		/*
		 * One secret inside another: the longest names the range; a
		 * pause inside two overlapping ones may end the first marker.
		 */
		sc_buf_reset(&want);
		sc_buf_adds(&want, "<[redacted:OUTER]> <[redacted:RIGHT]>");
		same_up_to_markers(&out, &want);
		assert_null(memmem(out.data, out.len, "OVERLAP", 7));
		assert_null(memmem(out.data, out.len, "bbbb", 4));
		/* Without the pause: exactly one replacement each. */
		sc_buf_reset(&out);
		assert_int_equal(sc_masker_feed(m, in, cut, &out), 0);
		assert_int_equal(sc_masker_feed(m, in + cut, strlen(in) - cut,
						&out), 0);
		assert_int_equal(sc_masker_finish(m, &out), 0);
		assert_string_equal(out.data,
				    "<[redacted:OUTER]> <[redacted:RIGHT]>");
	}
	sc_buf_release(&want);
	sc_buf_release(&out);
	sc_masker_free(m);
	sc_mask_set_free(set);
	sc_secrets_release(&s);
}

static void test_weak_values_not_masked(void **state)
{
	struct sc_secrets s;
	struct sc_mask_set *set;
	struct sc_masker *m;
	struct sc_buf out = SC_BUF_INIT;
	const char *in = "docker 1234567890 10.0.0.1.2 test";

	(void)state;
	sc_secrets_init(&s);
	sc_secrets_add(&s, "SHORT", "docker", 6);
	sc_secrets_add(&s, "DIGITS", "1234567890", 10);
	sc_secrets_add(&s, "DOTS", "10.0.0.1.2", 10);
	set = build(&s);
	assert_int_equal(sc_mask_set_forms(set), 0);
	m = sc_masker_new(set);
	assert_int_equal(sc_masker_mask(m, in, strlen(in), &out), 0);
	assert_string_equal(out.data, in);
	assert_true(sc_secrets_value_too_weak("1234567", 7));
	assert_false(sc_secrets_value_too_weak("12345678a", 9));
	sc_buf_release(&out);
	sc_masker_free(m);
	sc_mask_set_free(set);
	sc_secrets_release(&s);
}

static void test_nul_bytes_pass(void **state)
{
	struct sc_secrets s;
	struct sc_mask_set *set;
	struct sc_masker *m;
	struct sc_buf out = SC_BUF_INIT;
	static const char in[] = "\0\x01\xff" "S3CRET-VALUE\0\x80";

	(void)state;
	sc_secrets_init(&s);
	sc_secrets_add(&s, "S", "S3CRET-VALUE", 12);
	set = build(&s);
	m = sc_masker_new(set);
	assert_int_equal(sc_masker_mask(m, in, sizeof(in) - 1, &out), 0);
	assert_int_equal(out.len, 3 + 12 + 2);
	assert_memory_equal(out.data, "\0\x01\xff[redacted:S]\0\x80", out.len);
	sc_buf_release(&out);
	sc_masker_free(m);
	sc_mask_set_free(set);
	sc_secrets_release(&s);
}

/* Vectorscan refuses literals starting with NUL: checked by hand instead. */
static void test_leading_nul_secret(void **state)
{
	struct sc_secrets s;
	struct sc_mask_set *set;
	struct sc_masker *m;
	struct sc_buf out = SC_BUF_INIT;
	static const char in[] = "a\0\0bin-secret! x\0bin-secret! \0\0bin-secret!";

	(void)state;
	sc_secrets_init(&s);
	sc_secrets_add(&s, "BIN", "\0\0bin-secret!", 13);
	set = build(&s);
	m = sc_masker_new(set);
	mask_cut(m, in, sizeof(in) - 1, 1, 1, &out);
	assert_int_equal(out.len, 1 + 14 + 15 + 14);
	assert_memory_equal(out.data, "a[redacted:BIN] x\0bin-secret! [redacted:BIN]",
			    out.len);
	sc_buf_release(&out);
	sc_masker_free(m);
	sc_mask_set_free(set);
	sc_secrets_release(&s);
}

/* Idle releases everything that cannot begin a form, and nothing else. */
static void test_idle_releases(void **state)
{
	struct sc_secrets s;
	struct sc_mask_set *set;
	struct sc_masker *m;
	struct sc_buf out = SC_BUF_INIT;

	(void)state;
	sc_secrets_init(&s);
	sc_secrets_add(&s, "S", "qwertyuiop-secret", 17);
	set = build(&s);
	m = sc_masker_new(set);
	/* Without idle, exactly (longest form - 1) bytes are held, no more. */
	assert_int_equal(sc_masker_feed(m, "                                                  "
					"                                                  ",
					100, &out), 0);
	assert_int_equal(sc_masker_held(m), sc_mask_set_longest(set) - 1);
	assert_int_equal(out.len, 100 - (sc_mask_set_longest(set) - 1));
	assert_int_equal(sc_masker_idle(m, &out), 0);
	assert_int_equal(out.len, 100);
	sc_buf_reset(&out);
	assert_int_equal(sc_masker_feed(m, "log line\n", 9, &out), 0);
	assert_int_equal(out.len, 0);  /* held: shorter than the longest form */
	assert_int_equal(sc_masker_idle(m, &out), 0);
	assert_string_equal(out.data, "log line\n");
	assert_int_equal(sc_masker_feed(m, "more qwert", 10, &out), 0);
	assert_int_equal(sc_masker_held(m), 10);  /* fed after the idle */
	assert_int_equal(sc_masker_idle(m, &out), 0);
	assert_string_equal(out.data, "log line\nmore ");
	assert_int_equal(sc_masker_held(m), 5);
	assert_int_equal(sc_masker_feed(m, "yuiop-secret", 12, &out), 0);
	/* Idle: a completed secret is replaced at once, live. */
	assert_int_equal(sc_masker_idle(m, &out), 0);
	assert_string_equal(out.data, "log line\nmore [redacted:S]");
	assert_int_equal(sc_masker_feed(m, ".", 1, &out), 0);
	assert_int_equal(sc_masker_finish(m, &out), 0);
	assert_string_equal(out.data, "log line\nmore [redacted:S].");
	sc_buf_release(&out);
	sc_masker_free(m);
	sc_mask_set_free(set);
	sc_secrets_release(&s);
}

struct corpus {
	struct sc_buf text;
	struct sc_buf probes;  /* NUL-free strings that must not survive */
	size_t *probe_off, *probe_len, nr_probes, alloc;
};

static void add_probe(struct corpus *c, const char *p, size_t len)
{
	if (len < 4)
		return;
	if (c->nr_probes == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 64;
		c->probe_off = realloc(c->probe_off, c->alloc * sizeof(size_t));
		c->probe_len = realloc(c->probe_len, c->alloc * sizeof(size_t));
	}
	c->probe_off[c->nr_probes] = c->probes.len;
	c->probe_len[c->nr_probes++] = len;
	sc_buf_add(&c->probes, p, len);
}

/*
 * Embed SECRET in the text in form F, with a random 0-2 byte prefix and a
 * random suffix for base64 (so the offset and the padding vary), and
 * record what must not survive: for base64, the characters of the real
 * encoding that only the secret's bits decide.
 */
static void embed(struct corpus *c, const struct sc_buf *secret, int f)
{
	struct sc_buf e = SC_BUF_INIT, raw = SC_BUF_INIT;
	size_t k = rnd_below(3), x = rnd_below(3), i;
	const char *v = secret->data;
	size_t n = secret->len;

	switch (f) {
	case 0: sc_buf_add(&e, v, n); break;
	case 1: sc_hex_encode(&e, v, n, 0); break;
	case 2: sc_hex_encode(&e, v, n, 1); break;
	case 3: sc_percent_encode(&e, v, n, 0); break;
	case 4: sc_percent_encode(&e, v, n, SC_PCT_UPPER); break;
	case 5: sc_json_escape(&e, v, n, 0); break;
	case 6: sc_json_escape(&e, v, n, SC_JSON_ASCII); break;
	default: {
		/* base64 of prefix + secret + suffix (e.g. "\n"), any flags */
		int flags = (int)rnd_below(4);
		size_t first, last;

		for (i = 0; i < k; i++)
			sc_buf_addch(&raw, "ab\n"[rnd_below(3)]);
		sc_buf_add(&raw, v, n);
		for (i = 0; i < x; i++)
			sc_buf_addch(&raw, '\n');
		sc_base64_encode(&e, raw.data, raw.len, flags);
		first = (8 * k + 5) / 6;
		last = (8 * (k + n)) / 6;
		sc_buf_add(&c->text, e.data, e.len);
		add_probe(c, e.data + first, last - first);
		sc_buf_release(&e);
		sc_buf_release(&raw);
		return;
	}
	}
	sc_buf_add(&c->text, e.data, e.len);
	add_probe(c, e.data, e.len);
	sc_buf_release(&e);
}

static void check_no_probe(const struct corpus *c, const struct sc_buf *out)
{
	size_t i;

	for (i = 0; i < c->nr_probes; i++)
		if (contains(out, c->probes.data + c->probe_off[i],
			     c->probe_len[i]))
			fail_msg("probe %zu (length %zu) survived", i,
				 c->probe_len[i]);
}

/* Many random secrets (some inside others, some overlapping), every form. */
static void test_leak_corpus(void **state)
{
	struct corpus c = { SC_BUF_INIT, SC_BUF_INIT, NULL, NULL, 0, 0 };
	struct sc_secrets s;
	struct sc_buf sec = SC_BUF_INIT, once = SC_BUF_INIT, out = SC_BUF_INIT;
	struct sc_mask_set *set;
	struct sc_masker *m;
	size_t i, round;

	(void)state;
	for (round = 0; round < 8; round++) {
		sc_secrets_init(&s);
		c.text.len = c.probes.len = c.nr_probes = 0;
		for (i = 0; i < 40; i++) {
			char name[16];

			snprintf(name, sizeof(name), "S%zu", i);
			gen_secret(&sec, 8 + rnd_below(40));
			if (i % 5 == 1) {
				/* this one holds the previous one inside */
				const struct sc_buf *prev = &s.v[s.nr - 1].value;
				struct sc_buf both = SC_BUF_INIT;

				sc_buf_add(&both, "k-", 2);
				sc_buf_add(&both, prev->data, prev->len);
				sc_buf_add(&both, sec.data, sec.len);
				sc_buf_reset(&sec);
				sc_buf_add(&sec, both.data, both.len);
				sc_buf_release(&both);
			} else if (i % 5 == 2) {
				/* this one begins with the previous one's tail */
				const struct sc_buf *prev = &s.v[s.nr - 1].value;
				size_t tail = prev->len / 2;
				struct sc_buf both = SC_BUF_INIT;

				sc_buf_add(&both, prev->data + prev->len - tail,
					   tail);
				sc_buf_add(&both, sec.data, sec.len);
				sc_buf_reset(&sec);
				sc_buf_add(&sec, both.data, both.len);
				sc_buf_release(&both);
			}
			sc_secrets_add(&s, name, sec.data, sec.len);
		}
		for (i = 0; i < 400; i++) {
			gen_filler(&c.text, rnd_below(12));
			embed(&c, &s.v[rnd_below(s.nr)].value, (int)rnd_below(9));
		}
		/* Overlapping secrets written overlapped. */
		for (i = 0; i + 1 < s.nr; i++) {
			if (i % 5 != 1)
				continue;
			sc_buf_add(&c.text, s.v[i].value.data, s.v[i].value.len);
			add_probe(&c, s.v[i].value.data, s.v[i].value.len);
			sc_buf_add(&c.text, s.v[i + 1].value.data +
				   s.v[i].value.len / 2,
				   s.v[i + 1].value.len - s.v[i].value.len / 2);
			add_probe(&c, s.v[i + 1].value.data, s.v[i + 1].value.len);
		}
		set = build(&s);
		m = sc_masker_new(set);
		assert_int_equal(sc_masker_mask(m, c.text.data, c.text.len,
						&once), 0);
		check_no_probe(&c, &once);
		/* The same output whatever the reads: byte by byte, random. */
		mask_cut(m, c.text.data, c.text.len, 1, 0, &out);
		assert_int_equal(out.len, once.len);
		assert_memory_equal(out.data, once.data, once.len);
		/*
		 * With idle pauses, a marker can be written before a match
		 * touching it is seen: the same output up to marker runs.
		 */
		mask_cut(m, c.text.data, c.text.len, round & 1, 1, &out);
		check_no_probe(&c, &out);
		same_up_to_markers(&out, &once);
		mask_cut(m, c.text.data, c.text.len, 0, 1, &out);
		check_no_probe(&c, &out);
		same_up_to_markers(&out, &once);
		sc_buf_reset(&once);
		sc_masker_free(m);
		sc_mask_set_free(set);
		sc_secrets_release(&s);
	}
	sc_buf_release(&c.text);
	sc_buf_release(&c.probes);
	free(c.probe_off);
	free(c.probe_len);
	sc_buf_release(&sec);
	sc_buf_release(&once);
	sc_buf_release(&out);
}

/* Every split point between two reads, for every form, with idle between. */
static void test_every_split_point(void **state)
{
	struct corpus c = { SC_BUF_INIT, SC_BUF_INIT, NULL, NULL, 0, 0 };
	struct sc_secrets s;
	struct sc_buf sec = SC_BUF_INIT, out = SC_BUF_INIT, once = SC_BUF_INIT;
	struct sc_mask_set *set;
	struct sc_masker *m;
	size_t cut, longest;
	int f;

	(void)state;
	sc_secrets_init(&s);
	gen_secret(&sec, 29);
	sc_secrets_add(&s, "SPLIT", sec.data, sec.len);
	set = build(&s);
	m = sc_masker_new(set);
	longest = sc_mask_set_longest(set);
	for (f = 0; f < 12; f++) {
		c.text.len = c.probes.len = c.nr_probes = 0;
		sc_buf_adds(&c.text, "pre ");
		embed(&c, &sec, f);
		sc_buf_adds(&c.text, " post");
		sc_buf_reset(&once);
		for (cut = 0; cut <= c.text.len; cut++) {
			sc_buf_reset(&out);
			assert_int_equal(sc_masker_feed(m, c.text.data, cut, &out), 0);
			/* Held back: at most (longest form - 1) bytes. */
			assert_true(sc_masker_held(m) <= longest - 1);
			assert_int_equal(sc_masker_idle(m, &out), 0);
			check_no_probe(&c, &out);
			assert_int_equal(sc_masker_feed(m, c.text.data + cut,
							c.text.len - cut, &out), 0);
			assert_int_equal(sc_masker_finish(m, &out), 0);
			check_no_probe(&c, &out);
			assert_non_null(memmem(out.data, out.len,
					       "[redacted:SPLIT]", 16));
			if (!cut)
				sc_buf_add(&once, out.data, out.len);
			/* The same output wherever the cut is. */
			assert_int_equal(out.len, once.len);
			assert_memory_equal(out.data, once.data, once.len);
		}
	}
	sc_masker_free(m);
	sc_mask_set_free(set);
	sc_secrets_release(&s);
	sc_buf_release(&c.text);
	sc_buf_release(&c.probes);
	free(c.probe_off);
	free(c.probe_len);
	sc_buf_release(&sec);
	sc_buf_release(&out);
	sc_buf_release(&once);
}

/* The prefix search agrees with a brute-force one over the same forms. */
static void test_begins_form(void **state)
{
	struct sc_secrets s;
	struct sc_mask_set *set;
	struct sc_buf v = SC_BUF_INIT, f = SC_BUF_INIT;
	static const char *const vals[] = {
		"abcdefgh-1", "abcdefgh-12", "abcdxxxx-3", "zzzzzzzzzz",
	};
	size_t i, round;

	(void)state;
	sc_secrets_init(&s);
	for (i = 0; i < 4; i++)
		sc_secrets_add(&s, "V", vals[i], strlen(vals[i]));
	set = build(&s);
	for (round = 0; round < 20000; round++) {
		size_t n = 1 + rnd_below(12), k;
		int want = 0;

		/* Mostly a piece of a raw value, sometimes random. */
		sc_buf_reset(&v);
		if (rnd_below(4)) {
			const char *src = vals[rnd_below(4)];

			sc_buf_add(&v, src, n < strlen(src) ? n : strlen(src));
		} else {
			for (k = 0; k < n; k++)
				sc_buf_addch(&v, "abcdxz-12"[rnd_below(9)]);
		}
		/* Brute force over the raw values and their hex, both cases. */
		for (i = 0; i < 4 && !want; i++) {
			const char *src = vals[i];
			int form;

			for (form = 0; form < 3 && !want; form++) {
				sc_buf_reset(&f);
				if (form == 0)
					sc_buf_adds(&f, src);
				else
					sc_hex_encode(&f, src, strlen(src), form - 1);
				want = f.len > v.len && !memcmp(f.data, v.data, v.len);
			}
		}
		/* The set has more forms (base64...): only check "yes" answers. */
		if (want)
			assert_true(sc_mask_set_begins_form(set, v.data, v.len));
	}
	assert_false(sc_mask_set_begins_form(set, "abcdefgh-12", 11));
	assert_true(sc_mask_set_begins_form(set, "abcdefgh-1", 10));
	assert_false(sc_mask_set_begins_form(set, "abcq", 4));
	sc_buf_release(&v);
	sc_buf_release(&f);
	sc_mask_set_free(set);
	sc_secrets_release(&s);
}

/* Each line of a multi-line value is masked on its own. */
static void test_multiline_lines(void **state)
{
	struct sc_secrets s;
	struct sc_mask_set *set;
	struct sc_masker *m;
	struct sc_buf out = SC_BUF_INIT;
	const char *key = "-----BEGIN TEST KEY-----\r\nQUJDREVGR0hJSktMTU5P\r\n"
			  "UFFSU1RVVldYWVo=\r\n-----END TEST KEY-----\r\n";
	const char *in = "line: UFFSU1RVVldYWVo= and QUJDREVGR0hJSktMTU5P.";

	(void)state;
	sc_secrets_init(&s);
	sc_secrets_add(&s, "KEY", key, strlen(key));
	set = build(&s);
	m = sc_masker_new(set);
	assert_int_equal(sc_masker_mask(m, in, strlen(in), &out), 0);
	assert_string_equal(out.data, "line: [redacted:KEY] and [redacted:KEY].");
	sc_buf_reset(&out);
	assert_int_equal(sc_masker_mask(m, key, strlen(key), &out), 0);
	assert_string_equal(out.data, "[redacted:KEY]");
	sc_buf_release(&out);
	sc_masker_free(m);
	sc_mask_set_free(set);
	sc_secrets_release(&s);
}

/* The base64 window is a substring of every base64 holding the value. */
static void test_base64_window(void **state)
{
	struct sc_buf v = SC_BUF_INIT, w = SC_BUF_INIT, e = SC_BUF_INIT,
		      raw = SC_BUF_INIT;
	size_t round, k, x;

	(void)state;
	for (round = 0; round < 500; round++) {
		int flags = (int)rnd_below(4);

		gen_secret(&v, 1 + rnd_below(30) + 7);
		for (k = 0; k < 6; k++) {
			for (x = 0; x < 3; x++) {
				size_t i;

				sc_buf_reset(&raw);
				for (i = 0; i < k; i++)
					sc_buf_addch(&raw, (int)rnd());
				sc_buf_add(&raw, v.data, v.len);
				for (i = 0; i < x; i++)
					sc_buf_addch(&raw, (int)rnd());
				sc_buf_reset(&e);
				sc_base64_encode(&e, raw.data, raw.len, flags);
				sc_buf_reset(&w);
				sc_base64_window(&w, v.data, v.len, (unsigned)(k % 3),
						 flags & SC_B64_URL);
				assert_true(w.len >= (v.len * 4) / 3 - 2);
				assert_non_null(memmem(e.data, e.len, w.data, w.len));
			}
		}
	}
	sc_buf_release(&v);
	sc_buf_release(&w);
	sc_buf_release(&e);
	sc_buf_release(&raw);
}

static void test_percent_and_json(void **state)
{
	struct sc_buf b = SC_BUF_INIT;

	(void)state;
	sc_percent_encode(&b, "a b/~é", 7, SC_PCT_UPPER);
	assert_string_equal(b.data, "a%20b%2F~%C3%A9");
	sc_buf_reset(&b);
	sc_percent_encode(&b, "a b/", 4, SC_PCT_FORM);
	assert_string_equal(b.data, "a+b%2f");
	sc_buf_reset(&b);
	sc_percent_encode(&b, "a/b!'()*", 8, SC_PCT_SLASH);
	assert_string_equal(b.data, "a/b%21%27%28%29%2a");
	sc_buf_reset(&b);
	sc_percent_encode(&b, "a/b!'()*", 8, SC_PCT_JS | SC_PCT_UPPER);
	assert_string_equal(b.data, "a%2Fb!'()*");
	sc_buf_reset(&b);
	sc_json_escape(&b, "q\"\\/\n\x01<é😀", 13, 0);
	assert_string_equal(b.data, "q\\\"\\\\/\\n\\u0001<é😀");
	sc_buf_reset(&b);
	sc_json_escape(&b, "/\x1f<é😀", 9,
		       SC_JSON_SLASH | SC_JSON_ASCII | SC_JSON_HTML | SC_JSON_UPPER);
	assert_string_equal(b.data, "\\/\\u001F\\u003C\\u00E9\\uD83D\\uDE00");
	sc_buf_release(&b);
}

/*
 * Base64 of a text holding the secret anywhere (each alignment), wrapped
 * at several widths with "\n" or "\r\n" and indented or not, fed in two
 * reads cut anywhere with an idle between: once unwrapped and decoded,
 * the output never holds the secret, and it is the same wherever the cut.
 */
static void wrap_text(struct sc_buf *out, const struct sc_buf *b64,
		      size_t width, const char *eol)
{
	size_t at;

	sc_buf_reset(out);
	for (at = 0; at < b64->len; at += width) {
		size_t n = b64->len - at < width ? b64->len - at : width;

		sc_buf_add(out, b64->data + at, n);
		sc_buf_adds(out, eol);
	}
}

/* Append the 3 bytes of the base64 quad Q; -1 when Q is not 4 digits. */
static int decode_quad(const char *q, struct sc_buf *dec)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned long v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		const char *d = q[i] ? strchr(digits, q[i]) : NULL;

		if (!d)
			return -1;
		v = v << 6 | (unsigned long)(d - digits);
	}
	sc_buf_addch(dec, (char)(v >> 16));
	sc_buf_addch(dec, (char)(v >> 8 & 255));
	sc_buf_addch(dec, (char)(v & 255));
	return 0;
}

static int decodes_to(const struct sc_buf *out, const struct sc_buf *sec)
{
	struct sc_buf flat = SC_BUF_INIT, dec = SC_BUF_INIT;
	size_t i, k;
	int found = 0;

	/* Markers become '*' (not base64): pieces decode on their own. */
	for (i = 0; i < out->len; i++) {
		if (out->data[i] == '\r' || out->data[i] == '\n' ||
		    out->data[i] == ' ')
			continue;
		sc_buf_addch(&flat, out->data[i]);
	}
	for (k = 0; k < 4 && !found; k++) {
		for (i = k; i + 4 <= flat.len && !found; i += 4) {
			size_t j;

			sc_buf_reset(&dec);
			for (j = i; j + 4 <= flat.len &&
			     decode_quad(flat.data + j, &dec) == 0; j += 4)
				;
			found = contains(&dec, sec->data, sec->len);
			i = j;
		}
	}
	sc_buf_release(&flat);
	sc_buf_release(&dec);
	return found;
}

static void test_wrapped_base64(void **state)
{
	static const size_t widths[] = { 1, 7, 64, 76 };
	static const char *const eols[] = { "\n", "\r\n", "\n    " };
	struct sc_secrets s;
	struct sc_buf sec = SC_BUF_INIT, text = SC_BUF_INIT, b64 = SC_BUF_INIT,
		      in = SC_BUF_INIT, out = SC_BUF_INIT, once = SC_BUF_INIT;
	struct sc_mask_set *set;
	struct sc_masker *m;
	size_t w, e, k, cut;

	(void)state;
	sc_secrets_init(&s);
	gen_secret(&sec, 24);
	sc_secrets_add(&s, "WRAPPED", sec.data, sec.len);
	set = build(&s);
	m = sc_masker_new(set);
	for (k = 0; k < 3; k++) {
		sc_buf_reset(&text);
		gen_filler(&text, 40 + k);
		sc_buf_add(&text, sec.data, sec.len);
		gen_filler(&text, 30);
		sc_base64_encode(&b64, text.data, text.len, 0);
		for (w = 0; w < sizeof(widths) / sizeof(*widths); w++) {
			for (e = 0; e < sizeof(eols) / sizeof(*eols); e++) {
				wrap_text(&in, &b64, widths[w], eols[e]);
				sc_buf_reset(&once);
				for (cut = 0; cut <= in.len; cut += 1 + cut / 3) {
					sc_buf_reset(&out);
					assert_int_equal(sc_masker_feed(m, in.data, cut, &out), 0);
					assert_int_equal(sc_masker_idle(m, &out), 0);
					assert_int_equal(sc_masker_feed(m, in.data + cut,
									in.len - cut, &out), 0);
					assert_int_equal(sc_masker_finish(m, &out), 0);
					if (decodes_to(&out, &sec))
						fail_msg("leak: width %zu eol %zu align %zu cut %zu",
							 widths[w], e, k, cut);
					assert_non_null(memmem(out.data, out.len,
							       "[redacted:WRAPPED]", 18));
					if (!cut)
						sc_buf_add(&once, out.data, out.len);
					assert_int_equal(out.len, once.len);
					assert_memory_equal(out.data, once.data, once.len);
				}
				/* Without the masker, the check finds the secret. */
				assert_true(decodes_to(&in, &sec));
			}
		}
	}
	sc_masker_free(m);
	sc_mask_set_free(set);
	sc_secrets_release(&s);
	sc_buf_release(&sec);
	sc_buf_release(&text);
	sc_buf_release(&b64);
	sc_buf_release(&in);
	sc_buf_release(&out);
	sc_buf_release(&once);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_replacement),
		cmocka_unit_test(test_nested_and_overlapping),
		cmocka_unit_test(test_weak_values_not_masked),
		cmocka_unit_test(test_nul_bytes_pass),
		cmocka_unit_test(test_idle_releases),
		cmocka_unit_test(test_leading_nul_secret),
		cmocka_unit_test(test_leak_corpus),
		cmocka_unit_test(test_every_split_point),
		cmocka_unit_test(test_multiline_lines),
		cmocka_unit_test(test_begins_form),
		cmocka_unit_test(test_base64_window),
		cmocka_unit_test(test_percent_and_json),
		cmocka_unit_test(test_wrapped_base64),
	};

	return SC_RUN_TESTS(tests);
}
