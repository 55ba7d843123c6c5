#include <string.h>
#include <strings.h>
#include <stdlib.h>

#include "alloc.h"
#include "env.h"

static const char *const secret_suffixes[] = {
	"_API_KEY", "_TOKEN", "_PAT", NULL,
};
static const char *const secret_prefixes[] = {
	"AWS_", "ANTHROPIC_", "OPENAI_", "AZURE_", NULL,
};
/*
 * Substrings.  Broad on purpose: dropping a harmless XAUTHORITY or
 * KEYMAP costs little, keeping a FOO_PASSPHRASE costs a secret.
 */
static const char *const secret_parts[] = {
	"SECRET", "PASSWORD", "KEY", "PASS", "CREDENTIAL", "AUTH",
	"PRIVATE", "DSN", "COOKIE", "SESSION", NULL,
};

static const char *const short_list[] = {
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG",
	"LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES",
	"LC_NUMERIC", "LC_TIME", "TZ", "PWD", NULL,
};

/*
 * Case-insensitive strstr over NAME's first LEN bytes.  AUTH inside AUTHOR
 * does not count: GIT_AUTHOR_NAME is an identity, not a credential, and
 * git inside the sandbox needs it.
 */
static int has_part(const char *name, size_t len, const char *part)
{
	size_t plen = strlen(part), i;

	for (i = 0; i + plen <= len; i++) {
		if (strncasecmp(name + i, part, plen))
			continue;
		if (!strcmp(part, "AUTH") && i + 6 <= len &&
		    !strncasecmp(name + i + 4, "OR", 2))
			continue;
		return 1;
	}
	return 0;
}

static int name_is_secret(const char *name, size_t len)
{
	const char *const *p;

	for (p = secret_suffixes; *p; p++) {
		size_t plen = strlen(*p);

		if (len >= plen && !strncasecmp(name + len - plen, *p, plen))
			return 1;
	}
	for (p = secret_prefixes; *p; p++)
		if (len >= strlen(*p) && !strncasecmp(name, *p, strlen(*p)))
			return 1;
	for (p = secret_parts; *p; p++)
		if (has_part(name, len, *p))
			return 1;
	return 0;
}

int sc_env_name_is_secret(const char *name)
{
	return name_is_secret(name, strlen(name));
}

const char *const *sc_env_short_list(void)
{
	return short_list;
}

static int name_in(const char *name, size_t len, const char *const *list,
		   size_t n)
{
	size_t i;

	for (i = 0; i < n && list[i]; i++)
		if (strlen(list[i]) == len && !memcmp(list[i], name, len))
			return 1;
	return 0;
}

/* Names the fixed settings replace, so they never appear twice. */
static const char *const fixed_names[] = {
	"NO_COLOR", "CARGO_TERM_COLOR", "GIT_TERMINAL_PROMPT", "TMPDIR", NULL,
};

static int keep_entry(const char *entry, enum sc_env_mode mode,
		      char *const *keep, size_t nkeep)
{
	const char *eq = strchr(entry, '=');
	size_t len;

	if (!eq || eq == entry)
		return 0;       /* not NAME=VALUE: nothing a program needs */
	len = (size_t)(eq - entry);
	if (name_in(entry, len, fixed_names, (size_t)-1))
		return 0;
	if (name_in(entry, len, (const char *const *)keep, nkeep))
		return 1;
	if (mode == SC_ENV_SHORT)
		return name_in(entry, len, short_list, (size_t)-1);
	return !name_is_secret(entry, len);
}

char **sc_env_build(char *const *envp, enum sc_env_mode mode,
		    char *const *keep, size_t nkeep, const char *tmpdir)
{
	static const char *const fixed[] = {
		"NO_COLOR=1", "CARGO_TERM_COLOR=never", "GIT_TERMINAL_PROMPT=0",
	};
	size_t n = 0, alloc = 0, i;
	char **env = NULL;

	for (; envp && *envp; envp++) {
		if (!keep_entry(*envp, mode, keep, nkeep))
			continue;
		SC_ALLOC_GROW(env, n + 1, alloc);
		env[n++] = sc_xstrdup(*envp);
	}
	for (i = 0; i < sizeof(fixed) / sizeof(*fixed); i++) {
		SC_ALLOC_GROW(env, n + 1, alloc);
		env[n++] = sc_xstrdup(fixed[i]);
	}
	if (tmpdir) {
		size_t len = sc_st_add(strlen(tmpdir), sizeof("TMPDIR="));

		SC_ALLOC_GROW(env, n + 1, alloc);
		env[n] = sc_xmalloc(len);
		memcpy(env[n], "TMPDIR=", 7);
		memcpy(env[n] + 7, tmpdir, strlen(tmpdir) + 1);
		n++;
	}
	SC_ALLOC_GROW(env, n + 1, alloc);
	env[n] = NULL;
	return env;
}

void sc_env_free(char **env)
{
	char **p;

	if (!env)
		return;
	for (p = env; *p; p++)
		free(*p);
	free(env);
}

const char *sc_env_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp == '/' ? tmp : "/tmp";
}
