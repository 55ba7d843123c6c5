/*
 * The DSSE envelope parser and the statement check on arbitrary bytes: no
 * crash, and an accepted envelope encodes to canonical JSON that parses
 * back to the same payload and signatures.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dsse.h"
#include "intoto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const struct sc_buf *a, const struct sc_buf *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->data, b->data, a->len));
}

static void round_trip(const struct sc_dsse *e)
{
	struct sc_buf json = SC_BUF_INIT;
	struct sc_dsse back;
	const char *why;
	size_t i;

	if (sc_dsse_encode(e, &json))
		abort();
	if (sc_dsse_parse(&back, json.data, json.len, &why))
		abort();
	if (strcmp(back.payload_type, e->payload_type) || back.nr != e->nr ||
	    !same(&back.payload, &e->payload))
		abort();
	for (i = 0; i < e->nr; i++)
		if (!same(&back.sigs[i].sig, &e->sigs[i].sig))
			abort();
	sc_dsse_release(&back);
	sc_buf_release(&json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char commit[] = "0123456789abcdef0123456789abcdef01234567";
	struct sc_dsse e;
	const char *why = NULL;
	char *ptype = NULL;

	if (sc_dsse_parse(&e, (const char *)data, size, &why)) {
		if (!why)
			abort();
		return 0;
	}
	round_trip(&e);
	sc_intoto_check_subject(e.payload.data ? e.payload.data : "",
				e.payload.len, commit, commit, &ptype, &why);
	free(ptype);
	sc_dsse_release(&e);
	return 0;
}
