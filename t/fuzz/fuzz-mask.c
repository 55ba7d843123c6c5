/*
 * The masker's property on any input: the output never contains a
 * registered form, whatever the secrets and however the input is cut.
 *
 * Input layout: byte 0 = number of secrets (1-4); then for each a length
 * byte (8-40) and that many bytes; then one byte of read size (1-64); the
 * rest is the text.  The property: no registered form is in the output.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "encode.h"
#include "mask.h"
#include "secrets.h"

static void must_not_contain(const struct sc_buf *out, const struct sc_buf *form)
{
	if (form->len && out->len >= form->len &&
	    memmem(out->data, out->len, form->data, form->len))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_secrets s;
	struct sc_mask_set *set;
	struct sc_masker *m;
	struct sc_buf out = SC_BUF_INIT, form = SC_BUF_INIT;
	size_t at = 1, i, n, piece;

	if (size < 2)
		return 0;
	n = 1 + data[0] % 4;
	sc_secrets_init(&s);
	for (i = 0; i < n && at < size; i++) {
		size_t len = 8 + data[at++] % 33;
		char name[8];

		if (at + len > size)
			break;
		snprintf(name, sizeof(name), "S%zu", i);
		sc_secrets_add(&s, name, data + at, len);
		at += len;
	}
	if (at >= size) {
		sc_secrets_release(&s);
		return 0;
	}
	piece = 1 + data[at++] % 64;
	set = sc_mask_set_build(&s, 0);
	m = set ? sc_masker_new(set) : NULL;
	if (!m)
		abort();
	while (at < size) {
		size_t k = size - at < piece ? size - at : piece;

		if (sc_masker_feed(m, data + at, k, &out) < 0)
			abort();
		if (k & 1)
			sc_masker_idle(m, &out);
		at += k;
	}
	sc_masker_finish(m, &out);
	/*
	 * No registered form survives.  A form holding '[' or ']' could be
	 * made by a marker and the text beside it, and a form inside
	 * "[redacted:Sn]" by a marker alone: those are skipped.
	 */
	for (i = 0; i < sc_mask_set_forms(set); i++) {
		size_t len;
		const char *f = sc_mask_set_form(set, i, &len);

		if (memchr(f, '[', len) || memchr(f, ']', len) ||
		    memmem("redacted:S0123", 14, f, len))
			continue;
		sc_buf_reset(&form);
		sc_buf_add(&form, f, len);
		must_not_contain(&out, &form);
	}
	sc_buf_release(&out);
	sc_buf_release(&form);
	sc_masker_free(m);
	sc_mask_set_free(set);
	sc_secrets_release(&s);
	return 0;
}
