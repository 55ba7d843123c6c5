#include <string.h>

#include "termtext.h"

/* The length a UTF-8 sequence led by byte C has, 0 when C leads none. */
static size_t utf8_lead_len(unsigned char c)
{
	if (c < 0xc2 || c > 0xf4)
		return 0;
	return c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
}

/* The length of the valid UTF-8 sequence at P (at most LEFT bytes), 0 when
 * there is none: overlong forms, surrogates and values past U+10FFFF are
 * not valid. */
static size_t utf8_len(const unsigned char *p, size_t left, unsigned *cp)
{
	size_t n = utf8_lead_len(p[0]), i;
	unsigned v, min;

	if (!n || left < n)
		return 0;
	v = p[0] & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
	min = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
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

/* 1 when the LEFT bytes at P are the start of a sequence that more bytes
 * could complete: a stream keeps them for the next read. */
static int utf8_incomplete(const unsigned char *p, size_t left)
{
	size_t n = utf8_lead_len(p[0]), i;

	if (!n || left >= n)
		return 0;
	for (i = 1; i < left; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return 1;
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

/* Where cleaned text goes: a growing buffer, or a fixed array that stops
 * taking text at the first piece that does not fit whole. */
struct sink {
	struct sc_buf *buf;
	char *dst;
	size_t cap, len;
	int full;
};

static void put(struct sink *k, const void *p, size_t n)
{
	if (k->buf) {
		sc_buf_add(k->buf, p, n);
	} else if (!k->full && k->len + n <= k->cap) {
		memcpy(k->dst + k->len, p, n);
		k->len += n;
	} else {
		k->full = 1;
	}
}

static size_t clean(struct sink *k, const char *text, size_t len, int flags)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t i = 0, n;
	unsigned cp;
	char c;

	while (i < len) {
		if (p[i] < 0x80) {
			c = byte_kept(p[i], flags) ? (char)p[i] : '?';
			put(k, &c, 1);
			i++;
			continue;
		}
		n = utf8_len(p + i, len - i, &cp);
		if (!n && (flags & SC_TERM_MORE) && utf8_incomplete(p + i, len - i))
			break;
		if (!n || code_point_unsafe(cp)) {
			/* One '?' for the whole sequence, or for the stray byte. */
			put(k, "?", 1);
			i += n ? n : 1;
			continue;
		}
		put(k, p + i, n);
		i += n;
	}
	return i;
}

size_t sc_term_clean_some(struct sc_buf *out, const char *text, size_t len,
			  int flags)
{
	struct sink k = { out, NULL, 0, 0, 0 };

	sc_buf_grow(out, len);
	return clean(&k, text, len, flags);
}

void sc_term_clean(struct sc_buf *out, const char *text, size_t len,
		   int flags)
{
	(void)sc_term_clean_some(out, text, len, flags & ~SC_TERM_MORE);
}

size_t sc_term_clean_fixed(char *dst, size_t dstsz, const char *text,
			   size_t len, int flags)
{
	struct sink k = { NULL, dst, dstsz ? dstsz - 1 : 0, 0, 0 };

	if (!dstsz)
		return 0;
	(void)clean(&k, text, len, flags & ~SC_TERM_MORE);
	dst[k.len] = '\0';
	return k.len;
}
