#include "../lib/tap.h"

#include <string.h>

#include "buf.h"
#include "record.h"
#include "rectable.h"
#include "termtext.h"

static void check_clean(const char *in, size_t len, int flags, const char *want)
{
	struct sc_buf out = SC_BUF_INIT;

	sc_term_clean(&out, in, len, flags);
	assert_string_equal(out.data ? out.data : "", want);
	sc_buf_release(&out);
}

static void test_plain_text_and_utf8_pass(void **state)
{
	(void)state;
	check_clean("fix: the parser", 15, 0, "fix: the parser");
	/* é, €, 😀: printable UTF-8 stays as it is. */
	check_clean("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14, 0,
		    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

static void test_c0_del_and_escape_sequences(void **state)
{
	(void)state;
	check_clean("a\033[2Jb", 6, 0, "a?[2Jb");
	check_clean("t\033]0;title\007", 11, 0, "t?]0;title?");
	check_clean("x\ry\bz\x7f", 6, 0, "x?y?z?");
	check_clean("n\0l", 3, 0, "n?l");
	/* Newline and tab only when asked for. */
	check_clean("a\nb\tc", 5, 0, "a?b?c");
	check_clean("a\nb\tc", 5, SC_TERM_KEEP_NEWLINE, "a\nb?c");
	check_clean("a\nb\tc", 5, SC_TERM_KEEP_NEWLINE | SC_TERM_KEEP_TAB,
		    "a\nb\tc");
}

static void test_c1_raw_and_utf8(void **state)
{
	(void)state;
	/* CSI as a raw byte and as UTF-8 (U+009B), and U+0080, U+009F. */
	check_clean("a\x9b" "31mb", 6, 0, "a?31mb");
	check_clean("a\xc2\x9b" "31mb", 7, 0, "a?31mb");
	check_clean("\xc2\x80\xc2\x9f", 4, 0, "??");
	/* U+00A0 is the first code point past C1: kept. */
	check_clean("\xc2\xa0", 2, 0, "\xc2\xa0");
}

static void test_bidi_controls(void **state)
{
	(void)state;
	/* RLO, LRI..PDI, LRM, RLM, ALM, LRE..PDF */
	check_clean("a\xe2\x80\xae" "b", 5, 0, "a?b");
	check_clean("\xe2\x81\xa6\xe2\x81\xa9", 6, 0, "??");
	check_clean("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", 8, 0, "???");
	check_clean("\xe2\x80\xaa\xe2\x80\xac", 6, 0, "??");
	/* Neighbours of the ranges stay (U+2029, U+2070). */
	check_clean("\xe2\x80\xa9\xe2\x81\xb0", 6, 0,
		    "\xe2\x80\xa9\xe2\x81\xb0");
}

static void test_invalid_utf8_is_one_mark_a_byte(void **state)
{
	(void)state;
	/* Overlong ESC (C0 9B), a surrogate, a truncated sequence, a stray
	 * continuation byte, past U+10FFFF. */
	check_clean("\xc0\x9b", 2, 0, "??");
	check_clean("\xed\xa0\x80", 3, 0, "???");
	check_clean("ab\xe2\x82", 4, 0, "ab??");
	check_clean("\x80x", 2, 0, "?x");
	check_clean("\xf4\x90\x80\x80", 4, 0, "????");
}

static void test_fixed_cuts_whole_pieces(void **state)
{
	char dst[6];

	(void)state;
	/* "ab€" is 5 bytes: it fits.  "abc€" would need 6: the euro sign is
	 * left out whole, never cut in half. */
	assert_int_equal(sc_term_clean_fixed(dst, sizeof(dst), "ab\xe2\x82\xac", 5, 0), 5);
	assert_string_equal(dst, "ab\xe2\x82\xac");
	assert_int_equal(sc_term_clean_fixed(dst, sizeof(dst), "abc\xe2\x82\xac" "d", 7, 0), 3);
	assert_string_equal(dst, "abc");
	assert_int_equal(sc_term_clean_fixed(dst, sizeof(dst), "\033[1m", 4, 0), 4);
	assert_string_equal(dst, "?[1m");
	assert_int_equal(sc_term_clean_fixed(dst, 0, "x", 1, 0), 0);
}

static void test_stream_keeps_cut_sequences(void **state)
{
	struct sc_buf out = SC_BUF_INIT;
	size_t used;

	(void)state;
	/* A read that ends inside "€" leaves its two bytes for the next. */
	used = sc_term_clean_some(&out, "a\xe2\x82", 3, SC_TERM_MORE);
	assert_int_equal(used, 1);
	used = sc_term_clean_some(&out, "\xe2\x82\xac", 3, SC_TERM_MORE);
	assert_int_equal(used, 3);
	assert_string_equal(out.data, "a\xe2\x82\xac");
	/* A cut that can never complete is not held back. */
	used = sc_term_clean_some(&out, "\xe2x", 2, SC_TERM_MORE);
	assert_int_equal(used, 2);
	sc_buf_release(&out);
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
		cmocka_unit_test(test_plain_text_and_utf8_pass),
		cmocka_unit_test(test_c0_del_and_escape_sequences),
		cmocka_unit_test(test_c1_raw_and_utf8),
		cmocka_unit_test(test_bidi_controls),
		cmocka_unit_test(test_invalid_utf8_is_one_mark_a_byte),
		cmocka_unit_test(test_fixed_cuts_whole_pieces),
		cmocka_unit_test(test_stream_keeps_cut_sequences),
		cmocka_unit_test(test_record_row),
	};

	return SC_RUN_TESTS(tests);
}
