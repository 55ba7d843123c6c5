#include "../lib/tap.h"

#include <stdio.h>
#include <stdlib.h>

#include "confvalue.h"
#include "diag.h"
#include "shellwords.h"

/* A command splits once, as words; a second one, or none, is refused. */
static void test_command(void **state)
{
	char **argv = NULL;
	size_t argc = 0;

	(void)state;
	assert_int_equal(sc_confvalue_command("x.command", "", &argv, &argc),
			 -1);   /* no word */
	sc_sw_split_free(argv);
	argv = NULL;
	assert_int_equal(sc_confvalue_command("x.command", "a 'b c'", &argv,
					      &argc), 0);
	assert_int_equal(argc, 2);
	assert_string_equal(argv[1], "b c");
	assert_null(argv[2]);
	assert_int_equal(sc_confvalue_command("x.command", "d", &argv, &argc),
			 -1);   /* twice */
	assert_string_equal(argv[0], "a");
	sc_sw_split_free(argv);
	argv = NULL;
	assert_int_equal(sc_confvalue_command("x.command", "'open", &argv,
					      &argc), -1);
	sc_sw_split_free(argv);
}

/* Names are kept NULL-terminated; what is not a variable name is refused. */
static void test_name(void **state)
{
	struct sc_strlist names = { 0 };

	(void)state;
	assert_int_equal(sc_confvalue_name("x.env", "A_1", &names), 0);
	assert_int_equal(sc_confvalue_name("x.env", "B", &names), 0);
	assert_int_equal(sc_confvalue_name("x.env", "1A", &names), -1);
	assert_int_equal(sc_confvalue_name("x.env", "A=B", &names), -1);
	assert_int_equal(names.nr, 2);
	assert_string_equal(names.v[0], "A_1");
	assert_string_equal(names.v[1], "B");
	assert_null(names.v[2]);
	sc_strlist_release(&names);
}

static int setup(void **state)
{
	(void)state;
	sc_diag_init("test-confvalue");
	/* the refusals print diagnostics by design; keep the TAP clean */
	return freopen("/dev/null", "w", stderr) ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_name),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, setup, NULL);
}
