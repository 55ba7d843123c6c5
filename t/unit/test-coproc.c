#include "../lib/tap.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coproc.h"
#include "record.h"

/*
 * sc_coproc_ask: the answer is the record of an answer type with the
 * request's id; one of those types with another id breaks the framing,
 * and a coprocess that is gone is a failure, never an answer.
 */

static const char *const text_answer[] = { "text", NULL };

static struct sc_coproc *start_sh(const char *script)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	struct sc_coproc *c = sc_coproc_start(argv);

	assert_non_null(c);
	return c;
}

static void request(struct sc_record *r, const char *id, const char *text)
{
	sc_record_init(r);
	sc_record_adds(r, "type", "text");
	sc_record_adds(r, "id", id);
	sc_record_adds(r, "text", text);
}

static void test_echo_answers_in_turn(void **state)
{
	struct sc_coproc *c = start_sh("exec cat");
	struct sc_record req, ans;

	(void)state;
	sc_record_init(&ans);
	for (int i = 0; i < 3; i++) {
		char id[16];

		snprintf(id, sizeof(id), "m-%d", i);
		request(&req, id, "hello");
		assert_int_equal(sc_coproc_ask(c, &req, text_answer, id, &ans), 0);
		assert_string_equal(sc_record_str(&ans, "id"), id);
		assert_string_equal(sc_record_str(&ans, "text"), "hello");
		sc_record_release(&req);
	}
	sc_record_release(&ans);
	assert_int_equal(sc_coproc_end(c), 0);
}

static void test_other_types_are_skipped(void **state)
{
	/* a note first, then the answer: the note is not the answer */
	struct sc_coproc *c = start_sh(
		"printf 'type=note\\0id=a\\0\\0type=verdict\\0id=a\\0\\0'; "
		"exec cat >/dev/null");
	static const char *const answers[] = { "stop", "verdict", NULL };
	struct sc_record req, ans;

	(void)state;
	request(&req, "a", "x");
	sc_record_init(&ans);
	assert_int_equal(sc_coproc_ask(c, &req, answers, "a", &ans), 1);
	assert_string_equal(sc_record_type(&ans), "verdict");
	sc_record_release(&req);
	sc_record_release(&ans);
	sc_coproc_end(c);
}

/* A coprocess running SCRIPT is asked for the answer to "m": the ask
 * fails (-1), never takes what the script wrote for an answer. */
static void assert_ask_fails(const char *script)
{
	struct sc_coproc *c = start_sh(script);
	struct sc_record req, ans;

	/* Its pipe may be gone before the request is written. */
	signal(SIGPIPE, SIG_IGN);
	request(&req, "m", "secret");
	sc_record_init(&ans);
	assert_int_equal(sc_coproc_ask(c, &req, text_answer, "m", &ans), -1);
	sc_record_release(&req);
	sc_record_release(&ans);
	sc_coproc_end(c);
}

static void test_out_of_turn_is_a_failure(void **state)
{
	(void)state;
	assert_ask_fails("printf 'type=text\\0id=other\\0text=forged\\0\\0'; "
			 "exec cat >/dev/null");
}

static void test_gone_is_a_failure(void **state)
{
	(void)state;
	/* its pipe may still take the request; no answer ever comes */
	assert_ask_fails("exit 0");
}

static void test_half_record_is_a_failure(void **state)
{
	(void)state;
	assert_ask_fails("printf 'type=text\\0id=m\\0text=cut'; exit 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_echo_answers_in_turn),
		cmocka_unit_test(test_other_types_are_skipped),
		cmocka_unit_test(test_out_of_turn_is_a_failure),
		cmocka_unit_test(test_gone_is_a_failure),
		cmocka_unit_test(test_half_record_is_a_failure),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
