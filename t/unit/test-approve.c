#include "../lib/tap.h"

#include <string.h>

#include "approve.h"

static enum sc_answer parse(const char *line, struct sc_strlist *hosts)
{
	return sc_answer_parse(line, hosts, NULL);
}

static void test_plain_answers(void **state)
{
	struct sc_strlist h = { NULL, 0, 0 };

	(void)state;
	assert_int_equal(parse("o", &h), SC_ANSWER_ONCE);
	assert_int_equal(parse("once", &h), SC_ANSWER_ONCE);
	assert_int_equal(parse("r", &h), SC_ANSWER_RUN);
	assert_int_equal(parse("run", NULL), SC_ANSWER_RUN);
	assert_int_equal(parse("s", &h), SC_ANSWER_STOP);
	assert_int_equal(parse("n", &h), SC_ANSWER_NO);
	/* anything else is no: never a yes by accident */
	assert_int_equal(parse("", &h), SC_ANSWER_NO);
	assert_int_equal(parse("yes", &h), SC_ANSWER_NO);
	assert_int_equal(parse(" o", &h), SC_ANSWER_NO);
	assert_int_equal(parse("hello", &h), SC_ANSWER_NO);
	assert_int_equal(parse("stop now", &h), SC_ANSWER_NO);
	assert_int_equal(parse("s example.com", &h), SC_ANSWER_NO);
	assert_int_equal(parse("no example.com", &h), SC_ANSWER_NO);
	assert_int_equal(h.nr, 0);
}

static void test_hosts_answers(void **state)
{
	struct sc_strlist h = { NULL, 0, 0 };
	const char *why = NULL;

	(void)state;
	assert_int_equal(sc_answer_parse("h registry.npmjs.org", &h, &why),
			 SC_ANSWER_ONCE);
	assert_null(why);
	assert_int_equal(h.nr, 1);
	assert_string_equal(h.v[0], "registry.npmjs.org");
	sc_strlist_release(&h);
	/* hosts after once, or for the run */
	assert_int_equal(parse("o a.example.com", &h), SC_ANSWER_ONCE);
	assert_int_equal(parse("once b.example.com", &h), SC_ANSWER_ONCE);
	assert_int_equal(h.nr, 2);
	sc_strlist_release(&h);
	assert_int_equal(parse("r registry.npmjs.org", &h), SC_ANSWER_RUN);
	assert_int_equal(parse("run example.org:8443", &h), SC_ANSWER_RUN);
	assert_int_equal(h.nr, 2);
	assert_string_equal(h.v[1], "example.org:8443");
	sc_strlist_release(&h);
	assert_int_equal(parse("hosts a.example.com,127.0.0.1:8080  [::1]:99", &h),
			 SC_ANSWER_ONCE);
	assert_int_equal(h.nr, 3);
	assert_string_equal(h.v[1], "127.0.0.1:8080");
	assert_string_equal(h.v[2], "[::1]:99");
	sc_strlist_release(&h);
	assert_int_equal(parse("h a1.io a2.io a3.io a4.io a5.io a6.io a7.io a8.io "
			       "a9.io a10.io a11.io a12.io a13.io a14.io a15.io "
			       "a16.io", &h), SC_ANSWER_ONCE);
	assert_int_equal(h.nr, SC_ASK_MAX_HOSTS);
	sc_strlist_release(&h);
}

static void test_hosts_refused(void **state)
{
	static const char *const bad[] = {
		"h", "h ", "h ,", "hosts", "h https://example.com",
		"h example.com/path", "h 10.0.0.0/8", "h *", "h example.com:70000",
		"h b\xc3\xbc" "cher.de", "h good.example.com bad/path",
		"h a1.io a2.io a3.io a4.io a5.io a6.io a7.io a8.io a9.io "
		"a10.io a11.io a12.io a13.io a14.io a15.io a16.io a17.io", NULL,
	};
	struct sc_strlist h = { NULL, 0, 0 };
	const char *why;
	size_t i;

	(void)state;
	for (i = 0; bad[i]; i++) {
		why = NULL;
		if (sc_answer_parse(bad[i], &h, &why) != SC_ANSWER_NO)
			fail_msg("accepted '%s'", bad[i]);
		assert_non_null(why);
		/* all or nothing: no host of a refused answer is kept */
		assert_int_equal(h.nr, 0);
	}
	/* a call the sandbox cannot give hosts: no, whatever the hosts */
	for (i = 0; i < 3; i++) {
		static const char *const some[] = { "h example.com",
			"o example.com", "r example.com" };

		why = NULL;
		assert_int_equal(sc_answer_parse(some[i], NULL, &why),
				 SC_ANSWER_NO);
		assert_non_null(why);
	}
	/* a bad list after r: no, not a grant for the run */
	assert_int_equal(parse("r example.com,https://x.org", &h), SC_ANSWER_NO);
	assert_int_equal(h.nr, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_answers),
		cmocka_unit_test(test_hosts_answers),
		cmocka_unit_test(test_hosts_refused),
	};

	return SC_RUN_TESTS(tests);
}
