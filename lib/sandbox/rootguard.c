/*
 * The read-only defaults of a writable root (rootguard.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "paths.h"
#include "protected.h"
#include "rootguard.h"

/*
 * Files a shell (or git) reads at start-up and runs: a root that is
 * someone's home, or a project that ships dotfiles.  Folded names.
 */
static const char *const startup_files[] = {
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc",
	".mkshrc", ".cshrc", ".tcshrc", ".login", ".logout", ".gitconfig",
	NULL,
};

static int is_startup_file(const char *folded)
{
	size_t i;

	for (i = 0; startup_files[i]; i++)
		if (!strcmp(folded, startup_files[i]))
			return 1;
	return 0;
}

int sc_rootguard_check_writable(const char *root, const char *real,
				const char *given)
{
	if (sc_path_is_beneath(real, root))
		return 0;
	return sc_error("WRITABLE-OUTSIDE-ROOT", "'%s' lies outside the root "
			"'%s': --writable makes a path inside the root writable; "
			"--writable-outside names one outside it", given, root);
}

void sc_rootguard_note_outside(const char *root, const char *real)
{
	if (!sc_path_is_beneath(real, root))
		sc_warning("WRITABLE-OUTSIDE", "'%s' is writable although it "
			   "lies outside the root (--writable-outside)", real);
}

static void add_real(struct sc_strlist *out, const char *path)
{
	char *real = realpath(path, NULL);

	if (real)
		sc_strlist_add(out, real);
	free(real);
}

char *sc_read_pointer(const char *file, const char *prefix)
{
	char line[PATH_MAX + 16];
	struct sc_buf path = SC_BUF_INIT;
	size_t plen = strlen(prefix);
	/* A regular file only: a FIFO put there would block us forever. */
	int fd = open(file, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	FILE *fp = NULL;
	const char *slash;
	struct stat st;
	int ok;

	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
			!(fp = fdopen(fd, "r"))))
		close(fd);
	if (!fp)
		return NULL;
	ok = fgets(line, sizeof(line), fp) != NULL;
	fclose(fp);
	line[ok ? strcspn(line, "\r\n") : 0] = '\0';
	if (!ok || strncmp(line, prefix, plen) || !line[plen])
		return NULL;
	if (line[plen] != '/') {
		slash = strrchr(file, '/');
		sc_buf_add(&path, file, slash ? (size_t)(slash - file) : 0);
		sc_buf_addch(&path, '/');
	}
	sc_buf_adds(&path, line + plen);
	return sc_buf_detach(&path, NULL);
}

static int file_exists(const char *dir, const char *name)
{
	struct sc_buf b = SC_BUF_INIT;
	struct stat st;
	int ret;

	sc_buf_addf(&b, "%s/%s", dir, name);
	ret = !stat(b.data, &st) && S_ISREG(st.st_mode);
	sc_buf_release(&b);
	return ret;
}

/*
 * A git directory outside the root that git itself would put there: a
 * linked worktree's (it names its common directory) or a submodule's
 * (inside the superproject's "modules" directory).  Anything else is a
 * .git file we cannot vouch for.
 */
static int is_foreign_gitdir(const char *gitdir)
{
	if (file_exists(gitdir, "commondir"))
		return 1;
	return strstr(gitdir, "/modules/") && file_exists(gitdir, "HEAD");
}

char *sc_read_commondir(const char *gitdir)
{
	struct sc_buf file = SC_BUF_INIT;
	char *common;

	sc_buf_addf(&file, "%s/commondir", gitdir);
	common = sc_read_pointer(file.data, "");
	sc_buf_release(&file);
	return common;
}

/* A linked worktree's git directory and the common one it names. */
static void add_gitdir(struct sc_strlist *out, const char *gitdir)
{
	char *common = sc_read_commondir(gitdir);

	sc_strlist_add(out, gitdir);
	if (common)
		add_real(out, common);
	free(common);
}

/* ROOT/.git is a file: "gitdir: PATH" names the real git directory. */
static int guard_gitfile(const char *root, const char *dotgit,
			 struct sc_strlist *out)
{
	char *ptr = sc_read_pointer(dotgit, "gitdir: "), *real;
	struct stat st;
	int ret = 0;

	if (!ptr)
		return sc_error("BAD-GITDIR", "'%s' names no git directory", dotgit);
	real = realpath(ptr, NULL);
	if (!real || stat(real, &st) < 0 || !S_ISDIR(st.st_mode))
		ret = sc_error("BAD-GITDIR", "'%s' names a missing directory '%s'",
			       dotgit, ptr);
	else if (!sc_path_is_beneath(real, root) && !is_foreign_gitdir(real))
		ret = sc_error("BAD-GITDIR", "'%s' points outside the root to "
			       "'%s', which is no linked worktree's or "
			       "submodule's git directory", dotgit, real);
	else
		add_gitdir(out, real);
	free(real);
	free(ptr);
	return ret;
}

static int guard_dotgit(const char *root, struct sc_strlist *out)
{
	struct sc_buf dotgit = SC_BUF_INIT;
	struct stat st, target;
	int ret = 0;

	sc_buf_addf(&dotgit, "%s/.git", root);
	if (lstat(dotgit.data, &st) < 0)
		ret = 0;    /* no repository: nothing to keep */
	else if (S_ISREG(st.st_mode)) {
		/* The file itself too: pointed elsewhere, at a git directory
		 * the command made in the root, it would hand that
		 * directory's hooks and config to the person's next git. */
		ret = guard_gitfile(root, dotgit.data, out);
		if (!ret)
			add_real(out, dotgit.data);
	}
	else if (!S_ISLNK(st.st_mode) && !S_ISDIR(st.st_mode))
		ret = sc_error("BAD-GITDIR", "'%s' is neither a directory nor a "
			       "file naming one", dotgit.data);
	else if (stat(dotgit.data, &target) < 0 || !S_ISDIR(target.st_mode))
		ret = sc_error("BAD-GITDIR", "'%s' names a missing directory",
			       dotgit.data);
	else
		add_real(out, dotgit.data);
	sc_buf_release(&dotgit);
	return ret;
}

/* Judge one top-level NAME with the policy's table and the list above. */
static void guard_name(const char *root, const char *name,
		       struct sc_strlist *out)
{
	struct sc_buf folded = SC_BUF_INIT, path = SC_BUF_INIT;

	sc_path_fold(name, strlen(name), &folded);
	if (strcmp(name, ".git") &&
	    (sc_protected_is(SC_PROT_GIT, folded.data) ||
	     sc_protected_is(SC_PROT_AGENT_CONFIG, folded.data) ||
	     is_startup_file(folded.data))) {
		sc_buf_addf(&path, "%s/%s", root, name);
		add_real(out, path.data);
	}
	sc_buf_release(&folded);
	sc_buf_release(&path);
}

int sc_rootguard_paths(const char *root, struct sc_strlist *out)
{
	struct sc_strlist names = { 0 };
	size_t i;
	int dfd;

	if (guard_dotgit(root, out) < 0)
		return -1;
	dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return sc_error_errno("BAD-ROOT", "cannot read '%s'", root);
	if (sc_dir_list(dfd, SIZE_MAX, &names) < 0) {
		close(dfd);
		return sc_error_errno("BAD-ROOT", "cannot list '%s'", root);
	}
	close(dfd);
	for (i = 0; i < names.nr; i++)
		guard_name(root, names.v[i], out);
	sc_strlist_release(&names);
	return 0;
}

const char *const *sc_rootguard_startup_files(void)
{
	return startup_files;
}

int sc_rootguard_resolve(const char *root, const struct sc_strlist *writable,
			 struct sc_strlist *keep, struct sc_strlist *lifted)
{
	struct sc_strlist guard = { 0 };
	size_t i, j;
	int lift;

	if (sc_rootguard_paths(root, &guard) < 0) {
		sc_strlist_release(&guard);
		return -1;
	}
	for (i = 0; i < guard.nr; i++) {
		const char *p = guard.v[i];

		lift = 0;
		for (j = 0; j < writable->nr; j++) {
			const char *w = writable->v[j];

			if (!strcmp(w, root) || !sc_path_is_beneath(w, p))
				continue;
			if (!strcmp(w, p)) {
				lift = 1;
				sc_warning("PROTECTION-LIFTED", "'%s' is writable: "
					   "--writable lifts its default protection", p);
			} else {
				sc_warning("PROTECTION-LIFTED", "'%s' is writable "
					   "inside '%s', read-only by default", w, p);
			}
		}
		sc_strlist_add(lift ? lifted : keep, p);
	}
	sc_strlist_release(&guard);
	return 0;
}

int sc_rootguard_check_root(const char *arg)
{
	char *path = sc_xstrdup(arg);
	size_t n = strlen(path);
	struct stat st;
	int ret = 0;

	/* "dir/" would follow a symlink "dir": judge the name itself. */
	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
	if (!strcmp(path, "/"))
		ret = sc_error("BAD-ROOT", "refusing '/' as the root");
	else if (lstat(path, &st) < 0)
		ret = sc_error_errno("BAD-ROOT", "cannot resolve '%s'", arg);
	else if (S_ISLNK(st.st_mode))
		ret = sc_error("BAD-ROOT", "'%s' is a symlink: name the directory "
			       "it points to", arg);
	else if (!S_ISDIR(st.st_mode))
		ret = sc_error("BAD-ROOT", "'%s' is not a directory", arg);
	else if (access(path, R_OK | X_OK) < 0)
		ret = sc_error_errno("BAD-ROOT", "cannot read '%s'", arg);
	free(path);
	return ret;
}
