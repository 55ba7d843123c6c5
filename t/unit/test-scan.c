/* The --scan rule table: every rule finds its positive, not its negative. */
#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_examples),
		cmocka_unit_test(test_lines_once_each),
		cmocka_unit_test(test_entropy),
	};

	return SC_RUN_TESTS(tests);
}
