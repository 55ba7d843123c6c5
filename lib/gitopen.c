/*
 * Opening a repository without trusting it.  See gitopen.h for what is
 * guaranteed; the order below matters: the search paths are emptied before
 * libgit2 reads any configuration.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "diag.h"
#include "gitopen.h"

static int initialised;

const char *sc_git_errmsg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

int sc_gitopen_init(void)
{
	static const int levels[] = {
		GIT_CONFIG_LEVEL_PROGRAMDATA, GIT_CONFIG_LEVEL_SYSTEM,
		GIT_CONFIG_LEVEL_XDG, GIT_CONFIG_LEVEL_GLOBAL,
	};
	size_t i;

	if (initialised)
		return 0;
	if (git_libgit2_init() < 0)
		return sc_error("GIT-FAILED", "cannot initialise libgit2: %s",
				sc_git_errmsg());
	/* "" is an empty list of directories (NULL would mean the default,
	 * which comes from HOME and XDG_CONFIG_HOME). */
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, levels[i], "") < 0)
			return sc_error("GIT-FAILED",
					"cannot empty the git config search path: %s",
					sc_git_errmsg());
	if (git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 1) < 0)
		return sc_error("GIT-FAILED", "cannot turn owner validation on: %s",
				sc_git_errmsg());
	initialised = 1;
	return 0;
}

/* git's spelling of the extensions this code names, for messages. */
static const char *extension_name(const char *lower)
{
	static const char *const known[] = {
		"extensions.objectFormat", "extensions.worktreeConfig",
		"extensions.refStorage", "extensions.partialClone",
		"extensions.preciousObjects",
	};
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcasecmp(known[i], lower))
			return known[i];
	return lower;
}

static int unsupported(const char *dir, const char *what)
{
	int major, minor, rev;

	git_libgit2_version(&major, &minor, &rev);
	sc_error("UNSUPPORTED-REPOSITORY",
		 "'%s': %s is not supported by libgit2 %d.%d.%d", dir, what,
		 major, minor, rev);
	return SC_GITOPEN_UNSUPPORTED;
}

struct ext_check {
	char bad[256];  /* "extensions.NAME=VALUE" of the first refused one */
};

static int bool_value(const char *v)
{
	return v && (!strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
		     !strcasecmp(v, "on") || !strcmp(v, "1"));
}

/* Accept only extensions that change nothing libgit2 1.5 would misread. */
static int check_extension(const git_config_entry *entry, void *payload)
{
	struct ext_check *chk = payload;
	const char *name = entry->name + strlen("extensions.");
	const char *v = entry->value ? entry->value : "";
	int ok;

	if (!strcasecmp(name, "noop") || !strcasecmp(name, "preciousobjects"))
		ok = 1;
	else if (!strcasecmp(name, "objectformat"))
		ok = !strcasecmp(v, "sha1");
	else if (!strcasecmp(name, "refstorage"))
		ok = !strcasecmp(v, "files");
	else if (!strcasecmp(name, "worktreeconfig"))
		ok = !bool_value(v);
	else
		ok = 0;
	if (ok)
		return 0;
	snprintf(chk->bad, sizeof(chk->bad), "%s=%s",
		 extension_name(entry->name), v);
	return 1; /* stop at the first */
}

static int check_extensions(git_repository *repo, const char *dir)
{
	struct ext_check chk = { "" };
	git_config *cfg = NULL;
	int r;

	if (git_repository_config_snapshot(&cfg, repo) < 0) {
		sc_error("GIT-FAILED", "'%s': cannot read the config: %s", dir,
			 sc_git_errmsg());
		return SC_GITOPEN_FAILED;
	}
	r = git_config_foreach_match(cfg, "^extensions\\.", check_extension,
				     &chk);
	git_config_free(cfg);
	if (r < 0 && !chk.bad[0]) {
		sc_error("GIT-FAILED", "'%s': cannot read the config: %s", dir,
			 sc_git_errmsg());
		return SC_GITOPEN_FAILED;
	}
	if (chk.bad[0])
		return unsupported(dir, chk.bad);
	return SC_GITOPEN_OK;
}

/* Turn libgit2's refusal to open into one of our statuses. */
static int open_failed(int err, const char *dir)
{
	const char *msg = sc_git_errmsg();
	const git_error *e = git_error_last();
	const char *ext;

	/* libgit2 1.5 reports a foreign owner as "safe.directory was not
	 * found" (ENOTFOUND) rather than GIT_EOWNER: both mean the owner. */
	if (err == GIT_EOWNER || strstr(msg, "safe.directory")) {
		sc_error("UNSAFE-REPOSITORY-OWNER",
			 "'%s': the repository is owned by another user", dir);
		return SC_GITOPEN_UNSAFE_OWNER;
	}
	if (err == GIT_ENOTFOUND) {
		sc_error("NOT-A-REPOSITORY", "'%s': not a git repository", dir);
		return SC_GITOPEN_NOT_FOUND;
	}
	if (e && e->klass == GIT_ERROR_REPOSITORY &&
	    !strncmp(msg, "unsupported", 11)) {
		ext = strstr(msg, "extensions.");
		return unsupported(dir, ext ? extension_name(ext) : msg);
	}
	sc_error("GIT-FAILED", "'%s': cannot open the repository: %s", dir, msg);
	return SC_GITOPEN_FAILED;
}

int sc_gitopen(git_repository **out, const char *dir)
{
	git_repository *repo = NULL;
	int err, status;

	*out = NULL;
	if (sc_gitopen_init() < 0)
		return SC_GITOPEN_FAILED;
	/* flags 0: search upwards from DIR, stop at a file system boundary,
	 * and above all no GIT_REPOSITORY_OPEN_FROM_ENV */
	err = git_repository_open_ext(&repo, dir, 0, NULL);
	if (err < 0)
		return open_failed(err, dir);
	status = check_extensions(repo, dir);
	if (status != SC_GITOPEN_OK) {
		git_repository_free(repo);
		return status;
	}
	*out = repo;
	return SC_GITOPEN_OK;
}
