#include "../lib/tap.h"

#include <string.h>

#include "buf.h"
#include "diag.h"
#include "record.h"
#include "rectable.h"
#include "termtext.h"

static void expect(const char *in, size_t len, const char *want)
{
	struct sc_buf b = SC_BUF_INIT;

	sc_term_clean(&b, in, len);
	assert_string_equal(b.data, want);
	sc_buf_release(&b);
}

#define EXPECT(in, want) expect(in, sizeof(in) - 1, want)

static void test_printable_kept(void **state)
{
	(void)state;
	EXPECT("make test && git diff", "make test && git diff");
	EXPECT("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82");
	EXPECT("", "");
}

static void test_c0_and_del(void **state)
{
	(void)state;
	EXPECT("a\rb\nc\td\x7f" "e", "a?b?c?d?e");
	EXPECT("a\0b", "a?b");
	EXPECT("\x07\x08", "??");
}

static void test_c1_in_utf8_and_raw(void **state)
{
	(void)state;
	/* U+0085 NEL, U+009B CSI, U+009D OSC ... U+009C ST, as UTF-8 */
	EXPECT("a\xc2\x85" "b", "a?b");
	EXPECT("a\xc2\x9b" "2Jb", "a?2Jb");
	EXPECT("a\xc2\x9d" "0;t\xc2\x9c" "b", "a?0;t?b");
	/* raw C1 bytes, as an 8-bit terminal reads them */
	EXPECT("a\x9b" "31mb", "a?31mb");
	EXPECT("a\x85" "b", "a?b");
}

/* An escape sequence loses its introducer; nothing is hidden. */
static void test_escape_sequences(void **state)
{
	(void)state;
	EXPECT("ok\x1b[2J\x1b[1;1Hallow", "ok?[2J?[1;1Hallow");
	EXPECT("a\x1b]0;title\x07" "b", "a?]0;title?b");
	EXPECT("a\x1b]52;c;ZXZpbA==\x1b\\b", "a?]52;c;ZXZpbA==?\\b");
	EXPECT("a\x1b", "a?");
}

static void test_bidi_and_invisible(void **state)
{
	(void)state;
	EXPECT("rm \xe2\x80\xae" "fdp.exe", "rm ?fdp.exe");        /* U+202E */
	EXPECT("a\xe2\x81\xa6" "b\xe2\x81\xa9" "c", "a?b?c");    /* isolates */
	EXPECT("a\xe2\x80\x8b" "b\xef\xbb\xbf" "c", "a?b?c");    /* ZWSP, BOM */
	EXPECT("a\xe2\x80\xa8" "b", "a?b");                      /* U+2028 */
	EXPECT("a\xd8\x9c" "b", "a?b");                          /* U+061C */
}

static void test_invalid_utf8(void **state)
{
	(void)state;
	EXPECT("a\xc0\xaf" "b", "a??b");              /* overlong / */
	EXPECT("a\xed\xa0\x80" "b", "a???b");         /* a surrogate */
	EXPECT("a\xf4\x90\x80\x80" "b", "a????b");    /* past U+10FFFF */
	EXPECT("a\xe2\x82", "a??");                   /* cut short */
	EXPECT("a\xff" "b", "a?b");
}

static void test_fixed_buffer_keeps_whole_characters(void **state)
{
	char out[6];

	(void)state;
	/* "ab" + a 3-byte euro + "c": 5 fits, the euro does not after "abc" */
	assert_int_equal(sc_term_clean_into(out, sizeof(out), "ab\xe2\x82\xac" "c", 6), 5);
	assert_string_equal(out, "ab\xe2\x82\xac");
	assert_int_equal(sc_term_clean_into(out, 4, "ab\xe2\x82\xac", 5), 2);
	assert_string_equal(out, "ab");
	sc_sanitize(out, sizeof(out), "\x1bxyzzzz", 7);
	assert_string_equal(out, "?xyzz");
	assert_int_equal(sc_term_clean_into(out, 0, "x", 1), 0);
}

static void test_newline_and_tab_kept_when_asked(void **state)
{
	struct sc_buf out = SC_BUF_INIT;

	(void)state;
	sc_term_clean(&out, "a\nb\tc", 5);
	assert_string_equal(out.data, "a?b?c");
	sc_buf_reset(&out);
	sc_term_clean_keep(&out, "a\nb\tc\r", 6, SC_TERM_KEEP_NEWLINE);
	assert_string_equal(out.data, "a\nb?c?");
	sc_buf_reset(&out);
	sc_term_clean_keep(&out, "a\nb\tc", 5,
			   SC_TERM_KEEP_NEWLINE | SC_TERM_KEEP_TAB);
	assert_string_equal(out.data, "a\nb\tc");
	sc_buf_release(&out);
}

static void test_partial_character_at_the_end(void **state)
{
	(void)state;
	assert_int_equal(sc_term_partial("a\xe2\x82", 3), 2);
	assert_int_equal(sc_term_partial("a\xe2\x82\xac", 4), 0);
	assert_int_equal(sc_term_partial("a\xf0", 2), 1);
	assert_int_equal(sc_term_partial("a\x82", 2), 0);
}

static void test_record_row(void **state)
{
	struct sc_record r;
	struct sc_buf out = SC_BUF_INIT;

	(void)state;
	sc_record_init(&r);
	sc_record_adds(&r, "type", "finding");
	sc_record_adds(&r, "file", "a b");
	sc_record_adds(&r, "rule", "aws");
	sc_record_add(&r, "text", "x\n\"y\"\\\033", 7);
	sc_record_adds(&r, "empty", "");
	sc_record_show(&r, &out);
	assert_string_equal(out.data, "finding    file=\"a b\" rule=aws "
			    "text=\"x\\n\\\"y\\\"\\\\?\" empty=\"\"\n");
	sc_record_release(&r);
	sc_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_printable_kept),
		cmocka_unit_test(test_c0_and_del),
		cmocka_unit_test(test_c1_in_utf8_and_raw),
		cmocka_unit_test(test_escape_sequences),
		cmocka_unit_test(test_bidi_and_invisible),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_fixed_buffer_keeps_whole_characters),
		cmocka_unit_test(test_newline_and_tab_kept_when_asked),
		cmocka_unit_test(test_partial_character_at_the_end),
		cmocka_unit_test(test_record_row),
	};

	return SC_RUN_TESTS(tests);
}
