#ifndef SC_TEST_TAP_H
#define SC_TEST_TAP_H
/*
 * Unit tests use cmocka and print TAP for prove.  Include this instead of
 * cmocka.h and end main with SC_RUN_TESTS(tests).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#define SC_RUN_TESTS(tests) \
	(cmocka_set_message_output(CM_OUTPUT_TAP), \
	 cmocka_run_group_tests(tests, NULL, NULL))
#endif
