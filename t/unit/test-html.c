#include "../lib/tap.h"

#include <string.h>

#include "buf.h"
#include "html.h"
#include "report.h"

static void expect(const char *in, size_t len, const char *want)
{
	struct sc_buf b = SC_BUF_INIT;

	sc_html_text(&b, in, len);
	assert_string_equal(b.data ? b.data : "", want);
	sc_buf_release(&b);
}

#define EXPECT(in, want) expect(in, sizeof(in) - 1, want)
#define CTL(x) "<span class=\"ctl\">" x "</span>"

static void test_markup_becomes_text(void **state)
{
	(void)state;
	EXPECT("<script>alert('x')</script>",
	       "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
	EXPECT("a\"b&c", "a&quot;b&amp;c");
	EXPECT("&lt;", "&amp;lt;");
	EXPECT("", "");
	EXPECT("caf\xc3\xa9 \xf0\x9f\x99\x82", "caf\xc3\xa9 \xf0\x9f\x99\x82");
}

static void test_controls_shown(void **state)
{
	(void)state;
	EXPECT("a\nb\tc", "a\nb\tc");
	EXPECT("a\0b", "a" CTL("\\x00") "b");
	EXPECT("\x1b[31m", CTL("\\x1B") "[31m");
	EXPECT("\r\x7f", CTL("\\x0D") CTL("\\x7F"));
	/* C1 as UTF-8 and as a raw byte */
	EXPECT("\xc2\x9b" "2J", CTL("\\x9B") "2J");
	EXPECT("\x9b" "2J", CTL("\\x9B") "2J");
}

static void test_bidi_and_invalid(void **state)
{
	(void)state;
	EXPECT("a\xe2\x80\xae" "b", "a" CTL("\\u{202E}") "b");
	EXPECT("\xef\xbb\xbf", CTL("\\u{FEFF}"));
	EXPECT("\xc0\xbc", CTL("\\xC0") CTL("\\xBC"));       /* overlong '<' */
	EXPECT("\xed\xa0\x80", CTL("\\xED") CTL("\\xA0") CTL("\\x80"));
	EXPECT("\xe2\x82", CTL("\\xE2") CTL("\\x82"));       /* cut short */
}

static void test_report_of_a_cut_journal_says_so(void **state)
{
	static const char j[] = "type=run\0feature=<b>x</b>\0\0type=call\0id=1";
	struct sc_buf page = SC_BUF_INIT;

	(void)state;
	assert_int_equal(sc_report_html_mem(j, sizeof(j) - 1, &page), 1);
	assert_non_null(strstr(page.data, "&lt;b&gt;x&lt;/b&gt;"));
	assert_null(strstr(page.data, "<b>x</b>"));
	assert_non_null(strstr(page.data, "the journal is cut or malformed at byte"));
	assert_non_null(strstr(page.data, "</html>\n"));
	sc_buf_release(&page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markup_becomes_text),
		cmocka_unit_test(test_controls_shown),
		cmocka_unit_test(test_bidi_and_invalid),
		cmocka_unit_test(test_report_of_a_cut_journal_says_so),
	};

	return SC_RUN_TESTS(tests);
}
