/*
 * The HTML escaper and the report page on arbitrary bytes: no crash, and
 * what they write is text, never markup from the input.
 *
 *   - sc_html_text: the output is valid UTF-8, holds no control byte but
 *     newline and tab, no quote, and no '<' or '>' other than those of its
 *     own <span class="ctl"> ... </span>;
 *   - sc_report_html_mem, the input read as a journal: the page holds no
 *     <script, no control byte but newline and tab, and ends the document;
 *   - sc_report_text_mem, the same journal as text for a terminal: valid
 *     UTF-8 with no control but newline, no C1, no bidi or invisible
 *     character (termtext.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "html.h"
#include "report.h"
#include "reporttext.h"
#include "termtext.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void no_controls(const struct sc_buf *b)
{
	size_t i;

	for (i = 0; i < b->len; i++) {
		unsigned char c = (unsigned char)b->data[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
			abort();
	}
}

/* Valid UTF-8, with no C1 control (U+0080-U+009F). */
static void valid_utf8(const struct sc_buf *b)
{
	const unsigned char *p = (const unsigned char *)b->data;
	size_t i = 0, n, k;

	while (i < b->len) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		n = p[i] >= 0xF0 ? 4 : p[i] >= 0xE0 ? 3 : p[i] >= 0xC2 ? 2 : 0;
		if (!n || p[i] > 0xF4 || i + n > b->len)
			abort();
		for (k = 1; k < n; k++)
			if ((p[i + k] & 0xC0) != 0x80)
				abort();
		if (n == 2 && p[i] == 0xC2 && p[i + 1] < 0xA0)
			abort();
		i += n;
	}
}

static void escaped_text(const struct sc_buf *b)
{
	static const char open[] = "<span class=\"ctl\">", close[] = "</span>";
	const char *p = b->data ? b->data : "", *end = p + b->len, *lt;

	no_controls(b);
	valid_utf8(b);
	while ((lt = memchr(p, '<', (size_t)(end - p)))) {
		size_t before = (size_t)(lt - p);

		if (memchr(p, '>', before) || memchr(p, '"', before) ||
		    memchr(p, '\'', before))
			abort();
		if ((size_t)(end - lt) >= sizeof(open) - 1 &&
		    !memcmp(lt, open, sizeof(open) - 1))
			p = lt + sizeof(open) - 1;
		else if ((size_t)(end - lt) >= sizeof(close) - 1 &&
			 !memcmp(lt, close, sizeof(close) - 1))
			p = lt + sizeof(close) - 1;
		else
			abort();
	}
	if (memchr(p, '>', (size_t)(end - p)) || memchr(p, '"', (size_t)(end - p)) ||
	    memchr(p, '\'', (size_t)(end - p)))
		abort();
}

/* What a terminal may be shown: printable text and newlines. */
static void terminal_text(const struct sc_buf *b)
{
	const unsigned char *p = (const unsigned char *)b->data;
	size_t i = 0, used;
	long cp;

	while (i < b->len) {
		cp = sc_utf8_next(p + i, b->len - i, &used);
		if (cp < 0 || (cp < 0x20 && cp != '\n') || cp == 0x7f ||
		    (cp >= 0x80 && cp <= 0x9f) || sc_char_invisible(cp))
			abort();
		i += used;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_buf text = SC_BUF_INIT, page = SC_BUF_INIT;
	const char *s = (const char *)data;
	size_t i;

	sc_html_text(&text, s, size);
	escaped_text(&text);
	sc_report_html_mem(s, size, &page);
	no_controls(&page);
	valid_utf8(&page);
	for (i = 0; i + 7 <= page.len; i++)
		if (!strncasecmp(page.data + i, "<script", 7))
			abort();
	if (page.len < 8 || memcmp(page.data + page.len - 8, "</html>\n", 8))
		abort();
	sc_buf_reset(&text);
	sc_report_text_mem(s, size, &text);
	terminal_text(&text);
	sc_buf_release(&text);
	sc_buf_release(&page);
	return 0;
}
