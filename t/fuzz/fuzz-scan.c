/*
 * libFuzzer: sc-mask --scan's rule engine on random input and on near
 * misses of every rule's own example.  Byte 0 chooses: even, the rest is
 * scanned as it is; odd, byte 1 picks a rule and the rest is spliced into
 * its positive example at the offset byte 2 gives.  The properties:
 * findings come in line order, each line exists in the input, and every
 * fingerprint is 16 lower-case hex digits.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "scan.h"

struct check {
	unsigned long last_line, max_line;
};

static void on_finding(void *ctx, const struct sc_scan_finding *f)
{
	struct check *c = ctx;

	if (f->line < c->last_line || f->line > c->max_line || !f->line)
		abort();
	c->last_line = f->line;
	if (strlen(f->fingerprint) != 16 ||
	    strspn(f->fingerprint, "0123456789abcdef") != 16)
		abort();
}

static void scan(struct sc_scanner *sc, const char *p, size_t len)
{
	struct check c = { 0, 1 };
	size_t i;

	for (i = 0; i < len; i++)
		c.max_line += p[i] == '\n';
	if (sc_scan_buffer_ex(sc, p, len, on_finding, &c) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Loaded once: the database is the same for every input. */
	static struct sc_scanner *sc;
	struct sc_buf b = SC_BUF_INIT;
	const struct sc_scan_rule *r;
	size_t at;

	if (!sc && !(sc = sc_scanner_new()))
		abort();
	if (size < 3)
		return 0;
	if (!(data[0] & 1)) {
		scan(sc, (const char *)data + 1, size - 1);
		return 0;
	}
	r = &sc_scan_rules[data[1] % sc_scan_nr_rules()];
	at = data[2] % (strlen(r->positive) + 1);
	sc_buf_add(&b, r->positive, at);
	sc_buf_add(&b, data + 3, size - 3);
	sc_buf_adds(&b, r->positive + at);
	scan(sc, b.data, b.len);
	sc_buf_release(&b);
	return 0;
}
