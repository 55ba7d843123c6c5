#include "../lib/tap.h"

#include <string.h>

#include "record.h"
#include "recjson.h"

#define S(lit) lit, sizeof(lit) - 1

/* Read every record of LEN bytes at DATA; return the final status. */
static int read_all(const char *data, size_t len, struct sc_buf *reencoded,
		    size_t *count, struct sc_reader *rd_out)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record rec;
	int status;

	sc_input_init_mem(&in, data, len);
	sc_reader_init(&rd, &in);
	sc_record_init(&rec);
	*count = 0;
	while ((status = sc_reader_next(&rd, &rec)) == SC_READ_RECORD) {
		(*count)++;
		if (reencoded)
			sc_record_encode(&rec, reencoded);
	}
	sc_record_release(&rec);
	if (rd_out)
		*rd_out = rd;
	return status;
}

static void test_both_forms_and_lists(void **state)
{
	static const char in[] = "type=call\0argv=git\0argv=status\0"
				 "blob:5=a\0b\0c\0empty=\0\0";
	struct sc_input input;
	struct sc_reader rd;
	struct sc_record rec;

	(void)state;
	sc_input_init_mem(&input, in, sizeof(in) - 1);
	sc_reader_init(&rd, &input);
	sc_record_init(&rec);
	assert_int_equal(sc_reader_next(&rd, &rec), SC_READ_RECORD);
	assert_int_equal(rec.nr, 5);
	assert_string_equal(sc_record_type(&rec), "call");
	assert_string_equal(rec.fields[1].value, "git");
	assert_string_equal(rec.fields[2].value, "status");
	assert_int_equal(rec.fields[3].value_len, 5);
	assert_memory_equal(rec.fields[3].value, "a\0b\0c", 5);
	assert_null(sc_record_str(&rec, "blob"));
	assert_string_equal(sc_record_str(&rec, "empty"), "");
	assert_int_equal(sc_reader_next(&rd, &rec), SC_READ_EOF);
	sc_record_release(&rec);
}

/* A number field is its decimal text, the largest one whole. */
static void test_addu(void **state)
{
	struct sc_record r;

	(void)state;
	sc_record_init(&r);
	sc_record_addu(&r, "zero", 0);
	sc_record_addu(&r, "max", 18446744073709551615ULL);
	assert_string_equal(sc_record_str(&r, "zero"), "0");
	assert_string_equal(sc_record_str(&r, "max"), "18446744073709551615");
	sc_record_release(&r);
}

static void test_encode_round_trip(void **state)
{
	static const char in[] = "type=x\0a=1\0n:3=\0\0\0\0\0type=y\0\0";
	struct sc_buf out = SC_BUF_INIT;
	size_t count;

	(void)state;
	assert_int_equal(read_all(in, sizeof(in) - 1, &out, &count, NULL),
			 SC_READ_EOF);
	assert_int_equal(count, 2);
	assert_int_equal(out.len, sizeof(in) - 1);
	assert_memory_equal(out.data, in, out.len);
	sc_buf_release(&out);
}

static void test_wire_size_matches_encoding(void **state)
{
	struct sc_record rec;
	struct sc_buf out = SC_BUF_INIT;

	(void)state;
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "t");
	sc_record_add(&rec, "v", "\0\0\0\0\0\0\0\0\0\0", 10);
	sc_record_adds(&rec, "w", "");
	sc_record_encode(&rec, &out);
	assert_int_equal(out.len, rec.wire_size);
	sc_buf_release(&out);
	sc_record_release(&rec);
}

/* Pointers into a record stay right when its store grows. */
static void test_many_fields(void **state)
{
	struct sc_record rec;
	size_t i;
	char value[32];

	(void)state;
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "big");
	for (i = 0; i < 5000; i++) {
		snprintf(value, sizeof(value), "value-%zu", i);
		sc_record_adds(&rec, "item", value);
	}
	for (i = 0; i < 5000; i++) {
		snprintf(value, sizeof(value), "value-%zu", i);
		assert_string_equal(rec.fields[i + 1].value, value);
		assert_string_equal(rec.fields[i + 1].name, "item");
	}
	sc_record_release(&rec);
}

struct bad_case {
	const char *data;
	size_t len;
	int status;
	unsigned long offset;
	size_t good;    /* records before the fault */
};

static void test_malformed_offsets(void **state)
{
	static const struct bad_case cases[] = {
		{ S("type=a\0\0noequals\0\0"), SC_READ_MALFORMED, 16, 1 },
		{ S("type=a\0Bad=1\0\0"), SC_READ_MALFORMED, 7, 0 },
		{ S("type=a\0=1\0\0"), SC_READ_MALFORMED, 7, 0 },
		{ S("type=a\09a=1\0\0"), SC_READ_MALFORMED, 7, 0 },
		{ S("type=a\0a b=1\0\0"), SC_READ_MALFORMED, 8, 0 },
		{ S("type=a\0a=1\0"), SC_READ_MALFORMED, 11, 0 },
		{ S("type=a\0a=1"), SC_READ_MALFORMED, 10, 0 },
		{ S("type=a\0a:x=1\0\0"), SC_READ_MALFORMED, 9, 0 },
		{ S("type=a\0a:=1\0\0"), SC_READ_MALFORMED, 9, 0 },
		{ S("type=a\0a:01=1\0\0"), SC_READ_MALFORMED, 10, 0 },
		{ S("type=a\0a:3=abcd\0\0"), SC_READ_MALFORMED, 14, 0 },
		{ S("type=a\0a:3=ab"), SC_READ_MALFORMED, 13, 0 },
		{ S("type=a\0\0kind=a\0\0"), SC_READ_MALFORMED, 8, 1 },
		{ S("type=a\0\0\0"), SC_READ_MALFORMED, 8, 1 },
		{ S("type=a\0a:99999999999999999999=x\0\0"), SC_READ_TOO_LARGE, 0, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sc_reader rd;
		size_t count;
		int status = read_all(cases[i].data, cases[i].len, NULL,
				      &count, &rd);

		print_message("# case %zu\n", i);
		assert_int_equal(status, cases[i].status);
		assert_int_equal(rd.err_offset, cases[i].offset);
		assert_int_equal(count, cases[i].good);
	}
}

static void test_size_limit(void **state)
{
	static const char in[] = "type=a\0v=0123456789\0\0";
	struct sc_input input;
	struct sc_reader rd;
	struct sc_record rec;

	(void)state;
	sc_record_init(&rec);
	/* The record is 21 bytes: a limit of 21 takes it, 20 refuses it. */
	sc_input_init_mem(&input, in, sizeof(in) - 1);
	sc_reader_init(&rd, &input);
	rd.max = 21;
	assert_int_equal(sc_reader_next(&rd, &rec), SC_READ_RECORD);
	sc_input_init_mem(&input, in, sizeof(in) - 1);
	sc_reader_init(&rd, &input);
	rd.max = 20;
	assert_int_equal(sc_reader_next(&rd, &rec), SC_READ_TOO_LARGE);
	assert_int_equal(rec.nr, 0);
	/* Sticky: the reader does not resynchronise after a fault. */
	assert_int_equal(sc_reader_next(&rd, &rec), SC_READ_TOO_LARGE);
	sc_record_release(&rec);
}

static void test_json_round_trip(void **state)
{
	struct sc_record rec, back;
	struct sc_buf json = SC_BUF_INIT, a = SC_BUF_INIT, b = SC_BUF_INIT;
	struct sc_json_error err;

	(void)state;
	sc_record_init(&rec);
	sc_record_init(&back);
	sc_record_adds(&rec, "type", "t");
	sc_record_add(&rec, "nul", "a\0b", 3);
	sc_record_add(&rec, "bin", "\xff\xfe", 2);
	sc_record_adds(&rec, "bin", "plain");
	sc_record_adds(&rec, "empty", "");
	sc_record_to_json(&rec, &json);
	assert_string_equal(json.data,
			    "{\"type\":\"t\",\"nul\":\"a\\u0000b\","
			    "\"bin@base64\":[\"//4=\",\"cGxhaW4=\"],\"empty\":\"\"}");
	assert_int_equal(sc_record_from_json(json.data, json.len, &back, &err),
			 SC_JSON_OK);
	sc_record_encode(&rec, &a);
	sc_record_encode(&back, &b);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.data, b.data, a.len);
	sc_buf_release(&json);
	sc_buf_release(&a);
	sc_buf_release(&b);
	sc_record_release(&rec);
	sc_record_release(&back);
}

static void test_json_type_first(void **state)
{
	static const char in[] = "{\"a\":\"1\",\"type\":\"t\"}";
	struct sc_record rec;
	struct sc_json_error err;

	(void)state;
	sc_record_init(&rec);
	assert_int_equal(sc_record_from_json(in, sizeof(in) - 1, &rec, &err),
			 SC_JSON_OK);
	assert_string_equal(rec.fields[0].name, "type");
	assert_string_equal(rec.fields[1].name, "a");
	sc_record_release(&rec);
}

static void test_json_refusals(void **state)
{
	static const char *const bad[] = {
		"[]", "{}", "{\"a\":\"1\"}", "{\"type\":1}",
		"{\"type\":\"t\",\"a\":[\"x\",2]}", "{\"type\":\"t\",\"A\":\"x\"}",
		"{\"type\":\"t\",\"a@hex\":\"00\"}",
		"{\"type\":\"t\",\"a@base64\":\"Zg=\"}",
		"{\"type\":\"t\",\"a\":\"x\",\"a@base64\":\"Zg==\"}",
		"{\"type\":\"t\",\"a\":\"x\",\"a\":\"y\"}",
		"{\"type\":\"t\"} {}", "{\"type\":\"t\",\"a\":null}",
		"{\"type\":\"t\",\"a\":{}}", "{\"type\":[]}",
	};
	struct sc_record rec;
	size_t i;

	(void)state;
	sc_record_init(&rec);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sc_json_error err;

		print_message("# case %zu\n", i);
		assert_int_equal(sc_record_from_json(bad[i], strlen(bad[i]),
						     &rec, &err),
				 SC_JSON_MALFORMED);
		assert_int_equal(rec.nr, 0);
		assert_non_null(err.what);
	}
	sc_record_release(&rec);
}

static void test_field_names(void **state)
{
	(void)state;
	assert_true(sc_field_name_valid(S("a")));
	assert_true(sc_field_name_valid(S("input-tokens")));
	assert_true(sc_field_name_valid(S("a.b_c-9")));
	assert_false(sc_field_name_valid(S("")));
	assert_false(sc_field_name_valid(S("9a")));
	assert_false(sc_field_name_valid(S("-a")));
	assert_false(sc_field_name_valid(S("aB")));
	assert_false(sc_field_name_valid(S("a@b")));
	assert_false(sc_field_name_valid(S("a=b")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both_forms_and_lists),
		cmocka_unit_test(test_addu),
		cmocka_unit_test(test_encode_round_trip),
		cmocka_unit_test(test_wire_size_matches_encoding),
		cmocka_unit_test(test_many_fields),
		cmocka_unit_test(test_malformed_offsets),
		cmocka_unit_test(test_size_limit),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_type_first),
		cmocka_unit_test(test_json_refusals),
		cmocka_unit_test(test_field_names),
	};

	return SC_RUN_TESTS(tests);
}
