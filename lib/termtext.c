#include "termtext.h"

/* The length of the valid UTF-8 sequence at P (at most LEFT bytes), 0 when
 * there is none: overlong forms, surrogates and values past U+10FFFF are
 * not valid. */
static size_t utf8_len(const unsigned char *p, size_t left, unsigned *cp)
{
	size_t n, i;
	unsigned v, min;

	if (p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	if (p[0] < 0xe0) {
		n = 2, v = p[0] & 0x1f, min = 0x80;
	} else if (p[0] < 0xf0) {
		n = 3, v = p[0] & 0x0f, min = 0x800;
	} else {
		n = 4, v = p[0] & 0x07, min = 0x10000;
	}
	if (left < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (p[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

/* Code points that steer a terminal or reorder what it shows. */
static int code_point_unsafe(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) ||      /* C1 controls */
	       cp == 0x061c ||                     /* Arabic letter mark */
	       cp == 0x200e || cp == 0x200f ||     /* LRM, RLM */
	       (cp >= 0x202a && cp <= 0x202e) ||   /* embeddings, overrides */
	       (cp >= 0x2066 && cp <= 0x2069);     /* isolates */
}

static int byte_kept(unsigned char c, int flags)
{
	if (c == '\n')
		return flags & SC_TERM_KEEP_NEWLINE;
	if (c == '\t')
		return flags & SC_TERM_KEEP_TAB;
	return c >= 0x20 && c != 0x7f;
}

void sc_term_clean(struct sc_buf *out, const char *text, size_t len,
		   int flags)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t i = 0, n;
	unsigned cp;

	sc_buf_grow(out, len);
	while (i < len) {
		if (p[i] < 0x80) {
			sc_buf_addch(out, byte_kept(p[i], flags) ? (char)p[i] : '?');
			i++;
			continue;
		}
		n = utf8_len(p + i, len - i, &cp);
		if (!n || code_point_unsafe(cp)) {
			/* One '?' for the whole sequence, or for the stray byte. */
			sc_buf_addch(out, '?');
			i += n ? n : 1;
			continue;
		}
		sc_buf_add(out, p + i, n);
		i += n;
	}
}
