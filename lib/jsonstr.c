/*
 * Bytes as a JSON string, bad UTF-8 replaced.
 */
#include <jansson.h>

#include "buf.h"
#include "diag.h"
#include "jsonstr.h"

/* The length of the valid UTF-8 sequence at S (N bytes left), 0 if none. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are invalid. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

json_t *sc_json_string(const char *s, size_t len, const char *bad)
{
	struct sc_buf b = SC_BUF_INIT;
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	json_t *v;

	/* The common case, valid UTF-8, without a copy. */
	if (!len)
		v = json_stringn("", 0);
	else
		v = json_stringn(s, len);
	if (v)
		return v;
	while (i < len) {
		n = utf8_seq(p + i, len - i);
		if (n) {
			sc_buf_add(&b, p + i, n);
			i += n;
		} else {
			sc_buf_adds(&b, bad);
			i++;
		}
	}
	v = json_stringn(b.data ? b.data : "", b.len);
	sc_buf_release(&b);
	if (!v)
		sc_die(SC_EXIT_INTERNAL, "OUT-OF-MEMORY", "cannot encode JSON");
	return v;
}
