/*
 * sc-sandbox-exec on Linux: the command's private TMPDIR, a tmpfs inside
 * the namespace in the full tier, on disk with a janitor that removes it
 * in the others, and the environment that names it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "env.h"
#include "sandbox-int.h"
#include "sandbox.h"

static int make_tmpdir(struct plan *pl)
{
	const char *base = sc_env_tmpdir();
	struct sc_buf b = SC_BUF_INIT;

	sc_buf_addf(&b, "%s/" SC_SANDBOX_TMPDIR_TEMPLATE, base);
	if (!mkdtemp(b.data)) {
		sc_buf_release(&b);
		return sc_error_errno("TMPDIR-FAILED", "cannot create a private "
				      "temporary directory in '%s'", base);
	}
	pl->tmpdir = realpath(b.data, NULL);
	sc_buf_release(&b);
	if (!pl->tmpdir)
		return sc_error_errno("TMPDIR-FAILED", "cannot resolve TMPDIR");
	return 0;
}

static int start_janitor(struct plan *pl);

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * The private TMPDIR, writable, and the command's environment naming it.
 * The full tier mounts a tmpfs of its own on a directory of its private
 * /dev/shm: nothing is made on disk, so nothing is left behind however the
 * launcher ends (a SIGKILL to its process group included), and no disk
 * inode is made and freed per command.  The other tiers have no mount
 * namespace: they make one on disk and remove it at the end.
 */
int sc_sandbox_plan_tmpdir(struct plan *pl, enum tier tier)
{
	const struct sc_sandbox_policy *pol = pl->pol;
	char name[64];

	if (tier == TIER_FULL && is_dir("/dev/shm")) {
		snprintf(name, sizeof(name), "/dev/shm/sc-sandbox.%d", (int)getpid());
		pl->tmpdir = sc_xstrdup(name);
		pl->tmpdir_in_ns = 1;
	} else {
		if (make_tmpdir(pl) < 0)
			return -1;
		if (start_janitor(pl) < 0) {
			rmdir(pl->tmpdir);
			free(pl->tmpdir);
			pl->tmpdir = NULL;
			return -1;
		}
	}
	sc_strlist_add(&pl->writable, pl->tmpdir);
	/* On disk it may lie in a hidden directory: shown again there. */
	if (!pl->tmpdir_in_ns)
		sc_strlist_add(&pl->shown, pl->tmpdir);
	pl->env = sc_env_build(pl->envp, (enum sc_env_mode)pol->env,
			       pol->env_keep.v, pol->env_keep.nr, pl->tmpdir);
	if (pol->net == SC_NET_HOSTS)
		pl->proxy_env = sc_netproxy_env_apply(pl->env);
	return 0;
}

/*
 * Remove the private TMPDIR and what the command left in it, never
 * following a symlink it planted: every step is relative to an open
 * directory and uses AT_SYMLINK_NOFOLLOW semantics.
 */
static void remove_tree_at(int at, const char *name, int depth)
{
	int fd;
	DIR *d;
	struct dirent *de;

	if (!unlinkat(at, name, 0) || errno == ENOENT)
		return;
	if (depth > 256)
		return;
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			remove_tree_at(dirfd(d), de->d_name, depth + 1);
	closedir(d);
	unlinkat(at, name, AT_REMOVEDIR);
}

/*
 * The janitor's life: in a session of its own, so that a signal to our
 * process group (an executor killing its agent with SIGKILL) leaves it
 * alone, holding nothing of the caller's (a shell reading our output
 * would wait for it), it waits for the end of the pipe, which comes when
 * we end however we end, and removes TMPDIR.
 */
static _Noreturn void janitor_main(const char *tmpdir, int fd)
{
	sigset_t none;
	char c;
	int null;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* Above 2 first: with a closed stdin the pipe may be descriptor 0,
	 * which /dev/null is about to take. */
	fd = fcntl(fd, F_DUPFD, 3);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0 || setsid() < 0 || null < 0 || dup2(null, 0) < 0 ||
	    dup2(null, 1) < 0 || dup2(null, 2) < 0 || dup2(fd, 3) < 0)
		_exit(1);
	close_range(4, ~0U, 0);
	/* Only the end of the pipe says we are gone; bytes mean nothing. */
	for (;;) {
		ssize_t n = read(3, &c, 1);

		if (n == 0 || (n < 0 && errno != EINTR))
			break;
	}
	if (rmdir(tmpdir) < 0 && errno != ENOENT)
		remove_tree_at(AT_FDCWD, tmpdir, 0);
	_exit(0);
}

/*
 * The tiers without a mount namespace keep TMPDIR on disk, which only a
 * process that outlives us can remove after a SIGKILL: one small process
 * per command, started before the command.
 */
static int start_janitor(struct plan *pl)
{
	int p[2], i;

	if (pipe2(p, O_CLOEXEC) < 0)
		return sc_error_errno("TMPDIR-FAILED", "cannot make a pipe");
	/* A caller that closed stdio would have the pipe take 0, 1 or 2,
	 * and our diagnostics would go into it: keep both ends above. */
	for (i = 0; i < 2; i++)
		if (p[i] <= 2) {
			int fd = fcntl(p[i], F_DUPFD_CLOEXEC, 3);

			close(p[i]);
			p[i] = fd;
		}
	if (p[0] < 0 || p[1] < 0) {
		if (p[0] >= 0)
			close(p[0]);
		if (p[1] >= 0)
			close(p[1]);
		return sc_error_errno("TMPDIR-FAILED", "cannot make a pipe");
	}
	pl->janitor = fork();
	if (pl->janitor < 0) {
		close(p[0]);
		close(p[1]);
		return sc_error_errno("TMPDIR-FAILED", "cannot start the process "
				      "that removes TMPDIR");
	}
	if (!pl->janitor)
		janitor_main(pl->tmpdir, p[0]);
	close(p[0]);
	pl->janitor_fd = p[1];
	return 0;
}

/*
 * Undo sc_sandbox_plan_tmpdir: the directory on disk, its writable and
 * shown entries (the last of each), the environments.
 */
void sc_sandbox_plan_tmpdir_release(struct plan *pl)
{
	if (pl->tmpdir) {
		if (!pl->tmpdir_in_ns && rmdir(pl->tmpdir) < 0 && errno != ENOENT)
			remove_tree_at(AT_FDCWD, pl->tmpdir, 0);
		/* The janitor finds it gone, and ends. */
		if (pl->janitor_fd >= 0)
			close(pl->janitor_fd);
		pl->janitor_fd = -1;
		pl->janitor = 0;
		if (!pl->tmpdir_in_ns) {
			free(pl->shown.v[--pl->shown.nr]);
			pl->shown.v[pl->shown.nr] = NULL;
		}
		free(pl->tmpdir);
		pl->tmpdir = NULL;
		pl->tmpdir_in_ns = 0;
		free(pl->writable.v[--pl->writable.nr]);
		pl->writable.v[pl->writable.nr] = NULL;
	}
	if (pl->env)
		sc_env_free(pl->env);
	if (pl->proxy_env)
		sc_env_free(pl->proxy_env);
	pl->env = pl->proxy_env = NULL;
}
