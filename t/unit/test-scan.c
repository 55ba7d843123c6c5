/* The --scan rule table: every rule finds its positive, not its negative. */
#include "../lib/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "scan.h"

struct seen {
	char rules[1024];
	unsigned long lines[16];
	size_t n;
};

static void note(void *ctx, const char *rule, unsigned long line)
{
	struct seen *s = ctx;

	strncat(s->rules, rule, sizeof(s->rules) - strlen(s->rules) - 2);
	strcat(s->rules, " ");
	if (s->n < 16)
		s->lines[s->n] = line;
	s->n++;
}

static int found(struct sc_scanner *sc, const char *text, const char *rule)
{
	struct seen s = { "", { 0 }, 0 };
	char want[128];

	assert_true(sc_scan_buffer(sc, text, strlen(text), note, &s) >= 0);
	snprintf(want, sizeof(want), "%s ", rule);
	return strstr(s.rules, want) != NULL;
}

static void test_rules_examples(void **state)
{
	struct sc_scanner *sc = sc_scanner_new();
	const struct sc_scan_rule *r;
	int n = 0;

	(void)state;
	assert_non_null(sc);
	for (r = sc_scan_rules; r->id; r++, n++) {
		if (!found(sc, r->positive, r->id))
			fail_msg("rule %s misses its positive example", r->id);
		if (found(sc, r->negative, r->id))
			fail_msg("rule %s finds its negative example", r->id);
	}
	assert_true(n >= 15);
	sc_scanner_free(sc);
}

static void test_lines_once_each(void **state)
{
	struct sc_scanner *sc = sc_scanner_new();
	struct seen s = { "", { 0 }, 0 };
	const char *text = "one\n"
			   "AKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLE\n"
			   "three\n"
			   "-----BEGIN RSA PRIVATE KEY-----\n";

	(void)state;
	assert_int_equal(sc_scan_buffer(sc, text, strlen(text), note, &s), 2);
	assert_string_equal(s.rules, "aws-access-key-id private-key ");
	assert_int_equal(s.lines[0], 2);
	assert_int_equal(s.lines[1], 4);
	sc_scanner_free(sc);
}

static void test_entropy(void **state)
{
	(void)state;
	assert_true(sc_scan_entropy("aaaaaaaa", 8) < 0.001);
	assert_true(sc_scan_entropy("abcdefgh", 8) > 2.999 &&
		    sc_scan_entropy("abcdefgh", 8) < 3.001);
	assert_true(sc_scan_entropy("abababab", 8) > 0.999 &&
		    sc_scan_entropy("abababab", 8) < 1.001);
}

struct found {
	char rules[8][64];
	unsigned long lines[8];
	char fps[8][17];
	int allowed[8];
	size_t n;
};

static void keep(void *ctx, const struct sc_scan_finding *f)
{
	struct found *x = ctx;

	if (x->n < 8) {
		snprintf(x->rules[x->n], sizeof(x->rules[x->n]), "%s", f->rule);
		x->lines[x->n] = f->line;
		memcpy(x->fps[x->n], f->fingerprint, 17);
		x->allowed[x->n] = f->allowed;
	}
	x->n++;
}

/*
 * A buffer larger than a window: tokens before, across and after the
 * boundaries are each found once, on the right line.
 */
static void test_windows(void **state)
{
	struct sc_scanner *sc = sc_scanner_new();
	size_t len = (size_t)40 << 20, i, at[3];
	char *buf = malloc(len);
	struct found x;
	unsigned long want[3];
	const char *tok = " 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 ";

	(void)state;
	assert_non_null(sc);
	assert_non_null(buf);
	for (i = 0; i < len; i++)
		buf[i] = i % 50 == 49 ? '\n' : 'a';
	at[0] = 1000;
	at[1] = ((size_t)16 << 20) - 20;           /* across the first window end */
	at[2] = ((size_t)16 << 20) - (20 << 10) + 5;  /* just past what it owns */
	for (i = 0; i < 3; i++)
		memcpy(buf + at[i], tok, strlen(tok));
	for (i = 0; i < 3; i++) {
		size_t k;

		want[i] = 1;
		for (k = 0; k < at[i] + 1; k++)
			want[i] += buf[k] == '\n';
	}
	memset(&x, 0, sizeof(x));
	assert_int_equal(sc_scan_buffer_ex(sc, buf, len, keep, &x), 3);
	assert_int_equal(x.n, 3);
	/* at[2] comes before at[1] in the buffer */
	assert_int_equal(x.lines[0], want[0]);
	assert_int_equal(x.lines[1], want[2]);
	assert_int_equal(x.lines[2], want[1]);
	for (i = 0; i < 3; i++) {
		assert_string_equal(x.rules[i], "github-token");
		assert_string_equal(x.fps[i], x.fps[0]);  /* the same value */
	}
	free(buf);
	sc_scanner_free(sc);
}

/* The built database and one compiled now find the same; allow works. */
static void test_compiled_and_allow(void **state)
{
	struct sc_scanner *built = sc_scanner_new(), *now = sc_scanner_compile();
	const struct sc_scan_rule *r;
	const char *ph = "token ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n";
	struct found a, b;
	long n;

	(void)state;
	assert_non_null(built);
	assert_non_null(now);
	for (r = sc_scan_rules; r->id; r++) {
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		sc_scan_buffer_ex(built, r->positive, strlen(r->positive), keep, &a);
		sc_scan_buffer_ex(now, r->positive, strlen(r->positive), keep, &b);
		assert_int_equal(a.n, b.n);
		assert_true(a.n >= 1);
		assert_memory_equal(a.fps, b.fps, sizeof(a.fps));
	}
	/* A placeholder is not a finding. */
	memset(&a, 0, sizeof(a));
	assert_int_equal(sc_scan_buffer_ex(built, ph, strlen(ph), keep, &a), 0);
	/* Allowing the first example's fingerprint allows exactly it: still
	 * reported, marked allowed, no longer counted. */
	r = &sc_scan_rules[0];
	memset(&a, 0, sizeof(a));
	n = sc_scan_buffer_ex(built, r->positive, strlen(r->positive), keep, &a);
	assert_int_equal(n, (long)a.n);
	assert_int_equal(sc_scanner_allow(built, a.fps[0]), 0);
	memset(&b, 0, sizeof(b));
	n = sc_scan_buffer_ex(built, r->positive, strlen(r->positive), keep, &b);
	assert_int_equal(n, (long)a.n - 1);
	assert_int_equal(b.n, a.n);
	assert_true(b.allowed[0]);
	assert_string_equal(b.fps[0], a.fps[0]);
	assert_int_equal(sc_scanner_allow(built, "not-a-fingerprint"), -1);
	assert_int_equal(sc_scanner_allow(built, "0123456789ABCDEF"), -1);
	sc_scanner_free(built);
	sc_scanner_free(now);
}

/* The CRC32 suffix of GitHub's and npm's tokens. */
static void test_crc32_token(void **state)
{
	static const char *const good[] = {
		"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",
		"token: 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",
		"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",
		NULL,
	};
	static const char *const bad[] = {
		"ghp_X9RfaA58z5da1rGJyOCN9rZnu3lYq82nmtg4",  /* checksum */
		"ghp_X9RfaA58z5da1rGJyOCN9rZnu3lYq92nmtg3",  /* body */
		"ghs_abcdefghijklmnopqrstuvwxyz0123zzzzzz",  /* > 2^32 */
		NULL,
	};
	static const char *const none[] = {
		"ghx_X9RfaA58z5da1rGJyOCN9rZnu3lYq82nmtg3",  /* no such prefix */
		"x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", /* inside a word */
		"ghp_X9RfaA58z5da1rGJyOCN9rZnu3",            /* too short */
		"_authToken=0a1b2c3d-1111-2222-3333-444455556666",
		"",
		NULL,
	};
	size_t i;

	(void)state;
	for (i = 0; good[i]; i++)
		assert_int_equal(sc_scan_crc32_token(good[i], strlen(good[i])), 1);
	for (i = 0; bad[i]; i++)
		assert_int_equal(sc_scan_crc32_token(bad[i], strlen(bad[i])), 0);
	for (i = 0; none[i]; i++)
		assert_int_equal(sc_scan_crc32_token(none[i], strlen(none[i])), -1);
}

/* The Bech32 checksum of age secret keys (made-up keys). */
static void test_age_key(void **state)
{
	static const char good[] = "key: AGE-SECRET-KEY-1VW5JN9ZW3PDN7JDZFXW"
				   "YURH6DQHP2X4WZ25RNGG5H7UAWW7Q233LQNVRXY";
	static const char lower[] = "age-secret-key-1vw5jn9zw3pdn7jdzfxwyurh6d"
				    "qhp2x4wz25rngg5h7uaww7q233lqnvrxy";
	static const char bad[] = "AGE-SECRET-KEY-1VW5JN9ZW3PDN7JDZFXWYURH6DQ"
				  "HP2X4WZ25RNGG5H7UAWW7Q233LQNVRXQ";
	static const char swapped[] = "AGE-SECRET-KEY-1WV5JN9ZW3PDN7JDZFXWYURH"
				      "6DQHP2X4WZ25RNGG5H7UAWW7Q233LQNVRXY";
	static const char none[] = "AGE-SECRET-KEY-2VW5JN9ZW3PDN7JDZFXWYURH6DQ"
				   "HP2X4WZ25RNGG5H7UAWW7Q233LQNVRXY";

	(void)state;
	assert_int_equal(sc_scan_age_key_valid(good, strlen(good)), 1);
	assert_int_equal(sc_scan_age_key_valid(lower, strlen(lower)), 1);
	assert_int_equal(sc_scan_age_key_valid(bad, strlen(bad)), 0);
	assert_int_equal(sc_scan_age_key_valid(swapped, strlen(swapped)), 0);
	assert_int_equal(sc_scan_age_key_valid(none, strlen(none)), -1);
	assert_int_equal(sc_scan_age_key_valid(good, 20), -1);
}

/* mask.allowFingerprint through the project's configuration reader. */
static void test_config_fingerprints(void **state)
{
	static const char good[] = "[mask]\n\tallowFingerprint = "
				   "0123456789abcdef\n[check \"t\"]\n\targv = true\n"
				   "[mask]\nallowFingerprint=fedcba9876543210\n";
	static const char *const bad[] = {
		"[mask]\n\tallowFingerprint = 0123456789ABCDEF\n",
		"[mask]\n\tallowFingerprint = 0123456789abcde\n",
		"[mask]\n\tallowFingerprint = 0123456789abcdef0\n",
		"[mask]\n\tallowFingerprint\n",
		"[mask]\n\tallowFingerprint = AKIAQWERTYUIOPASDFGH\n",
		NULL,
	};
	struct sc_config cfg;
	size_t i;

	(void)state;
	sc_config_init(&cfg);
	assert_int_equal(sc_config_load_mem(&cfg, good, sizeof(good) - 1),
			 SC_CONFIG_OK);
	assert_int_equal(cfg.allow_fps.nr, 2);
	assert_string_equal(cfg.allow_fps.v[0], "0123456789abcdef");
	assert_string_equal(cfg.allow_fps.v[1], "fedcba9876543210");
	sc_config_release(&cfg);
	for (i = 0; bad[i]; i++) {
		sc_config_init(&cfg);
		assert_int_equal(sc_config_load_mem(&cfg, bad[i], strlen(bad[i])),
				 SC_CONFIG_BAD);
		assert_int_equal(cfg.allow_fps.nr, 0);
		sc_config_release(&cfg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_examples),
		cmocka_unit_test(test_lines_once_each),
		cmocka_unit_test(test_entropy),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_compiled_and_allow),
		cmocka_unit_test(test_config_fingerprints),
		cmocka_unit_test(test_crc32_token),
		cmocka_unit_test(test_age_key),
	};

	return SC_RUN_TESTS(tests);
}
