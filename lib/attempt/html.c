/*
 * HTML escaping of untrusted bytes (html.h).
 */
#include <string.h>

#include "buf.h"
#include "html.h"
#include "termtext.h"

/* A byte (\xNN) or a code point (\u{XXXX}) shown as text. */
static void shown(struct sc_buf *out, int codepoint, unsigned v)
{
	if (codepoint)
		sc_buf_addf(out, "<span class=\"ctl\">\\u{%04X}</span>", v);
	else
		sc_buf_addf(out, "<span class=\"ctl\">\\x%02X</span>", v);
}

static int ascii_ref(struct sc_buf *out, unsigned char c)
{
	switch (c) {
	case '&': sc_buf_adds(out, "&amp;"); return 1;
	case '<': sc_buf_adds(out, "&lt;"); return 1;
	case '>': sc_buf_adds(out, "&gt;"); return 1;
	case '"': sc_buf_adds(out, "&quot;"); return 1;
	case '\'': sc_buf_adds(out, "&#39;"); return 1;
	}
	return 0;
}

void sc_html_text(struct sc_buf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	long c;

	while (i < len) {
		c = sc_utf8_next(p + i, len - i, &n);
		if (c < 0) {
			shown(out, 0, p[i]);
			i++;
			continue;
		}
		if (n == 1 && ascii_ref(out, p[i]))
			;
		else if (c == '\n' || c == '\t')
			sc_buf_addch(out, (int)c);
		else if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F))
			shown(out, 0, (unsigned)c);
		else if (sc_char_invisible(c))
			shown(out, 1, (unsigned)c);
		else
			sc_buf_add(out, p + i, n);
		i += n;
	}
}

void sc_html_texts(struct sc_buf *out, const char *s)
{
	sc_html_text(out, s, strlen(s));
}
