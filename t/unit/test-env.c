#include "../lib/tap.h"

#include <stdlib.h>
#include <string.h>

#include "env.h"

static void test_secret_names(void **state)
{
	static const char *const secret[] = {
		"GITHUB_TOKEN", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL",
		"AWS_REGION", "DB_PASSWORD", "my_secret_thing", "SSH_AUTH_SOCK",
		"SENTRY_DSN", "NPM_CONFIG__AUTH", "PRIVATE_KEY_PATH", "GH_PAT",
		"AZURE_CLIENT_ID", "GOOGLE_APPLICATION_CREDENTIALS", "PASSPHRASE",
		"gitlab_token", NULL,
	};
	static const char *const plain[] = {
		"PATH", "HOME", "LANG", "TERM", "CC", "CARGO_HOME", "EDITOR",
		"PWD", "SHELL", "TOKENIZERS_PARALLELISM", NULL,
	};
	size_t i;

	(void)state;
	for (i = 0; secret[i]; i++)
		assert_true(sc_env_name_is_secret(secret[i]));
	for (i = 0; plain[i]; i++)
		assert_false(sc_env_name_is_secret(plain[i]));
}

static int has(char **env, const char *entry)
{
	for (; *env; env++)
		if (!strcmp(*env, entry))
			return 1;
	return 0;
}

static void test_build_scrub(void **state)
{
	char *envp[] = { "PATH=/bin", "GITHUB_TOKEN=x", "NO_COLOR=0",
			 "TMPDIR=/old", "FOO=bar", "noequals", NULL };
	char *keep[] = { "GITHUB_TOKEN" };
	char **env;

	(void)state;
	env = sc_env_build(envp, SC_ENV_SCRUB, NULL, 0, "/tmp/x");
	assert_true(has(env, "PATH=/bin"));
	assert_true(has(env, "FOO=bar"));
	assert_false(has(env, "GITHUB_TOKEN=x"));
	assert_false(has(env, "NO_COLOR=0"));
	assert_false(has(env, "TMPDIR=/old"));
	assert_false(has(env, "noequals"));
	assert_true(has(env, "NO_COLOR=1"));
	assert_true(has(env, "CARGO_TERM_COLOR=never"));
	assert_true(has(env, "GIT_TERMINAL_PROMPT=0"));
	assert_true(has(env, "TMPDIR=/tmp/x"));
	sc_env_free(env);
	env = sc_env_build(envp, SC_ENV_SCRUB, keep, 1, NULL);
	assert_true(has(env, "GITHUB_TOKEN=x"));
	sc_env_free(env);
}

static void test_build_short(void **state)
{
	char *envp[] = { "PATH=/bin", "FOO=bar", "LANG=C", "BAR=1", NULL };
	char *keep[] = { "BAR" };
	char **env;

	(void)state;
	env = sc_env_build(envp, SC_ENV_SHORT, keep, 1, NULL);
	assert_true(has(env, "PATH=/bin"));
	assert_true(has(env, "LANG=C"));
	assert_true(has(env, "BAR=1"));
	assert_false(has(env, "FOO=bar"));
	sc_env_free(env);
}

/* A relative or empty TMPDIR would follow the command's cwd: /tmp then. */
static void test_tmpdir(void **state)
{
	(void)state;
	assert_int_equal(setenv("TMPDIR", "/var/tmp", 1), 0);
	assert_string_equal(sc_env_tmpdir(), "/var/tmp");
	assert_int_equal(setenv("TMPDIR", "tmp", 1), 0);
	assert_string_equal(sc_env_tmpdir(), "/tmp");
	assert_int_equal(setenv("TMPDIR", "", 1), 0);
	assert_string_equal(sc_env_tmpdir(), "/tmp");
	assert_int_equal(unsetenv("TMPDIR"), 0);
	assert_string_equal(sc_env_tmpdir(), "/tmp");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_secret_names),
		cmocka_unit_test(test_build_scrub),
		cmocka_unit_test(test_build_short),
		cmocka_unit_test(test_tmpdir),
	};

	return SC_RUN_TESTS(tests);
}
