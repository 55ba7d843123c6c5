/*
 * HTML escaping of untrusted bytes (html.h).
 */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "html.h"

/* Invisible or reordering characters: shown by code point, never kept. */
static int invisible(uint32_t c)
{
	return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) ||
	       c == 0x200E || c == 0x200F || c == 0x061C ||
	       (c >= 0x200B && c <= 0x200D) || (c >= 0x2060 && c <= 0x2064) ||
	       c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFB) ||
	       c == 0x2028 || c == 0x2029 || c == 0x00AD || c == 0x034F ||
	       (c >= 0xE0000 && c <= 0xE007F);
}

/*
 * Decode one UTF-8 character at S (LEN > 0 bytes) into *CP: its length,
 * or 0 when the bytes are not valid UTF-8 (overlong, surrogate, past
 * U+10FFFF, cut short).
 */
static size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t n, i;
	uint32_t c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		n = 2, c = s[0] & 0x1F, min = 0x80;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3, c = s[0] & 0x0F, min = 0x800;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4, c = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

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
	uint32_t c;

	while (i < len) {
		n = utf8_decode(p + i, len - i, &c);
		if (!n) {
			shown(out, 0, p[i]);
			i++;
			continue;
		}
		if (n == 1 && ascii_ref(out, p[i]))
			;
		else if (c == '\n' || c == '\t')
			sc_buf_addch(out, (int)c);
		else if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F))
			shown(out, 0, c);
		else if (invisible(c))
			shown(out, 1, c);
		else
			sc_buf_add(out, p + i, n);
		i += n;
	}
}

void sc_html_texts(struct sc_buf *out, const char *s)
{
	sc_html_text(out, s, strlen(s));
}
