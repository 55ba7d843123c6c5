/*
 * libFuzzer: the CRC32 suffix of GitHub's and npm's tokens, and the
 * Bech32 checksum of age keys (built the same way).  Byte 0
 * chooses the prefix (ghp_ gho_ ghu_ ghs_ ghr_ npm_), the rest of the
 * input, mapped onto base62, is the random part; its checksum is computed
 * here with a table (an implementation independent of the scanner's
 * bitwise one), then kept or changed in one character (byte 1).  The
 * properties: sc_scan_crc32_token says 1 exactly for the right checksum
 * and 0 for a changed one; the scan finds the checksummed rule exactly
 * then; and on the raw input, as random bytes, it never reads outside
 * them (ASan) and answers -1, 0 or 1.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "scan.h"

static const char b62[] =
	"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static uint32_t crc32_table(const char *p, size_t n)
{
	uint32_t table[256], crc = 0xffffffffu;
	size_t i;
	int k;

	for (i = 0; i < 256; i++) {
		uint32_t c = (uint32_t)i;

		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	for (i = 0; i < n; i++)
		crc = table[(crc ^ (unsigned char)p[i]) & 0xff] ^ (crc >> 8);
	return crc ^ 0xffffffffu;
}

struct seen {
	int token;   /* the checksummed rule found the token */
};

static void on_finding(void *ctx, const struct sc_scan_finding *f)
{
	struct seen *s = ctx;

	if (!strcmp(f->rule, "github-token") || !strcmp(f->rule, "npm-token"))
		s->token = 1;
}

static void check_token(struct sc_scanner *sc, const uint8_t *data,
			size_t size)
{
	static const char *const prefixes[] = { "ghp_", "gho_", "ghu_",
						"ghs_", "ghr_", "npm_" };
	const char *prefix = prefixes[data[0] % 6];
	char tok[4 + 30 + 6 + 1];
	uint32_t sum;
	size_t i;
	struct seen s = { 0 };
	int changed = data[1] & 1, want;

	memcpy(tok, prefix, 4);
	for (i = 0; i < 30; i++)
		tok[4 + i] = b62[(i + 2 < size ? data[i + 2] : i) % 62];
	sum = crc32_table(tok + 4, 30);
	for (i = 0; i < 6; i++) {
		tok[4 + 30 + 5 - i] = b62[sum % 62];
		sum /= 62;
	}
	tok[40] = '\0';
	if (changed) {
		char *c = &tok[34 + (data[1] >> 1) % 6];

		*c = b62[(strchr(b62, *c) - b62 + 1 + data[1] % 61) % 62];
	}
	want = !changed;
	if (sc_scan_crc32_token(tok, 40) != want)
		abort();
	/* The rule agrees, where its entropy check lets the token through. */
	if (sc_scan_buffer_ex(sc, tok, 40, on_finding, &s) < 0)
		abort();
	if (s.token && !want)
		abort();
	if (!s.token && want && sc_scan_entropy(tok, 40) >= 3.0)
		abort();
}

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 32) : c;
}

/* An age key of 52 characters from the input and its Bech32 checksum,
 * computed here as BIP 173's reference does, or one character changed. */
static void check_age(const uint8_t *data, size_t size)
{
	static const char cs[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
	static const uint32_t gen[5] = { 0x3b6a57b2, 0x26508e6d, 0x1ea119fa,
					 0x3d4233dd, 0x2a1462b3 };
	static const char hrp[] = "age-secret-key-";
	unsigned v[15 * 2 + 1 + 52 + 6];
	char key[16 + 58 + 1];
	uint32_t chk = 1;
	size_t i, n = 0;
	int j, changed = data[1] & 1;

	for (i = 0; i < 15; i++)
		v[n++] = (unsigned char)hrp[i] >> 5;
	v[n++] = 0;
	for (i = 0; i < 15; i++)
		v[n++] = (unsigned char)hrp[i] & 31;
	memcpy(key, "AGE-SECRET-KEY-1", 16);
	for (i = 0; i < 52; i++) {
		v[n] = (i + 2 < size ? data[i + 2] : i) % 32;
		key[16 + i] = upper(cs[v[n]]);
		n++;
	}
	for (i = 0; i < 6; i++)
		v[n++] = 0;
	for (i = 0; i < n; i++) {
		uint32_t top = chk >> 25;

		chk = ((chk & 0x1ffffff) << 5) ^ v[i];
		for (j = 0; j < 5; j++)
			chk ^= (top >> j) & 1 ? gen[j] : 0;
	}
	chk ^= 1;
	for (i = 0; i < 6; i++) {
		unsigned d = (chk >> (5 * (5 - i))) & 31;

		if (changed && i == (size_t)(data[1] >> 1) % 6)
			d ^= 1 + data[1] % 31;
		key[68 + i] = upper(cs[d]);
	}
	key[74] = '\0';
	if (sc_scan_age_key_valid(key, 74) != !changed)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Loaded once: the database is the same for every input. */
	static struct sc_scanner *sc;
	int r;

	if (!sc && !(sc = sc_scanner_new()))
		abort();
	if (size < 2)
		return 0;
	check_token(sc, data, size);
	check_age(data, size);
	r = sc_scan_crc32_token((const char *)data, size);
	if (r < -1 || r > 1)
		abort();
	r = sc_scan_age_key_valid((const char *)data, size);
	if (r < -1 || r > 1)
		abort();
	return 0;
}
