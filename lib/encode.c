#include <string.h>

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
