#include "../lib/tap.h"

#include <stdint.h>
#include <string.h>

#include "bytes.h"

/* Lengths and numbers are big-endian; nothing reads past the end. */
static void test_vec_and_uint(void **state)
{
	static const unsigned char wire[] = { 0, 0, 0, 3, 'a', 'b', 'c',
					      0x01, 0x02, 0x03 };
	struct sc_bytes b = { wire, sizeof(wire) }, s;
	size_t v;

	(void)state;
	assert_int_equal(sc_bytes_vec(&b, 4, &s), 0);
	assert_int_equal(s.len, 3);
	assert_memory_equal(s.p, "abc", 3);
	assert_int_equal(sc_bytes_uint(&b, 3, &v), 0);
	assert_int_equal(v, 0x010203);
	assert_int_equal(b.len, 0);
	assert_int_equal(sc_bytes_take(&b, 0, NULL), 0);
	assert_int_equal(sc_bytes_take(&b, 1, NULL), -1);
}

/* A length larger than what is left is refused and consumes nothing. */
static void test_short_input_refused(void **state)
{
	static const unsigned char wire[] = { 0, 5, 'a', 'b' };
	struct sc_bytes b = { wire, sizeof(wire) }, s;
	size_t v;

	(void)state;
	assert_int_equal(sc_bytes_vec(&b, 2, &s), -1);
	b = (struct sc_bytes){ wire, sizeof(wire) };
	assert_int_equal(sc_bytes_uint(&b, sizeof(size_t) + 1, &v), -1);
	assert_int_equal(b.len, sizeof(wire));
	b = (struct sc_bytes){ wire, 1 };
	assert_int_equal(sc_bytes_uint(&b, 2, &v), -1);
	assert_int_equal(b.len, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vec_and_uint),
		cmocka_unit_test(test_short_input_refused),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
