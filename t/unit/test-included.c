/* The secrets of an included file (lib/mask/secrets.c, sc_secrets_from_included):
 * a dotenv file gives its secret-named variables, anything else every
 * strong line as NAME:LINE (generated test values only). */
#include "../lib/tap.h"

#include <string.h>

#include "buf.h"
#include "secrets.h"

/* "NAME=VALUE|" for every secret found. */
static int load(const char *name, const char *text, struct sc_buf *all)
{
	struct sc_secrets s;
	size_t i;
	int kind;

	sc_secrets_init(&s);
	kind = sc_secrets_from_included(&s, name, text, strlen(text));
	sc_buf_reset(all);
	for (i = 0; i < s.nr; i++) {
		sc_buf_adds(all, s.v[i].name);
		sc_buf_addch(all, '=');
		sc_buf_add(all, s.v[i].value.data ? s.v[i].value.data : "",
			   s.v[i].value.len);
		sc_buf_addch(all, '|');
	}
	if (!all->data)
		sc_buf_adds(all, "");
	sc_secrets_release(&s);
	return kind;
}

static void test_dotenv_secret_names_only(void **state)
{
	struct sc_buf all = SC_BUF_INIT;

	(void)state;
	assert_int_equal(load(".env.test",
		"# test settings\n"
		"export STRIPE_API_KEY=sk_test_0123456789\n"
		"DB_PASSWORD='pw with spaces'\n"
		"HOST=db.example.test\n"
		"PORT=5432\n", &all), SC_INCLUDED_DOTENV);
	/* The --env predicate: HOST and PORT are not secret names. */
	assert_string_equal(all.data, "STRIPE_API_KEY=sk_test_0123456789|"
			    "DB_PASSWORD=pw with spaces|");
	sc_buf_release(&all);
}

static void test_key_file_lines(void **state)
{
	struct sc_buf all = SC_BUF_INIT;

	(void)state;
	assert_int_equal(load("test.pem",
		"-----BEGIN TEST KEY-----\r\n"
		"MIIBVgIBADANBgkqhkiG9w0BAQEF\n"
		"short\n"
		"\n"
		"1234567890.123\n"
		"-----END TEST KEY-----", &all), SC_INCLUDED_KEY);
	/* Lines of 8 bytes or more, not only digits and dots, CR dropped. */
	assert_string_equal(all.data,
		"test.pem:1=-----BEGIN TEST KEY-----|"
		"test.pem:2=MIIBVgIBADANBgkqhkiG9w0BAQEF|"
		"test.pem:6=-----END TEST KEY-----|");
	sc_buf_release(&all);
}

static void test_broken_dotenv_is_a_key_file(void **state)
{
	struct sc_buf all = SC_BUF_INIT;

	(void)state;
	/* Half a dotenv file is not trusted as one: every line is masked,
	 * the assignment before the bad line too. */
	assert_int_equal(load("creds.json",
		"API_TOKEN=tok-0123456789\n"
		"{\"private_key\": \"abcdefghijkl\"}\n", &all), SC_INCLUDED_KEY);
	assert_string_equal(all.data, "creds.json:1=API_TOKEN=tok-0123456789|"
			    "creds.json:2={\"private_key\": \"abcdefghijkl\"}|");
	/* A file without any assignment is a key file, even an empty one. */
	assert_int_equal(load("empty.key", "", &all), SC_INCLUDED_KEY);
	assert_string_equal(all.data, "");
	sc_buf_release(&all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dotenv_secret_names_only),
		cmocka_unit_test(test_key_file_lines),
		cmocka_unit_test(test_broken_dotenv_is_a_key_file),
	};

	return SC_RUN_TESTS(tests);
}
