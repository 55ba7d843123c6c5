#include "../lib/tap.h"

#include <string.h>

#include "mutation.h"

static int summary(const char *text, struct sc_mutation_score *s)
{
	const char *why = NULL;

	return sc_mutation_parse_summary(text, strlen(text), s, &why);
}

static int report(const char *text, struct sc_mutation_score *s)
{
	const char *why = NULL;
	int ret = sc_mutation_parse_report(text, strlen(text), s, &why);

	if (ret)
		assert_non_null(why);
	return ret;
}

static void test_summary(void **state)
{
	static const char *const bad[] = {
		"", "mutation score:", "mutation score: 3", "mutation score: 3/",
		"mutation score: 5/4", "mutation score: -1/4",
		"mutation score: 03/4", "mutation score: 3/4x",
		"the mutation score: 3/4", "mutation score: 3 / 4",
		"mutation score: 99999999999999999999/99999999999999999999",
	};
	struct sc_mutation_score s;
	size_t i;

	(void)state;
	assert_int_equal(summary("mutation score: 3/4\n", &s), 0);
	assert_true(s.killed == 3 && s.total == 4);
	/* The last line wins; blanks and a note after the numbers pass. */
	assert_int_equal(summary("mutation score: 1/4\n  Mutation Score: 7/9 (77%)\r\nbye\n", &s), 0);
	assert_true(s.killed == 7 && s.total == 9);
	/* A bad line later does not undo an earlier good one. */
	assert_int_equal(summary("mutation score: 2/2\nmutation score: 9/2\n", &s), 0);
	assert_true(s.killed == 2 && s.total == 2);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(summary(bad[i], &s), -1);
	/* A NUL inside the text ends nothing early. */
	assert_int_equal(sc_mutation_parse_summary("x\0y\nmutation score: 1/1", 23, &s,
						   &(const char *){ NULL }), 0);
}

static void test_report(void **state)
{
	struct sc_mutation_score s;

	(void)state;
	assert_int_equal(report("{\"killed\":2,\"total\":3}", &s), 0);
	assert_true(s.killed == 2 && s.total == 3);
	assert_int_equal(report("{\"total_mutants\":10,\"caught\":5,\"timeout\":1,"
				"\"missed\":2,\"unviable\":2}", &s), 0);
	assert_true(s.killed == 6 && s.total == 8);
	assert_int_equal(report("{\"files\":{\"a.js\":{\"mutants\":[{\"status\":\"Killed\"},"
				"{\"status\":\"Timeout\"},{\"status\":\"Survived\"},"
				"{\"status\":\"NoCoverage\"},{\"status\":\"CompileError\"}]}}}", &s), 0);
	assert_true(s.killed == 2 && s.total == 4);
	assert_int_equal(report("{\"killed\":4,\"total\":3}", &s), -1);
	assert_int_equal(report("{\"killed\":-1,\"total\":3}", &s), -1);
	assert_int_equal(report("{\"killed\":1.5,\"total\":3}", &s), -1);
	assert_int_equal(report("{\"killed\":1}", &s), -1);
	assert_int_equal(report("{\"killed\":1,\"killed\":1,\"total\":1}", &s), -1);
	assert_int_equal(report("[1,2]", &s), -1);
	assert_int_equal(report("not json", &s), -1);
	assert_int_equal(report("{}", &s), -1);
	assert_int_equal(report("{\"total_mutants\":1,\"caught\":\"1\",\"timeout\":0,\"missed\":0}", &s), -1);
	assert_int_equal(report("{\"files\":{\"a\":{\"mutants\":[{\"status\":\"Maybe\"}]}}}", &s), -1);
	assert_int_equal(report("{\"files\":{\"a\":{}}}", &s), -1);
}

static void test_meets(void **state)
{
	struct sc_mutation_score s = { 8, 10 };

	(void)state;
	assert_true(sc_mutation_meets(&s, 80));
	assert_false(sc_mutation_meets(&s, 81));
	assert_true(sc_mutation_meets(&s, 0));
	s.killed = s.total = 0;
	assert_true(sc_mutation_meets(&s, 0));
	assert_false(sc_mutation_meets(&s, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_meets),
	};

	return SC_RUN_TESTS(tests);
}
