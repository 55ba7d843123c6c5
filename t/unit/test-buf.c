#include "../lib/tap.h"

#include <string.h>

#include "buf.h"
#include "encode.h"

static void test_add_keeps_nul_terminated(void **state)
{
	struct sc_buf b = SC_BUF_INIT;

	(void)state;
	sc_buf_adds(&b, "abc");
	sc_buf_add(&b, "\0d", 2);
	assert_int_equal(b.len, 5);
	assert_memory_equal(b.data, "abc\0d", 6);
	sc_buf_addf(&b, "%d", 42);
	assert_int_equal(b.len, 7);
	assert_string_equal(b.data + 4, "d42");
	sc_buf_release(&b);
	assert_null(b.data);
}

static void test_consume_and_detach(void **state)
{
	struct sc_buf b = SC_BUF_INIT;
	size_t len;
	char *p;

	(void)state;
	sc_buf_adds(&b, "hello world");
	sc_buf_consume(&b, 6);
	assert_string_equal(b.data, "world");
	p = sc_buf_detach(&b, &len);
	assert_int_equal(len, 5);
	assert_string_equal(p, "world");
	assert_null(b.data);
	free(p);
}

static void test_grow_large(void **state)
{
	struct sc_buf b = SC_BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < 100000; i++)
		sc_buf_addch(&b, (int)(i & 0xff));
	assert_int_equal(b.len, 100000);
	for (i = 0; i < 100000; i++)
		assert_int_equal((unsigned char)b.data[i], i & 0xff);
	assert_int_equal(b.data[b.len], 0);
	sc_buf_wipe(&b);
	assert_null(b.data);
}

/* RFC 4648 section 10 test vectors. */
static void test_base64_vectors(void **state)
{
	static const char *const plain[] = { "", "f", "fo", "foo", "foob",
					     "fooba", "foobar" };
	static const char *const coded[] = { "", "Zg==", "Zm8=", "Zm9v",
					     "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	size_t i;

	(void)state;
	for (i = 0; i < 7; i++) {
		struct sc_buf e = SC_BUF_INIT, d = SC_BUF_INIT;

		sc_base64_encode(&e, plain[i], strlen(plain[i]), 0);
		assert_string_equal(e.data ? e.data : "", coded[i]);
		assert_int_equal(sc_base64_decode(&d, coded[i], strlen(coded[i])), 0);
		assert_int_equal(d.len, strlen(plain[i]));
		if (d.len)
			assert_memory_equal(d.data, plain[i], d.len);
		sc_buf_release(&e);
		sc_buf_release(&d);
	}
}

static void test_base64_variants(void **state)
{
	struct sc_buf e = SC_BUF_INIT;

	(void)state;
	sc_base64_encode(&e, "\xfb\xff", 2, SC_B64_URL | SC_B64_NOPAD);
	assert_string_equal(e.data, "-_8");
	sc_buf_reset(&e);
	sc_base64_encode(&e, "\xfb\xff", 2, 0);
	assert_string_equal(e.data, "+/8=");
	sc_buf_release(&e);
}

static void test_base64_decode_is_strict(void **state)
{
	static const char *const bad[] = { "Zg=", "Zh==", "Zm9=", "Z===",
					   "Zg==Zg==", "Zm9v\n", "-_8=", "Zm 9" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sc_buf d = SC_BUF_INIT;

		assert_int_equal(sc_base64_decode(&d, bad[i], strlen(bad[i])), -1);
		sc_buf_release(&d);
	}
}

static void test_hex(void **state)
{
	struct sc_buf h = SC_BUF_INIT;

	(void)state;
	sc_hex_encode(&h, "\x01\xab\xff", 3, 0);
	sc_hex_encode(&h, "\x01\xab\xff", 3, 1);
	assert_string_equal(h.data, "01abff01ABFF");
	sc_buf_release(&h);
}

/* The digest of "abc" (FIPS 180-2), NUL-terminated at 64 digits. */
static void test_sha256_hex(void **state)
{
	static const unsigned char md[32] = {
		0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
		0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
		0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
	};
	char hex[66];

	(void)state;
	memset(hex, 'Z', sizeof(hex));
	sc_sha256_hex(md, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
			    "b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(hex[65], 'Z');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_keeps_nul_terminated),
		cmocka_unit_test(test_consume_and_detach),
		cmocka_unit_test(test_grow_large),
		cmocka_unit_test(test_base64_vectors),
		cmocka_unit_test(test_base64_variants),
		cmocka_unit_test(test_base64_decode_is_strict),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_sha256_hex),
	};

	return SC_RUN_TESTS(tests);
}
