/*
 * Bytes as a JSON string, bad UTF-8 replaced.
 */
#include <jansson.h>

#include "buf.h"
#include "diag.h"
#include "jsonstr.h"
#include "termtext.h"

json_t *sc_json_string(const char *s, size_t len, const char *bad)
{
	struct sc_buf b = SC_BUF_INIT;
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	json_t *v;

	/* The common case, valid UTF-8, without a copy. */
	v = json_stringn(len ? s : "", len);
	if (v)
		return v;
	while (i < len) {
		if (sc_utf8_next(p + i, len - i, &n) >= 0) {
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
