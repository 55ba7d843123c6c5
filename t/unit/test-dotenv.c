/* The dotenv parser and the secret sources (generated test values only). */
#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "dotenv.h"
#include "env.h"
#include "secrets.h"

struct got {
	struct sc_buf all;  /* "NAME=VALUE|" for each assignment */
};

static int collect(void *ctx, const char *name, const char *value, size_t len)
{
	struct got *g = ctx;

	sc_buf_adds(&g->all, name);
	sc_buf_addch(&g->all, '=');
	sc_buf_add(&g->all, value, len);
	sc_buf_addch(&g->all, '|');
	return 0;
}

static int parse(const char *text, struct got *g, struct sc_dotenv_error *err)
{
	sc_buf_reset(&g->all);
	return sc_dotenv_parse(text, strlen(text), collect, g, err);
}

static void test_syntax(void **state)
{
	struct got g = { SC_BUF_INIT };
	struct sc_dotenv_error err;

	(void)state;
	assert_int_equal(parse(
		"# comment\n"
		"\n"
		"A=plain value   \n"
		"export B='single $x \\n'\n"
		"  C = \"dq \\\"q\\\" \\n\\t \\$HOME \\\\ \\x\" # trailing\n"
		"D=with#hash # comment\n"
		"E=\n"
		"F=\"multi\nline\nvalue\"\n"
		"G='also\nmulti'\n"
		"H.dot-dash=v\r\n"
		"export=notakeyword\n"
		"I=last", &g, &err), 0);
	assert_string_equal(g.all.data,
		"A=plain value|B=single $x \\n|"
		"C=dq \"q\" \n\t $HOME \\ \\x|D=with#hash|E=|"
		"F=multi\nline\nvalue|G=also\nmulti|H.dot-dash=v|"
		"export=notakeyword|I=last|");
	sc_buf_release(&g.all);
}

static void test_errors_name_line(void **state)
{
	static const struct {
		const char *text;
		unsigned long line;
	} bad[] = {
		{ "A=1\nnot an assignment\n", 2 },
		{ "A=1\n\nB='unterminated\nmore\n", 3 },
		{ "A=\"unterminated", 1 },
		{ "A='x' junk\n", 1 },
		{ "1A=x\n", 1 },
		{ "A=1\nB\n", 2 },
		{ "A=1\nB=x\0y\n", 2 },
	};
	struct got g = { SC_BUF_INIT };
	struct sc_dotenv_error err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		size_t len = strlen(bad[i].text);

		if (i == 6)
			len = 11;
		sc_buf_reset(&g.all);
		assert_int_equal(sc_dotenv_parse(bad[i].text, len, collect, &g,
						 &err), -1);
		assert_int_equal(err.line, bad[i].line);
		assert_non_null(err.what);
	}
	sc_buf_release(&g.all);
}

static void test_secret_names(void **state)
{
	static const char *const yes[] = {
		"GITHUB_TOKEN", "OPENAI_API_KEY", "MY_SECRET_THING", "DB_PASSWORD",
		"AWS_REGION", "ANTHROPIC_BASE_URL", "OPENAI_ORG", "SSH_KEY_PATH",
		"PGPASS", "GOOGLE_CREDENTIALS", "AUTH_HEADER", "PRIVATE_X",
		"SENTRY_DSN", "npm_token", "api_key",
	};
	static const char *const no[] = {
		"PATH", "HOME", "TERM", "LANG", "USER", "SHELL", "PWD", "EDITOR",
		"CARGO_TERM_COLOR", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		if (!sc_env_name_is_secret(yes[i]))
			fail_msg("%s should look secret", yes[i]);
	for (i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (sc_env_name_is_secret(no[i]))
			fail_msg("%s should not look secret", no[i]);
}

static void test_environ(void **state)
{
	char *envp[] = { "PATH=/bin", "X_TOKEN=tok-value-123", "=odd",
			 "NOEQ", "DB_PASSWORD=", NULL };
	struct sc_secrets s;

	(void)state;
	sc_secrets_init(&s);
	sc_secrets_from_environ(&s, envp);
	assert_int_equal(s.nr, 2);
	assert_string_equal(s.v[0].name, "X_TOKEN");
	assert_string_equal(s.v[0].value.data, "tok-value-123");
	assert_string_equal(s.v[1].name, "DB_PASSWORD");
	assert_int_equal(s.v[1].value.len, 0);
	sc_secrets_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_errors_name_line),
		cmocka_unit_test(test_secret_names),
		cmocka_unit_test(test_environ),
	};

	return SC_RUN_TESTS(tests);
}
