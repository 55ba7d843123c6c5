#include "../lib/tap.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "buf.h"
#include "record.h"
#include "reporttext.h"
#include "usage.h"

/* Each expected text is what jq 1.6 printed for the same input. */
static void number(const char *in, const char *want)
{
	struct sc_buf b = SC_BUF_INIT;

	sc_usage_format(&b, sc_usage_number(in));
	assert_string_equal(b.data, want);
	sc_buf_release(&b);
}

static void test_numbers_read_as_jq_reads_them(void **state)
{
	(void)state;
	number("1e3", "1000");
	number(" 12 ", "12");
	number("+5", "5");
	number("-5", "-5");
	number(".5", "0.5");
	number("5.", "5");
	number("1.e5", "100000");
	number("00012", "12");
	number("\v12", "12");
	number("\f\f3", "3");
	number("\xef\xbb\xbf" "5", "5");
	number("-0", "-0");
	number("NaN", "null");
	number("-nan", "null");
	number("inf", "1.7976931348623157e+308");
	number("-Infinity", "-1.7976931348623157e+308");
	number("1e400", "1.7976931348623157e+308");
	number("1e-400", "0");
	number("2.5e-324", "5e-324");
	/* Not a number: 0, never an error. */
	number("nan", "0");
	number("0x10", "0");
	number("12\f", "0");
	number("1 2", "0");
	number("[1]", "0");
	number("\"5\"", "0");
	number("true", "0");
	number("null", "0");
	number("", "0");
	number("\t\t", "0");
	number("1e", "0");
	number("1e+", "0");
	number(".", "0");
	number(".e5", "0");
	number("infinit", "0");
	number("nan(1)", "0");
	number("NaN(abc)", "0");
	number("1_000", "0");
	number("\x1b" "12", "0");
	number("12abc", "0");
}

static void format(double d, const char *want)
{
	struct sc_buf b = SC_BUF_INIT;

	sc_usage_format(&b, d);
	assert_string_equal(b.data, want);
	sc_buf_release(&b);
}

static void test_numbers_printed_as_jq_prints_them(void **state)
{
	(void)state;
	format(1e17, "1e+17");
	format(1e16, "1e+16");
	format(1e15, "1000000000000000");
	format(123456789012345678.0, "123456789012345680");
	format(12345678901234567.0, "12345678901234568");
	format(1e-5, "1e-05");
	format(1e-4, "0.0001");
	format(0.00012345, "0.00012345");
	format(1.2345e-7, "1.2345e-07");
	format(0.1 + 0.2, "0.30000000000000004");
	format(1e100, "1e+100");
	format(5e-324, "5e-324");
	format(1.23e22, "1.23e+22");
	format(123.456, "123.456");
	format(-0.0, "-0");
	format(NAN, "null");
	format(-INFINITY, "-1.7976931348623157e+308");
	assert_true(sc_usage_floor(-0.5) == -1);
	assert_true(sc_usage_floor(2.5) == 2);
	assert_true(signbit(sc_usage_floor(-0.0)));
	assert_true(sc_usage_floor(1e300) == 1e300);
}

static void usage(struct sc_usage *u, const char *provider, const char *in,
		  const char *rd, const char *wr)
{
	struct sc_record r;

	sc_record_init(&r);
	sc_record_adds(&r, "type", "usage");
	if (provider)
		sc_record_adds(&r, "provider", provider);
	sc_record_adds(&r, "input-tokens", in);
	sc_record_adds(&r, "output-tokens", "1");
	sc_record_adds(&r, "cache-read-tokens", rd);
	sc_record_adds(&r, "cache-write-tokens", wr);
	assert_int_equal(sc_usage_add(u, &r), 1);
	sc_record_release(&r);
}

static void test_rates_per_provider(void **state)
{
	struct sc_usage u = SC_USAGE_INIT;
	struct sc_buf b = SC_BUF_INIT;

	(void)state;
	/* Anthropic: 1000 read save 900, 400 written cost 100 more. */
	usage(&u, "anthropic", "100", "1000", "400");
	/* Bedrock: the same rates. */
	usage(&u, "bedrock", "0", "100", "0");
	/* OpenAI: cached tokens are inside the input and save half. */
	usage(&u, "openai", "1000", "600", "999");
	sc_usage_text(&u, &b);
	assert_string_equal(b.data,
		"usage: 3 model turns, 1100 input tokens, 3 output tokens\n"
		"  cache: 1700 read, 1399 written; saved about 1190 input tokens"
		" (45% of 2600)\n");
	sc_buf_release(&b);
}

static void test_a_bad_field_changes_no_other_sum(void **state)
{
	struct sc_usage u = SC_USAGE_INIT;
	struct sc_record r;

	(void)state;
	sc_record_init(&r);
	sc_record_adds(&r, "type", "usage");
	sc_record_adds(&r, "input-tokens", "7");
	sc_record_adds(&r, "output-tokens", "5");
	sc_record_adds(&r, "output-tokens", "6");           /* repeated */
	sc_record_adds(&r, "cache-read-tokens", "\xff" "1"); /* not UTF-8 */
	sc_record_add(&r, "cache-write-tokens", "4\0x", 3);  /* read up to NUL */
	sc_usage_add(&u, &r);
	assert_true(u.in == 7 && u.out == 0 && u.read == 0 && u.write == 4);
	sc_record_reset(&r);
	sc_record_adds(&r, "type", "usage");
	sc_record_adds(&r, "type", "usage");   /* jq sees a list: not usage */
	assert_int_equal(sc_usage_add(&u, &r), 0);
	sc_record_reset(&r);
	sc_record_add(&r, "type", "usage\0", 6);
	assert_int_equal(sc_usage_add(&u, &r), 0);
	assert_int_equal(u.turns, 1);
	sc_record_release(&r);
}

static void test_no_usage_no_lines(void **state)
{
	struct sc_usage u = SC_USAGE_INIT;
	struct sc_buf b = SC_BUF_INIT;

	(void)state;
	sc_usage_text(&u, &b);
	assert_int_equal(b.len, 0);
	sc_buf_release(&b);
}

static void test_text_view(void **state)
{
	static const char j[] =
		"type=call\0time=T\0argv=a\0argv=b\nc\0\0"
		"type=model\0text=one\ntwo\n\0k=\xff\0\0"
		"type=x\0text=\x1b]0;t\a\xe2\x80\xae\0\0";
	struct sc_buf b = SC_BUF_INIT;

	(void)state;
	assert_int_equal(sc_report_text_mem(j, sizeof(j) - 1, &b), 0);
	assert_string_equal(b.data,
		"T  call  argv=a b?c\n"
		"-  model  k@base64=/w==\n"
		"    | one\n    | two\n    | \n"
		"-  x  \n"
		"    | ?]0;t??\n");
	sc_buf_reset(&b);
	assert_int_equal(sc_report_text_mem("type=a\0\0type", 12, &b), -1);
	assert_string_equal(b.data, "-  a  \n");
	sc_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_read_as_jq_reads_them),
		cmocka_unit_test(test_numbers_printed_as_jq_prints_them),
		cmocka_unit_test(test_rates_per_provider),
		cmocka_unit_test(test_a_bad_field_changes_no_other_sum),
		cmocka_unit_test(test_no_usage_no_lines),
		cmocka_unit_test(test_text_view),
	};

	return SC_RUN_TESTS(tests);
}
