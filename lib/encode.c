#include <string.h>

#include "alloc.h"
#include "encode.h"

static const char b64_std[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b64_url[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

void sc_base64_encode(struct sc_buf *out, const void *data, size_t len,
		      int flags)
{
	const char *alphabet = (flags & SC_B64_URL) ? b64_url : b64_std;
	const unsigned char *p = data;
	size_t i;

	sc_buf_grow(out, (len + 2) / 3 * 4);
	for (i = 0; i + 2 < len; i += 3) {
		unsigned long v = (unsigned long)p[i] << 16 |
				  (unsigned long)p[i + 1] << 8 | p[i + 2];

		sc_buf_addch(out, alphabet[v >> 18 & 63]);
		sc_buf_addch(out, alphabet[v >> 12 & 63]);
		sc_buf_addch(out, alphabet[v >> 6 & 63]);
		sc_buf_addch(out, alphabet[v & 63]);
	}
	if (i < len) {
		unsigned long v = (unsigned long)p[i] << 16;

		if (i + 1 < len)
			v |= (unsigned long)p[i + 1] << 8;
		sc_buf_addch(out, alphabet[v >> 18 & 63]);
		sc_buf_addch(out, alphabet[v >> 12 & 63]);
		if (i + 1 < len)
			sc_buf_addch(out, alphabet[v >> 6 & 63]);
		if (!(flags & SC_B64_NOPAD))
			sc_buf_adds(out, i + 1 < len ? "=" : "==");
	}
}

static int b64_value(char c)
{
	const char *at;

	if (c == '\0')
		return -1;
	at = strchr(b64_std, c);
	return at ? (int)(at - b64_std) : -1;
}

int sc_base64_decode(struct sc_buf *out, const char *text, size_t len)
{
	size_t i;

	if (len % 4)
		return -1;
	for (i = 0; i < len; i += 4) {
		int last = i + 4 == len;
		int pad = 0, v[4], k;
		unsigned long bits;

		if (last && text[i + 3] == '=')
			pad = text[i + 2] == '=' ? 2 : 1;
		for (k = 0; k < 4 - pad; k++)
			if ((v[k] = b64_value(text[i + k])) < 0)
				return -1;
		for (; k < 4; k++)
			v[k] = 0;
		bits = (unsigned long)v[0] << 18 | (unsigned long)v[1] << 12 |
		       (unsigned long)v[2] << 6 | (unsigned long)v[3];
		/* Bits below the last byte must be zero: one spelling only. */
		if ((pad == 1 && (bits & 0xff)) || (pad == 2 && (bits & 0xffff)))
			return -1;
		sc_buf_addch(out, (int)(bits >> 16 & 0xff));
		if (pad < 2)
			sc_buf_addch(out, (int)(bits >> 8 & 0xff));
		if (pad < 1)
			sc_buf_addch(out, (int)(bits & 0xff));
	}
	return 0;
}

void sc_hex_encode(struct sc_buf *out, const void *data, size_t len,
		   int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	const unsigned char *p = data;
	size_t i;

	sc_buf_grow(out, len * 2);
	for (i = 0; i < len; i++) {
		sc_buf_addch(out, digits[p[i] >> 4]);
		sc_buf_addch(out, digits[p[i] & 15]);
	}
}

void sc_hex_into(char *hex, const void *data, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		hex[2 * i] = digits[p[i] >> 4];
		hex[2 * i + 1] = digits[p[i] & 15];
	}
	hex[2 * len] = '\0';
}

void sc_sha256_hex(const unsigned char md[32], char hex[65])
{
	sc_hex_into(hex, md, 32);
}

void sc_base64_window(struct sc_buf *out, const void *data, size_t len,
		      unsigned offset, int flags)
{
	const char *alphabet = (flags & SC_B64_URL) ? b64_url : b64_std;
	const unsigned char *p = data;
	/* Bit positions in the stream: DATA covers [first, last). */
	size_t first = (size_t)offset * 8;
	size_t last = sc_st_add(first, sc_st_mult(len, 8));
	size_t i = (first + 5) / 6;  /* the first character inside DATA */

	for (; i * 6 + 6 <= last; i++) {
		unsigned v = 0;
		size_t bit;

		for (bit = i * 6; bit < i * 6 + 6; bit++) {
			size_t at = (bit - first) / 8;

			v = v << 1 | ((p[at] >> (7 - (bit - first) % 8)) & 1);
		}
		sc_buf_addch(out, alphabet[v]);
	}
}

void sc_percent_encode(struct sc_buf *out, const void *data, size_t len,
		       int flags)
{
	const char *digits = (flags & SC_PCT_UPPER) ? "0123456789ABCDEF"
						    : "0123456789abcdef";
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		    c == '_' || c == '~' ||
		    (c == '/' && (flags & SC_PCT_SLASH)) ||
		    ((flags & SC_PCT_JS) && strchr("!'()*", c) && c)) {
			sc_buf_addch(out, c);
		} else if (c == ' ' && (flags & SC_PCT_FORM)) {
			sc_buf_addch(out, '+');
		} else {
			sc_buf_addch(out, '%');
			sc_buf_addch(out, digits[c >> 4]);
			sc_buf_addch(out, digits[c & 15]);
		}
	}
}

static void json_u(struct sc_buf *out, unsigned v, int flags)
{
	sc_buf_addf(out, (flags & SC_JSON_UPPER) ? "\\u%04X" : "\\u%04x", v);
}

size_t sc_utf8_decode(const unsigned char *p, size_t n, unsigned *cp)
{
	size_t len, k;
	unsigned v;

	if (p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	len = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	v = p[0] & (0x7f >> len);
	for (k = 1; k < len; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[k] & 0x3f);
	}
	if ((len == 3 && v < 0x800) || (len == 4 && v < 0x10000) ||
	    v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

void sc_json_escape(struct sc_buf *out, const void *data, size_t len,
		    int flags)
{
	const unsigned char *p = data;
	size_t i = 0;

	while (i < len) {
		unsigned char c = p[i];
		const char *shortesc = NULL;
		unsigned cp;
		size_t n;

		switch (c) {
		case '"': shortesc = "\\\""; break;
		case '\\': shortesc = "\\\\"; break;
		case '\b': shortesc = "\\b"; break;
		case '\f': shortesc = "\\f"; break;
		case '\n': shortesc = "\\n"; break;
		case '\r': shortesc = "\\r"; break;
		case '\t': shortesc = "\\t"; break;
		case '/': if (flags & SC_JSON_SLASH) shortesc = "\\/"; break;
		default: break;
		}
		if (shortesc) {
			sc_buf_adds(out, shortesc);
			i++;
		} else if (c < 0x20 || (c == 0x7f && (flags & SC_JSON_ASCII)) ||
			   ((flags & SC_JSON_HTML) &&
			    (c == '<' || c == '>' || c == '&'))) {
			json_u(out, c, flags);
			i++;
		} else if (c >= 0x80 && (flags & SC_JSON_ASCII) &&
			   (n = sc_utf8_decode(p + i, len - i, &cp))) {
			if (cp >= 0x10000) {
				cp -= 0x10000;
				json_u(out, 0xd800 | (cp >> 10), flags);
				json_u(out, 0xdc00 | (cp & 0x3ff), flags);
			} else {
				json_u(out, cp, flags);
			}
			i += n;
		} else {
			sc_buf_addch(out, c);
			i++;
		}
	}
}
