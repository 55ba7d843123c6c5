#include <string.h>

#include "buf.h"
#include "termtext.h"

/*
 * Decode one UTF-8 character at S (LEN > 0 bytes left): its code point and
 * length, or -1 when the bytes are not valid UTF-8 (the caller replaces
 * one byte and goes on).
 */
long sc_utf8_next(const unsigned char *s, size_t len, size_t *used)
{
	unsigned long cp;
	size_t need, k;

	if (s[0] < 0x80) {
		*used = 1;
		return s[0];
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 1;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 2;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 3;
		cp = s[0] & 0x07;
	} else {
		return -1;
	}
	if (len <= need)
		return -1;
	for (k = 1; k <= need; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return -1;
		cp = (cp << 6) | (s[k] & 0x3f);
	}
	if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;   /* overlong, past Unicode, surrogate */
	*used = need + 1;
	return (long)cp;
}

int sc_utf8_valid(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0, used;

	while (i < len) {
		if (sc_utf8_next(s + i, len - i, &used) < 0)
			return 0;
		i += used;
	}
	return 1;
}

int sc_char_invisible(long cp)
{
	return cp == 0x061c || (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x2064) ||
	       (cp >= 0x2066 && cp <= 0x206f) || cp == 0xfeff ||
	       (cp >= 0xfff9 && cp <= 0xfffb);
}

/*
 * Where cleaned text goes: a growing buffer, or a fixed array that takes
 * whole characters only while they fit (diagnostics must not allocate:
 * running out of memory is itself reported).
 */
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
		return;
	}
	if (k->full || k->len + n >= k->cap) {
		k->full = 1;
		return;
	}
	memcpy(k->dst + k->len, p, n);
	k->len += n;
}

static int kept_control(long cp, int flags)
{
	return (cp == '\n' && (flags & SC_TERM_KEEP_NEWLINE)) ||
	       (cp == '\t' && (flags & SC_TERM_KEEP_TAB));
}

static void clean(struct sink *k, const char *text, size_t len, int flags)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0, used;
	long cp;

	while (i < len && !k->full) {
		cp = sc_utf8_next(s + i, len - i, &used);
		if (cp < 0) {
			/* a raw byte: 0x80-0x9f is C1 on an 8-bit terminal */
			put(k, "?", 1);
			i++;
			continue;
		}
		/* C0, DEL, C1 (ESC and CSI start every escape sequence) */
		if (kept_control(cp, flags))
			put(k, s + i, used);
		else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) ||
			 sc_char_invisible(cp))
			put(k, "?", 1);
		else
			put(k, s + i, used);
		i += used;
	}
}

void sc_term_clean_keep(struct sc_buf *out, const char *text, size_t len,
			int flags)
{
	struct sink k = { out, NULL, 0, 0, 0 };

	sc_buf_adds(out, "");
	clean(&k, text, len, flags);
}

void sc_term_clean(struct sc_buf *out, const char *text, size_t len)
{
	sc_term_clean_keep(out, text, len, 0);
}

size_t sc_term_clean_into(char *dst, size_t dstsz, const char *text,
			  size_t len)
{
	struct sink k = { NULL, dst, dstsz, 0, 0 };

	if (!dstsz)
		return 0;
	clean(&k, text, len, 0);
	dst[k.len] = '\0';
	return k.len;
}

size_t sc_term_partial(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t k, need;

	for (k = 1; k <= 3 && k <= len; k++) {
		unsigned char c = s[len - k];

		if ((c & 0xc0) == 0x80)
			continue;   /* a continuation byte: look further back */
		need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
		return need > k ? k : 0;
	}
	return 0;
}
