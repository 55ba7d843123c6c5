/*
 * sc-sandbox-exec on Linux.  See sandbox-linux.h for the shape; the steps
 * below run in a fixed order, each commented with why.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "env.h"
#include "io.h"
#include "landlock.h"
#include "mountinfo.h"
#include "netproxy.h"
#include "passwd.h"
#include "record.h"
#include "rectable.h"
#include "rootguard.h"
#include "sandbox-linux.h"
#include "seccomp-filter.h"

#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

/* The Landlock ABI below which the sandbox refuses under --mode required. */
#define LANDLOCK_MIN_ABI 3

/* Bound of the Unix-socket scan: it runs before every command. */
#define SOCKET_SCAN_ENTRIES 100000

static const char *const default_hidden[] = {
	"~/.ssh", "~/.aws", "~/.azure", "~/.gnupg", "~/.netrc", "~/.docker",
	"~/.kube", "~/.npmrc", "~/.pypirc", "~/.git-credentials",
	"~/.password-store", "~/.config/gh", "~/.config/gcloud",
	"~/.config/git/credentials", "~/.cargo/credentials",
	"~/.cargo/credentials.toml", "~/.local/share/keyrings",
	"~/.vault-token", NULL,
};

/* Device files a command may write to; every other device stays shut. */
static const char *const writable_devices[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/tty", "/dev/ptmx", "/dev/pts", NULL,
};

const char *const *sc_sandbox_default_hidden(void)
{
	return default_hidden;
}

enum tier { TIER_OFF, TIER_FULL, TIER_LANDLOCK };

/* A path bound back onto itself, writable or read-only. */
struct bind {
	char *path;
	int writable;
};

/* Everything resolved before anything runs. */
struct plan {
	const struct sc_sandbox_policy *pol;
	enum tier tier;
	int abi;
	uid_t uid;
	gid_t gid;
	char *cwd;
	char *tmpdir;
	struct sc_strlist writable;     /* resolved: root, TMPDIR, --writable */
	struct bind *binds;
	size_t nbinds, abinds;
	struct sc_strlist hide_dirs, hide_files, sockets;
	int tmpdir_in_ns;               /* TMPDIR exists only in the namespace */
	pid_t janitor;                  /* removes an on-disk TMPDIR if we die */
	int janitor_fd;                 /* its pipe: EOF when we are gone */
	struct sc_strlist shown;        /* root, --writable, TMPDIR: kept inside
					 * a hidden directory */
	char **env;
	char *const *envp;              /* the caller's environment */
	char *const *argv;
	/* --network hosts: the list, the record log, the proxy (full tier
	 * only) and the environment pointing at it. */
	struct sc_hostlist hosts;
	int conn_fd;
	struct sc_netproxy proxy;
	char **proxy_env;
	int report;                     /* write end of the report pipe */
	sigset_t sigmask;               /* the caller's, for the command */
	int out[2];                     /* stdout/stderr pipe write ends */
};

/* What the sandbox tells the supervisor through the report pipe. */
enum { REPORT_SETUP_FAILED = 1, REPORT_STATUS };
struct report {
	int kind;
	int value;
};

static void send_report(int fd, int kind, int value)
{
	struct report r = { kind, value };

	/* A pipe write this small is atomic; nothing to do if it fails. */
	if (write(fd, &r, sizeof(r)) < 0)
		return;
}

/* ---- resolving the policy ---------------------------------------- */

static int is_beneath(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return 1;
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

static int beneath_any(const char *path, const struct sc_strlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (is_beneath(path, l->v[i]))
			return 1;
	return 0;
}

static void add_bind(struct plan *pl, const char *path, int writable)
{
	SC_ALLOC_GROW(pl->binds, pl->nbinds + 1, pl->abinds);
	pl->binds[pl->nbinds].path = sc_xstrdup(path);
	pl->binds[pl->nbinds].writable = writable;
	pl->nbinds++;
}

static int resolve_dir(const char *path, const char *code, char **out)
{
	char *real = realpath(path, NULL);
	struct stat st;

	if (!real || stat(real, &st) < 0)
		return sc_error_errno(code, "cannot resolve '%s'", path);
	*out = real;
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
		return sc_error(code, "'%s' is not a directory or file", path);
	return 0;
}

/*
 * One writable path, resolved.  OUTSIDE: asked for by --writable-outside,
 * named on stderr when it lies outside ROOT; else it must lie inside.
 */
static int resolve_one_writable(struct plan *pl, const char *root,
				const char *given, int outside)
{
	char *path = sc_expand_home(given), *real = NULL;
	int ret = -1;

	if (resolve_dir(path, "BAD-WRITABLE", &real) < 0)
		goto out;
	if (!strcmp(real, "/") || !strncmp(real, "/proc", 5) ||
	    !strncmp(real, "/sys", 4) || !strncmp(real, "/dev", 4)) {
		sc_error("BAD-WRITABLE", "refusing to make '%s' writable", real);
		goto out;
	}
	if (outside)
		sc_rootguard_note_outside(root, real);
	else if (sc_rootguard_check_writable(root, real, given) < 0)
		goto out;
	sc_strlist_add(&pl->writable, real);
	sc_strlist_add(&pl->shown, real);
	add_bind(pl, real, 1);
	ret = 0;
out:
	free(real);
	free(path);
	return ret;
}

static int resolve_writable(struct plan *pl, const struct sc_sandbox_policy *pol,
			    const char *root)
{
	size_t i;

	for (i = 0; i < pol->writable.nr; i++)
		if (resolve_one_writable(pl, root, pol->writable.v[i], 0) < 0)
			return -1;
	for (i = 0; i < pol->writable_outside.nr; i++)
		if (resolve_one_writable(pl, root, pol->writable_outside.v[i],
					 1) < 0)
			return -1;
	return 0;
}

/* Bind PATH read-only when it exists and lies inside a writable path. */
static void add_implicit_read_only(struct plan *pl, const char *path)
{
	char *real = realpath(path, NULL);

	if (real && beneath_any(real, &pl->writable))
		add_bind(pl, real, 0);
	free(real);
}

/*
 * A linked worktree's ".git" is a file naming its git directory
 * ("gitdir: PATH"), whose "commondir" names the main repository's: both
 * decide what git does (hooks, config, refs), so both stay read-only too.
 */
static void add_gitdirs(struct plan *pl, const char *dotgit)
{
	char *gitdir = sc_read_pointer(dotgit, "gitdir: "), *common;

	if (!gitdir)
		return;
	add_implicit_read_only(pl, gitdir);
	common = sc_read_commondir(gitdir);
	if (common)
		add_implicit_read_only(pl, common);
	free(common);
	free(gitdir);
}

/*
 * Paths that stay read-only inside writable ones: --read-only, plus the
 * places a command must never write even when a parent is writable:
 * speccoder's state directory and ~/.cargo/bin.
 */
static int resolve_read_only(struct plan *pl, const struct sc_sandbox_policy *pol)
{
	const char *state = getenv("XDG_STATE_HOME");
	char *path;
	size_t i;

	for (i = 0; i < pol->read_only.nr; i++) {
		char *real = NULL;
		struct stat st;

		if (resolve_dir(pol->read_only.v[i], "BAD-PATH", &real) < 0) {
			free(real);
			return -1;
		}
		add_bind(pl, real, 0);
		if (!stat(real, &st) && S_ISREG(st.st_mode))
			add_gitdirs(pl, real);
		free(real);
	}
	path = sc_expand_home("~/.cargo/bin");
	add_implicit_read_only(pl, path);
	free(path);
	if (state && *state == '/') {
		struct sc_buf b = SC_BUF_INIT;

		sc_buf_addf(&b, "%s/speccoder", state);
		add_implicit_read_only(pl, b.data);
		sc_buf_release(&b);
	} else {
		path = sc_expand_home("~/.local/state/speccoder");
		add_implicit_read_only(pl, path);
		free(path);
	}
	return 0;
}

static void add_hidden(struct plan *pl, const char *path)
{
	char *real;
	struct stat st;

	/*
	 * Most credential paths do not exist: one lstat says so, where
	 * realpath would read every component as a link first (measured: the
	 * largest user of the launcher's time after the kernel's own work).
	 */
	if (lstat(path, &st) < 0 && errno == ENOENT)
		return;
	real = realpath(path, NULL);
	/* Follow a symlinked ~/.ssh to what it names: hide that. */
	if (!real || stat(real, &st) < 0) {
		free(real);
		return;    /* nothing there to hide */
	}
	if (S_ISDIR(st.st_mode))
		sc_strlist_add(&pl->hide_dirs, real);
	else
		sc_strlist_add(&pl->hide_files, real);
	free(real);
}

static void add_hidden_under(struct plan *pl, const char *home,
			     const char *pattern)
{
	struct sc_buf b = SC_BUF_INIT;

	if (!strncmp(pattern, "~/", 2)) {
		sc_buf_addf(&b, "%s/%s", home, pattern + 2);
		add_hidden(pl, b.data);
		sc_buf_release(&b);
	} else {
		add_hidden(pl, pattern);
	}
}

/*
 * A hidden path shown again by another mount (a bind mount of the home
 * directory elsewhere) is hidden there too.
 */
static void add_aliases(const struct sc_mount_table *t, struct sc_strlist *l)
{
	size_t i, n = l->nr;

	for (i = 0; i < n; i++)
		sc_mount_aliases(t, l->v[i], l);
}

static void resolve_aliases(struct plan *pl)
{
	struct sc_mount_table t = SC_MOUNT_TABLE_INIT;

	if (sc_mount_table_read(&t, "/proc/self/mountinfo") < 0)
		sc_warning("MOUNT-SCAN-CUT", "cannot read every mount: a hidden "
			   "path may stay readable through another one");
	add_aliases(&t, &pl->hide_dirs);
	add_aliases(&t, &pl->hide_files);
	sc_mount_table_release(&t);
}

/*
 * The homes whose credentials are hidden: $HOME and the uid's home in
 * /etc/passwd (read without NSS: passwd.h).  A uid only a directory
 * service knows leaves $HOME alone, which is said; no home at all is
 * refused, since then no credential could be hidden.
 */
static int resolve_homes(const char *homes[2], char **pw_home)
{
	const char *home = getenv("HOME");
	uid_t uid = getuid();

	homes[0] = home && *home ? home : NULL;
	homes[1] = NULL;
	if (sc_passwd_home("/etc/passwd", uid, pw_home) == SC_PASSWD_FOUND) {
		if (!homes[0] || strcmp(*pw_home, homes[0]))
			homes[1] = *pw_home;
		return 0;
	}
	if (!homes[0])
		return sc_error("NO-HOME", "HOME is not set and uid %u has no "
				"entry in /etc/passwd: no home whose credentials "
				"to hide; set HOME", (unsigned)uid);
	sc_warning("HOME-NOT-IN-PASSWD", "uid %u has no entry in /etc/passwd "
		   "(a directory service is not asked): hiding the credentials "
		   "under $HOME only", (unsigned)uid);
	return 0;
}

static int resolve_hidden(struct plan *pl, const struct sc_sandbox_policy *pol)
{
	const char *homes[2];
	char *pw_home = NULL;
	size_t i, h;

	if (resolve_homes(homes, &pw_home) < 0)
		return -1;
	for (h = 0; h < 2; h++)
		for (i = 0; homes[h] && default_hidden[i]; i++)
			add_hidden_under(pl, homes[h], default_hidden[i]);
	free(pw_home);
	/*
	 * A command started with another HOME (an external agent gets a
	 * private one) must not read the person's credentials either.
	 */
	for (h = 0; h < pol->hide_homes.nr; h++)
		for (i = 0; default_hidden[i]; i++)
			add_hidden_under(pl, pol->hide_homes.v[h],
					 default_hidden[i]);
	for (i = 0; i < pol->hide.nr; i++) {
		char *path = sc_expand_home(pol->hide.v[i]);

		add_hidden(pl, path);
		free(path);
	}
	resolve_aliases(pl);
	return 0;
}

/*
 * Unix sockets on disk are out of reach of every other layer (Landlock up
 * to ABI 7, seccomp, a read-only mount), so the full tier masks each one
 * bound in this network namespace: the kernel lists them, with the path
 * they were bound to, in /proc/net/unix.  A socket inside a writable path
 * stays usable.
 */
static void add_socket(struct plan *pl, const char *path)
{
	struct stat st;
	size_t i;

	if (lstat(path, &st) < 0 || !S_ISSOCK(st.st_mode) ||
	    beneath_any(path, &pl->writable))
		return;
	for (i = 0; i < pl->sockets.nr; i++)
		if (!strcmp(pl->sockets.v[i], path))
			return;
	sc_strlist_add(&pl->sockets, path);
}

static void resolve_sockets(struct plan *pl)
{
	const char *agent = getenv("SSH_AUTH_SOCK");
	FILE *fp = fopen("/proc/net/unix", "re");
	char *line = NULL;
	size_t cap = 0, lines = 0;

	if (agent && *agent == '/')
		add_socket(pl, agent);
	if (!fp) {
		sc_warning("SOCKET-SCAN-CUT", "cannot read /proc/net/unix");
		return;
	}
	while (getline(&line, &cap, fp) > 0) {
		char *path = strchr(line, '/');
		size_t n;

		if (++lines > SOCKET_SCAN_ENTRIES) {
			sc_warning("SOCKET-SCAN-CUT", "stopped looking for Unix "
				   "sockets after %d entries", SOCKET_SCAN_ENTRIES);
			break;
		}
		/* "Num RefCount Protocol Flags Type St Inode Path": a path
		 * starting with '/' is on disk; '@' is abstract. */
		if (!path || path[-1] != ' ')
			continue;
		n = strcspn(path, "\n");
		path[n] = '\0';
		add_socket(pl, path);
	}
	free(line);
	fclose(fp);
}

/*
 * The root's read-only defaults (rootguard.h), unless a --writable path
 * lifts one: that is said on stderr, as is a --writable path inside one.
 */
static int guard_root(struct plan *pl, const char *root)
{
	struct sc_strlist keep = { 0 }, lifted = { 0 };
	size_t i;
	int ret = sc_rootguard_resolve(root, &pl->writable, &keep, &lifted);

	for (i = 0; !ret && i < keep.nr; i++)
		add_implicit_read_only(pl, keep.v[i]);
	sc_strlist_release(&keep);
	sc_strlist_release(&lifted);
	return ret;
}

static int bind_cmp(const void *a, const void *b)
{
	const struct bind *x = a, *y = b;
	size_t lx = strlen(x->path), ly = strlen(y->path);

	/* Parents before children, so an inner read-only bind stays on top. */
	return lx < ly ? -1 : lx > ly;
}

static int make_tmpdir(struct plan *pl)
{
	const char *base = getenv("TMPDIR");
	struct sc_buf b = SC_BUF_INIT;

	if (!base || *base != '/')
		base = "/tmp";
	sc_buf_addf(&b, "%s/sc-sandbox.XXXXXX", base);
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

/* --network hosts: the list and the record log (the proxied environment
 * comes with TMPDIR's, in plan_tmpdir). */
static int plan_hosts(struct plan *pl, const struct sc_sandbox_policy *pol)
{
	size_t i;

	for (i = 0; i < pol->allow_hosts.nr; i++) {
		const char *why;

		if (sc_hostlist_add(&pl->hosts, pol->allow_hosts.v[i], &why) < 0)
			return sc_error("BAD-HOST", "'%s': %s",
					pol->allow_hosts.v[i], why);
	}
	if (pol->connections &&
	    (pl->conn_fd = sc_netproxy_open_log(pol->connections)) < 0)
		return -1;
	return 0;
}

static int plan_resolve(struct plan *pl, const struct sc_sandbox_policy *pol,
			char *const argv[], char *const envp[])
{
	char *root = NULL;

	memset(pl, 0, sizeof(*pl));
	pl->pol = pol;
	pl->argv = argv;
	pl->uid = getuid();
	pl->gid = getgid();
	pl->report = pl->out[0] = pl->out[1] = pl->janitor_fd = -1;
	pl->conn_fd = pl->proxy.inside = -1;
	pl->abi = sc_landlock_abi();
	pl->cwd = getcwd(NULL, 0);
	if (!pl->cwd)
		return sc_error_errno("BAD-CWD", "cannot find the current "
				      "directory");
	if (sc_rootguard_check_root(pol->root ? pol->root : ".") < 0 ||
	    resolve_dir(pol->root ? pol->root : ".", "BAD-ROOT", &root) < 0) {
		free(root);
		return -1;
	}
	if (!strcmp(root, "/")) {
		free(root);
		return sc_error("BAD-ROOT", "refusing '/' as the root");
	}
	sc_strlist_add(&pl->shown, root);
	if (!pol->root_read_only) {
		sc_strlist_add(&pl->writable, root);
		add_bind(pl, root, 1);
	}
	if (resolve_writable(pl, pol, root) < 0 || resolve_read_only(pl, pol) < 0 ||
	    (!pol->root_read_only && guard_root(pl, root) < 0)) {
		free(root);
		return -1;
	}
	free(root);
	if (resolve_hidden(pl, pol) < 0)
		return -1;
	qsort(pl->binds, pl->nbinds, sizeof(*pl->binds), bind_cmp);
	pl->envp = envp;
	return pol->net == SC_NET_HOSTS ? plan_hosts(pl, pol) : 0;
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
static int plan_tmpdir(struct plan *pl, enum tier tier)
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
 * Undo plan_tmpdir: the directory on disk, its writable and shown entries
 * (the last of each), the environments.
 */
static void plan_tmpdir_release(struct plan *pl)
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

static void plan_release(struct plan *pl)
{
	size_t i;

	plan_tmpdir_release(pl);
	for (i = 0; i < pl->nbinds; i++)
		free(pl->binds[i].path);
	free(pl->binds);
	free(pl->cwd);
	sc_strlist_release(&pl->writable);
	sc_strlist_release(&pl->hide_dirs);
	sc_strlist_release(&pl->hide_files);
	sc_strlist_release(&pl->sockets);
	sc_strlist_release(&pl->shown);
	sc_hostlist_release(&pl->hosts);
	if (pl->conn_fd >= 0)
		close(pl->conn_fd);
}

/* ---- protections: what each tier enforces ------------------------- */

/* Landlock can keep a hidden path unreadable only outside the writable ones. */
static int hidden_outside_writable(const struct plan *pl)
{
	size_t i;

	for (i = 0; i < pl->hide_dirs.nr; i++)
		if (beneath_any(pl->hide_dirs.v[i], &pl->writable))
			return 0;
	for (i = 0; i < pl->hide_files.nr; i++)
		if (beneath_any(pl->hide_files.v[i], &pl->writable))
			return 0;
	return 1;
}

/* Does some path stay read-only inside a writable one (only mounts can)? */
static int read_only_needed(const struct plan *pl)
{
	size_t i;

	for (i = 0; i < pl->nbinds; i++)
		if (!pl->binds[i].writable)
			return 1;
	return 0;
}

struct protection {
	const char *name;
	int needed;        /* does this policy ask for it */
	int full, landlock; /* enforced in each tier on this host */
};

enum {
	P_LANDLOCK, P_SYSCALLS, P_FS_WRITE, P_READ_ONLY, P_HIDDEN, P_NETWORK,
	P_UNIX_SOCKETS, P_ABSTRACT, P_PROCESSES, P_IPC, P_METADATA, P_KILL_ALL,
	P_COUNT
};

static int proc_children_available(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d/children",
		 (int)getpid());
	return !access(path, R_OK);
}

/*
 * HIDE_OK: no hidden path lies beneath a writable one, where Landlock
 * grants everything and cannot take reading back.
 */
static void protections(const struct sc_sandbox_policy *pol, int abi, int userns,
			int hide_ok, int ro_needed, struct protection p[P_COUNT])
{
	int ll = abi >= LANDLOCK_MIN_ABI, sec = sc_seccomp_available();
	int own_net = pol->net != SC_NET_FULL;

	p[P_LANDLOCK] = (struct protection){ "landlock", 1, ll, ll };
	p[P_SYSCALLS] = (struct protection){ "syscall-filter", 1, sec, sec };
	p[P_FS_WRITE] = (struct protection){ "write-confinement", 1, userns || ll, ll };
	p[P_READ_ONLY] = (struct protection){ "read-only-paths",
		ro_needed, userns, 0 };
	/* The landlock tier leaves them out of its read rules (see there). */
	p[P_HIDDEN] = (struct protection){ "hidden-credentials", 1, userns,
		ll && hide_ok };
	p[P_NETWORK] = (struct protection){ "network", own_net, userns,
		pol->net == SC_NET_NONE && sec };
	/* Mount masks in the full tier; Landlock's socket rule from ABI 9. */
	p[P_UNIX_SOCKETS] = (struct protection){ "unix-sockets", 1,
		userns || abi >= 9, abi >= 9 };
	p[P_ABSTRACT] = (struct protection){ "abstract-sockets", 1,
		(userns && own_net) || abi >= 6, abi >= 6 };
	p[P_PROCESSES] = (struct protection){ "process-isolation", 1, userns, 0 };
	p[P_IPC] = (struct protection){ "ipc-isolation", 1, userns, 0 };
	/* Landlock does not cover chmod, chown, utime or xattrs. */
	p[P_METADATA] = (struct protection){ "file-metadata", 1, userns, 0 };
	/* The landlock tier finds orphans through /proc/.../children. */
	p[P_KILL_ALL] = (struct protection){ "kill-all", 1, userns,
		proc_children_available() };
}

/*
 * Why the landlock tier cannot give network mode NET, or NULL.  It has no
 * network namespace, so the network is the host's: seccomp can refuse
 * every inet socket (none), but nothing narrower holds.  A host list
 * through the proxy would need the command to reach the proxy's TCP port
 * and nothing else, and Landlock (ABI 4 and later) limits TCP connect
 * by port only, never by address: that port would be open on every host
 * of the internet, an attacker's included, and UDP (so DNS) is outside
 * Landlock.  So the tier refuses instead of pretending.
 */
static const char *landlock_net_gap(int net)
{
	switch (net) {
	case SC_NET_LOOPBACK:
		return "no network namespace: the host's loopback services "
		       "would be the command's";
	case SC_NET_HOSTS:
		return "no network namespace: Landlock limits TCP connect by "
		       "port and never by address (the proxy's port would be "
		       "open on every host) and UDP is outside Landlock";
	default:
		return NULL;
	}
}

/*
 * Append the unenforced protections of TIER to OUT, or to ACCEPTED when
 * POL accepts going without them (--accept-gaps); how many went to OUT.
 */
static int unenforced(const struct sc_sandbox_policy *pol,
		      const struct protection p[P_COUNT], enum tier tier,
		      struct sc_buf *out, struct sc_buf *accepted)
{
	int i, n = 0;

	for (i = 0; i < P_COUNT; i++) {
		int ok = tier == TIER_FULL ? p[i].full : p[i].landlock;
		struct sc_buf *to = out;

		if (!p[i].needed || ok)
			continue;
		if (sc_sandbox_gap_accepted(pol, p[i].name))
			to = accepted;
		else
			n++;
		sc_buf_addf(to, "%s%s", to->len ? ", " : "", p[i].name);
		/* --network hosts is asked for by name: say why it cannot be
		 * (no comma: readers split this list on commas) */
		if (i == P_NETWORK && tier == TIER_LANDLOCK &&
		    pol->net == SC_NET_HOSTS)
			sc_buf_addf(to, " (%s)", landlock_net_gap(pol->net));
	}
	return n;
}

/* ---- inside: the namespaces' init (full tier) --------------------- */

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return sc_error_errno("NAMESPACE-FAILED", "cannot open %s", path);
	n = write(fd, text, strlen(text));
	close(fd);
	if (n != (ssize_t)strlen(text))
		return sc_error_errno("NAMESPACE-FAILED", "cannot write %s", path);
	return 0;
}

/* Map our own uid and gid onto themselves: files keep their owners. */
static int map_ids(const struct plan *pl)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%u %u 1\n", (unsigned)pl->uid,
		 (unsigned)pl->uid);
	if (write_file("/proc/self/uid_map", buf) < 0 ||
	    write_file("/proc/self/setgroups", "deny") < 0)
		return -1;
	snprintf(buf, sizeof(buf), "%u %u 1\n", (unsigned)pl->gid,
		 (unsigned)pl->gid);
	return write_file("/proc/self/gid_map", buf);
}

static int mount_error(const char *what, const char *path)
{
	return sc_error_errno("MOUNT-FAILED", "cannot %s '%s'", what, path);
}

/*
 * Bind PATH back onto itself, writable or read-only.  The tree is cloned
 * from a descriptor opened with O_NOFOLLOW and moved onto the same
 * descriptor, so a path swapped for a symlink meanwhile changes nothing.
 */
static int rebind(const struct bind *b)
{
	struct mount_attr attr = { 0 };
	int fd, tree, ret = 0;

	fd = open(b->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return mount_error("open", b->path);
	tree = open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
			 AT_EMPTY_PATH | AT_RECURSIVE);
	if (tree < 0) {
		close(fd);
		return mount_error("clone the mount at", b->path);
	}
	if (b->writable)
		attr.attr_clr = MOUNT_ATTR_RDONLY;
	else
		attr.attr_set = MOUNT_ATTR_RDONLY;
	attr.attr_set |= MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
	/* Only the top mount becomes writable; read-only covers all below. */
	if (mount_setattr(tree, "", AT_EMPTY_PATH |
			  (b->writable ? 0 : AT_RECURSIVE), &attr, sizeof(attr)) < 0)
		ret = mount_error("set the access of", b->path);
	else if (move_mount(tree, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH |
			    MOVE_MOUNT_T_EMPTY_PATH) < 0)
		ret = mount_error("bind", b->path);
	close(tree);
	close(fd);
	return ret;
}

/*
 * Is SHOWN (the root or a --writable path) to be put back inside the
 * hidden DIR: strictly beneath it, and not inside another such path
 * (whose clone brings it along).
 */
static int shown_in(const struct plan *pl, const char *shown, const char *dir)
{
	size_t i;

	if (!is_beneath(shown, dir) || !strcmp(shown, dir))
		return 0;
	for (i = 0; i < pl->shown.nr; i++)
		if (strcmp(pl->shown.v[i], shown) &&
		    is_beneath(shown, pl->shown.v[i]) &&
		    is_beneath(pl->shown.v[i], dir) &&
		    strcmp(pl->shown.v[i], dir))
			return 0;
	return 1;
}

/*
 * The mount point for PATH inside the fresh tmpfs at DIR: each directory
 * made and opened without following a symlink, the last one a directory
 * or an empty file as ISDIR says.  An O_PATH descriptor, or -1.
 */
static int make_mount_point(const char *dir, const char *path, int isdir)
{
	char *rel = sc_xstrdup(path + strlen(dir) + 1), *comp = rel, *slash;
	int at = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), next;

	while (at >= 0 && comp) {
		slash = strchr(comp, '/');
		if (slash)
			*slash = '\0';
		if (slash || isdir)
			next = mkdirat(at, comp, 0700) < 0 && errno != EEXIST ? -1 :
			       openat(at, comp, O_PATH | O_DIRECTORY |
				      O_NOFOLLOW | O_CLOEXEC);
		else
			next = openat(at, comp, O_WRONLY | O_CREAT | O_NOFOLLOW |
				      O_CLOEXEC, 0600);
		close(at);
		at = next;
		comp = slash ? slash + 1 : NULL;
	}
	free(rel);
	return at;
}

/*
 * Hide DIR, but keep the paths the command works in that lie beneath it
 * (speccoder's state directory holds the worktree in use): each is cloned
 * before a fresh tmpfs covers DIR, moved back onto a mount point made in
 * it, and the tmpfs then made read-only.  Nothing else of DIR shows.
 */
static int hide_dir(const struct plan *pl, const char *dir)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
	int *trees = sc_xcalloc(pl->shown.nr + 1, sizeof(*trees)), ret = 0;
	size_t i, n = 0;

	for (i = 0; i < pl->shown.nr; i++)
		trees[i] = -1;
	for (i = 0; !ret && i < pl->shown.nr; i++) {
		if (!shown_in(pl, pl->shown.v[i], dir))
			continue;
		trees[i] = open_tree(AT_FDCWD, pl->shown.v[i], OPEN_TREE_CLONE |
				     OPEN_TREE_CLOEXEC | AT_RECURSIVE);
		if (trees[i] < 0)
			ret = mount_error("clone the mount at", pl->shown.v[i]);
		n++;
	}
	if (!ret && mount("tmpfs", dir, "tmpfs",
			  (n ? 0 : MS_RDONLY) | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  n ? "mode=0700,size=64k,nr_inodes=4096"
			    : "mode=0700,size=4k,nr_inodes=4") < 0)
		ret = mount_error("hide", dir);
	for (i = 0; !ret && i < pl->shown.nr; i++) {
		struct stat st;
		int at;

		if (trees[i] < 0)
			continue;
		at = fstat(trees[i], &st) < 0 ? -1 :
		     make_mount_point(dir, pl->shown.v[i], S_ISDIR(st.st_mode));
		if (at < 0 || move_mount(trees[i], "", at, "",
					 MOVE_MOUNT_F_EMPTY_PATH |
					 MOVE_MOUNT_T_EMPTY_PATH) < 0)
			ret = mount_error("show again", pl->shown.v[i]);
		if (at >= 0)
			close(at);
	}
	if (!ret && n && mount_setattr(AT_FDCWD, dir, 0, &ro, sizeof(ro)) < 0)
		ret = mount_error("make read-only", dir);
	for (i = 0; i < pl->shown.nr; i++)
		if (trees[i] >= 0)
			close(trees[i]);
	free(trees);
	return ret;
}

/*
 * Credential directories look empty (but for the root or a writable path
 * inside one); credential files read as empty.
 */
static int hide_paths(const struct plan *pl)
{
	size_t i;

	for (i = 0; i < pl->hide_dirs.nr; i++)
		if (hide_dir(pl, pl->hide_dirs.v[i]) < 0)
			return -1;
	for (i = 0; i < pl->hide_files.nr; i++)
		if (mount("/dev/null", pl->hide_files.v[i], NULL, MS_BIND, NULL) < 0)
			return mount_error("hide", pl->hide_files.v[i]);
	return 0;
}

/* A socket already under a hidden directory is gone: ENOENT is fine. */
static int mask_sockets(const struct plan *pl)
{
	size_t i;

	for (i = 0; i < pl->sockets.nr; i++)
		if (mount("/dev/null", pl->sockets.v[i], NULL, MS_BIND, NULL) < 0 &&
		    errno != ENOENT)
			return mount_error("mask the socket", pl->sockets.v[i]);
	return 0;
}

static int mount_tmpdir(const struct plan *pl)
{
	if (mount("tmpfs", pl->tmpdir, "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=0700") < 0)
		return mount_error("mount a tmpfs on", pl->tmpdir);
	return 0;
}

static int setup_mounts(const struct plan *pl)
{
	struct mount_attr ro = { 0 };
	size_t i;

	/* Nothing we mount may propagate back to the host. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return mount_error("make private", "/");
	/* Every mount read-only and nosuid, recursively, in one step. */
	ro.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID;
	if (mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &ro, sizeof(ro)) < 0)
		return mount_error("make read-only", "/");
	/* A private, empty, writable TMPDIR that dies with the namespace
	 * (on a directory of the private /dev/shm below, when there is one). */
	if (!pl->tmpdir_in_ns && mount_tmpdir(pl) < 0)
		return -1;
	for (i = 0; i < pl->nbinds; i++)
		if (rebind(&pl->binds[i]) < 0)
			return -1;
	if (mask_sockets(pl) < 0 || hide_paths(pl) < 0)
		return -1;
	/* POSIX shared memory of its own (Python's multiprocessing needs it). */
	if (!access("/dev/shm", F_OK) &&
	    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "mode=1777") < 0)
		return mount_error("mount a tmpfs on", "/dev/shm");
	/* TMPDIR may hold programs a test builds: a tmpfs without noexec. */
	if (pl->tmpdir_in_ns && (mkdir(pl->tmpdir, 0700) < 0 ||
				 mount_tmpdir(pl) < 0))
		return mount_error("make", pl->tmpdir);
	/* A /proc of the new PID namespace: host processes are invisible. */
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) < 0)
		return mount_error("mount", "/proc");
	return 0;
}

/* In a new network namespace, loopback exists but is down. */
static int loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return sc_error_errno("NETWORK-FAILED", "cannot open a socket");
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		ret = sc_error_errno("NETWORK-FAILED", "cannot read lo");
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (!ret && ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		ret = sc_error_errno("NETWORK-FAILED", "cannot bring lo up");
	close(fd);
	return ret;
}

/* ---- inside: the command's own process (both tiers) -------------- */

/*
 * Drop every capability, bounding set included, so that executing the
 * command as root inside the user namespace gives none back: a capable
 * command could unmount the masks.
 */
static int drop_capabilities(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	int cap;

	memset(data, 0, sizeof(data));
	/*
	 * Capabilities are numbered without holes: the first EINVAL is the
	 * kernel's last capability plus one, and every number above it is
	 * refused too (so the loop makes CAP_LAST_CAP + 2 calls, not 64).
	 * EPERM: we hold no CAP_SETPCAP, so no capability to drop.
	 */
	for (cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) {
			if (errno != EINVAL && errno != EPERM)
				return sc_error_errno("CAPS-FAILED", "cannot drop "
						      "capability %d", cap);
			break;
		}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		return sc_error_errno("CAPS-FAILED", "cannot clear ambient "
				      "capabilities");
	if (syscall(SYS_capset, &hdr, data) < 0)
		return sc_error_errno("CAPS-FAILED", "cannot drop capabilities");
	return 0;
}

/*
 * Reading: everywhere.  The full tier hides credentials with mounts; the
 * landlock tier has none, so it grants reading everywhere but beneath
 * the hidden paths (their names stay listable, their contents do not).
 */
static int read_rules(const struct plan *pl, struct sc_landlock *ll)
{
	char **hidden;
	size_t n = pl->hide_dirs.nr + pl->hide_files.nr, i;
	int ret;

	if (pl->tier == TIER_FULL || !n)
		return sc_landlock_allow(ll, "/", SC_LL_READ);
	hidden = sc_xcalloc(n, sizeof(*hidden));
	for (i = 0; i < pl->hide_dirs.nr; i++)
		hidden[i] = pl->hide_dirs.v[i];
	for (i = 0; i < pl->hide_files.nr; i++)
		hidden[pl->hide_dirs.nr + i] = pl->hide_files.v[i];
	ret = sc_landlock_allow_read_except(ll, hidden, n);
	free(hidden);
	return ret;
}

static int landlock_rules(const struct plan *pl, struct sc_landlock *ll)
{
	size_t i;

	if (sc_landlock_open(ll, pl->abi, pl->pol->net == SC_NET_NONE) < 0 ||
	    read_rules(pl, ll) < 0)
		return -1;
	for (i = 0; i < pl->writable.nr; i++)
		if (sc_landlock_allow(ll, pl->writable.v[i], SC_LL_WRITE) < 0)
			return -1;
	/* The full tier's /dev/shm is a tmpfs of its own; the host's is not. */
	if (pl->tier == TIER_FULL &&
	    sc_landlock_allow(ll, "/dev/shm", SC_LL_WRITE) < 0)
		return -1;
	for (i = 0; writable_devices[i]; i++)
		if (sc_landlock_allow(ll, writable_devices[i], SC_LL_DEV) < 0)
			return -1;
	return 0;
}

static int stdio_setup(const struct plan *pl)
{
	int fd;

	/* stdin on /dev/null: the command reads nothing of ours, unless the
	 * caller speaks a protocol on it (--stdin; never a terminal). */
	if (!pl->pol->keep_stdin) {
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || dup2(fd, STDIN_FILENO) < 0)
			return sc_error_errno("SETUP-FAILED",
					      "cannot open /dev/null");
		close(fd);
	}
	if (pl->out[0] >= 0 && (dup2(pl->out[0], STDOUT_FILENO) < 0 ||
				dup2(pl->out[1], STDERR_FILENO) < 0))
		return sc_error_errno("SETUP-FAILED", "cannot redirect output");
	return 0;
}

/*
 * The fixed order: a session of its own (no TIOCSTI through the
 * controlling terminal's job control, no signals from the caller's group),
 * stdio, the working directory, the Landlock ruleset (paths opened while
 * they can be), capabilities dropped, no_new_privs, Landlock enforced,
 * every descriptor above 2 marked close-on-exec, and seccomp last.
 */
static int confine_self(const struct plan *pl)
{
	struct sc_landlock ll = { 0, -1, 0 };
	int confined = pl->tier != TIER_OFF;
	/*
	 * No Landlock at all only reaches here under --mode auto, which has
	 * named it: run without it rather than fail.  ABI 1 and 2 are
	 * applied for what they give, though named as not enough.
	 */
	int landlock = confined && pl->abi > 0;

	if (setsid() < 0)
		return sc_error_errno("SETUP-FAILED", "cannot start a session");
	if (stdio_setup(pl) < 0)
		return -1;
	if (chdir(pl->cwd) < 0)
		return sc_error_errno("BAD-CWD", "cannot enter '%s'", pl->cwd);
	if (landlock && landlock_rules(pl, &ll) < 0) {
		sc_landlock_close(&ll);
		return -1;
	}
	if (confined && drop_capabilities() < 0)
		return -1;
	if (confined && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return sc_error_errno("SETUP-FAILED", "cannot set no_new_privs");
	if (landlock && sc_landlock_enforce(&ll) < 0)
		return -1;
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		return sc_error_errno("SETUP-FAILED", "cannot close descriptors");
	if (confined && sc_seccomp_apply((enum sc_net_mode)pl->pol->net) < 0)
		return -1;
	return 0;
}

static _Noreturn void run_command(const struct plan *pl)
{
	extern char **environ;
	int err;

	sigprocmask(SIG_SETMASK, &pl->sigmask, NULL);
	signal(SIGPIPE, SIG_DFL);   /* the supervisor may ignore it */
	if (confine_self(pl) < 0) {
		send_report(pl->report, REPORT_SETUP_FAILED, 0);
		_exit(SC_SANDBOX_FAILED);
	}
	/* The proxy exists in the full tier only: elsewhere, no pointer to
	 * a port someone else may hold. */
	environ = pl->proxy_env && pl->tier == TIER_FULL ? pl->proxy_env : pl->env;
	execvp(pl->argv[0], pl->argv);
	err = errno;
	errno = err;
	if (err == ENOENT) {
		sc_error("NOT-FOUND", "cannot run '%s': %s", pl->argv[0],
			 strerror(err));
		_exit(SC_SANDBOX_NOT_FOUND);
	}
	sc_error("CANNOT-EXECUTE", "cannot run '%s': %s", pl->argv[0],
		 strerror(err));
	_exit(SC_SANDBOX_CANNOT_EXEC);
}

static int command_main(void *arg)
{
	run_command(arg);
}

/* Enough for confine_self and execvp's PATH search (PATH_MAX buffers). */
#define COMMAND_STACK (256 * 1024)

/*
 * Start the command from the namespace's init the way posix_spawn does:
 * the child shares our memory and we wait until it has executed (or
 * died), so no page tables are copied and neither of us takes
 * copy-on-write faults afterwards.  The child sets environ before
 * executing: ours is restored once it has.  Only the init does this: a
 * supervisor blocked in here could not enforce the deadline, while a
 * blocked init is killed with its namespace.
 */
static pid_t spawn_command(const struct plan *pl)
{
	extern char **environ;
	char **saved = environ, *stack = sc_xmalloc(COMMAND_STACK);
	pid_t pid;

	pid = (pid_t)clone(command_main, stack + COMMAND_STACK,
			   CLONE_VM | CLONE_VFORK | SIGCHLD, (void *)pl);
	environ = saved;
	free(stack);
	return pid;
}

/*
 * The init of the new namespaces: map ids, build the mounts, bring up
 * loopback, start the command and reap every orphan until the command
 * ends.  When it returns, the kernel kills whatever is left in the PID
 * namespace: daemons the command started die with it.
 */
static _Noreturn void namespace_init(const struct plan *pl)
{
	pid_t child;
	int status;

	/* If the supervisor dies, the namespace dies with it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (map_ids(pl) < 0 || setup_mounts(pl) < 0 ||
	    ((pl->pol->net == SC_NET_LOOPBACK || pl->pol->net == SC_NET_HOSTS) &&
	     loopback_up() < 0) ||
	    (pl->pol->net == SC_NET_HOSTS &&
	     sc_netproxy_listen_inside(pl->proxy.inside) < 0)) {
		send_report(pl->report, REPORT_SETUP_FAILED, 0);
		_exit(SC_SANDBOX_FAILED);
	}
	child = spawn_command(pl);
	if (child < 0) {
		sc_error_errno("SETUP-FAILED", "cannot start the command");
		send_report(pl->report, REPORT_SETUP_FAILED, 0);
		_exit(SC_SANDBOX_FAILED);
	}
	/* Our copies of the output pipes must not keep them open. */
	if (pl->out[0] >= 0) {
		close(pl->out[0]);
		close(pl->out[1]);
	}
	for (;;) {
		pid_t p = waitpid(-1, &status, 0);

		if (p == child)
			break;
		if (p < 0 && errno != EINTR) {
			status = SC_SANDBOX_FAILED << 8;
			break;
		}
	}
	/*
	 * Kill and reap everything left in the namespace before reporting
	 * (kill(-1) from its init reaches all of it but the init), so that
	 * the supervisor may end on the report: nothing of the command is
	 * left by then, and it need not wait for the kernel to tear down the
	 * namespaces as we exit (measured: most of the wall time after the
	 * command's end).
	 */
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	send_report(pl->report, REPORT_STATUS, status);
	_exit(0);
}

/* ---- outside: the supervisor ------------------------------------- */

struct stream {
	int fd;             /* read end, -1 when closed */
	int out;            /* where it goes: 1 or 2 */
	long long left;     /* bytes still allowed */
	int cut;            /* the marker has been written */
	int last_nl;        /* the last byte written was a newline */
};

struct supervisor {
	pid_t child;
	pid_t janitor;      /* not ours to kill: it outlives us on purpose */
	int proxied;        /* --network hosts: a proxy still writing records */
	enum tier tier;
	int report, sigfd;
	struct stream s[2];
	long long max_output;
	int child_done, status, setup_failed, got_status;
	int timed_out, signalled;
};

static void forward(struct stream *st, long long max)
{
	char buf[65536];
	ssize_t n = read(st->fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close(st->fd);
		st->fd = -1;
		return;
	}
	if (st->left > 0) {
		size_t take = (size_t)n < (unsigned long long)st->left ?
			      (size_t)n : (size_t)st->left;

		/* A reader that went away: drop the rest, keep draining. */
		if (sc_write_all(st->out, buf, take) < 0) {
			st->left = 0;
			st->cut = 1;
			return;
		}
		st->left -= (long long)take;
		st->last_nl = buf[take - 1] == '\n';
		n -= (ssize_t)take;
	}
	/* Past the cap: one marker line, then the rest is read and dropped. */
	if (n > 0 && !st->cut && st->left == 0) {
		char marker[128];
		int len = snprintf(marker, sizeof(marker),
				   "%s[sc-sandbox-exec: output cut at %lld bytes]\n",
				   st->last_nl ? "" : "\n", max);

		sc_write_all(st->out, marker, (size_t)len);
		st->cut = 1;
	}
}

/* Reap every child that ended, keeping the command's status; how many. */
static int reap(struct supervisor *sv)
{
	int status, n = 0;
	pid_t p;

	while ((p = waitpid(-1, &status, WNOHANG)) > 0) {
		n++;
		if (p == sv->child) {
			sv->child_done = 1;
			if (sv->tier != TIER_FULL) {
				sv->status = status;
				sv->got_status = 1;
			}
		}
	}
	return n;
}

/*
 * Kill everything below us.  In the full tier that is the namespace's
 * init: its death takes the whole PID namespace.  In the Landlock tier we
 * are a child subreaper, so every orphan, however it detached, is one of
 * our children: kill them until none is left.
 */
static void kill_all(struct supervisor *sv)
{
	int round;

	if (sv->child > 0 && !sv->child_done)
		kill(sv->child, SIGKILL);
	if (sv->tier == TIER_FULL)
		return;
	for (round = 0; round < 1000; round++) {
		char path[64], buf[4096];
		ssize_t n;
		int fd, any = 0;
		char *p, *end;

		snprintf(path, sizeof(path), "/proc/self/task/%d/children",
			 (int)getpid());
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		for (p = buf; *p; p = end) {
			long pid = strtol(p, &end, 10);

			if (end == p)
				break;
			if (pid > 0 && pid != sv->janitor &&
			    kill((pid_t)pid, SIGKILL) == 0)
				any = 1;
		}
		if (reap(sv))
			any = 1;
		if (!any)
			return;
		usleep(1000);
	}
}

static void read_reports(struct supervisor *sv)
{
	struct report r;
	ssize_t n = read(sv->report, &r, sizeof(r));

	if (n < 0 && errno == EINTR)
		return;
	if (n != (ssize_t)sizeof(r)) {
		close(sv->report);
		sv->report = -1;
		return;
	}
	if (r.kind == REPORT_SETUP_FAILED)
		sv->setup_failed = 1;
	else if (r.kind == REPORT_STATUS) {
		sv->status = r.value;
		sv->got_status = 1;
	}
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void on_signal(struct supervisor *sv)
{
	struct signalfd_siginfo si;

	while (read(sv->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			continue;
		if (!sv->signalled)
			sv->signalled = (int)si.ssi_signo;
		kill_all(sv);
	}
	reap(sv);
}

/*
 * The full tier's init reports the status once everything else in the
 * namespace is dead and reaped, and closes the report pipe as it exits,
 * before the kernel tears its namespaces down: the end of the pipe after
 * a status is the end of the command.  The init is left to the kernel.
 */
static int full_tier_done(const struct supervisor *sv)
{
	/* Under --network hosts the proxy is stopped once we end: its last
	 * connection's record gets the time the init's exit takes. */
	return sv->tier == TIER_FULL && !sv->proxied && sv->got_status &&
	       !sv->setup_failed && !sv->timed_out && !sv->signalled;
}

/* Wait for the command, its output and its status; enforce the deadline. */
static void supervise(struct supervisor *sv, long long timeout_ms)
{
	long long deadline = timeout_ms ? now_ms() + timeout_ms : 0;

	for (;;) {
		struct pollfd pfd[4];
		int n = 0, i, wait = -1;

		if ((sv->child_done || full_tier_done(sv)) && sv->report < 0 &&
		    sv->s[0].fd < 0 && sv->s[1].fd < 0)
			break;
		pfd[n++] = (struct pollfd){ sv->sigfd, POLLIN, 0 };
		pfd[n++] = (struct pollfd){ sv->report, POLLIN, 0 };
		pfd[n++] = (struct pollfd){ sv->s[0].fd, POLLIN, 0 };
		pfd[n++] = (struct pollfd){ sv->s[1].fd, POLLIN, 0 };
		if (deadline && !sv->timed_out) {
			long long left = deadline - now_ms();

			wait = left > 0 ? (int)(left > INT_MAX ? INT_MAX : left) : 0;
		}
		if (poll(pfd, (nfds_t)n, wait) < 0 && errno != EINTR)
			break;
		if (deadline && !sv->timed_out && now_ms() >= deadline &&
		    !sv->child_done) {
			sv->timed_out = 1;
			kill_all(sv);
		}
		if (pfd[0].revents)
			on_signal(sv);
		if (pfd[1].revents && sv->report >= 0)
			read_reports(sv);
		for (i = 0; i < 2; i++)
			if (pfd[2 + i].revents && sv->s[i].fd >= 0)
				forward(&sv->s[i], sv->max_output);
		/* The command is gone: take whatever it left running with it. */
		if (sv->child_done && sv->tier != TIER_FULL)
			kill_all(sv);
	}
}

static int exit_status(const struct supervisor *sv)
{
	if (sv->timed_out) {
		sc_error("TIMEOUT", "the command ran past its deadline and was "
			 "killed with everything it started");
		return SC_SANDBOX_TIMEOUT;
	}
	if (sv->setup_failed)
		return SC_SANDBOX_FAILED;
	if (sv->signalled)
		return 128 + sv->signalled;
	if (!sv->got_status) {
		sc_error("SANDBOX-FAILED", "the sandbox ended without a status");
		return SC_SANDBOX_FAILED;
	}
	if (WIFEXITED(sv->status))
		return WEXITSTATUS(sv->status);
	if (WIFSIGNALED(sv->status))
		return 128 + WTERMSIG(sv->status);
	return SC_SANDBOX_FAILED;
}

static int make_pipes(struct plan *pl, struct supervisor *sv, int report[2])
{
	int i;

	if (pipe2(report, O_CLOEXEC) < 0)
		return sc_error_errno("SETUP-FAILED", "cannot make a pipe");
	sv->s[0].fd = sv->s[1].fd = -1;
	if (!pl->pol->max_output)
		return 0;
	for (i = 0; i < 2; i++) {
		int p[2];

		if (pipe2(p, O_CLOEXEC) < 0)
			return sc_error_errno("SETUP-FAILED", "cannot make a pipe");
		sv->s[i] = (struct stream){ p[0], i + 1, pl->pol->max_output, 0, 1 };
		pl->out[i] = p[1];
	}
	return 0;
}

static pid_t start(struct plan *pl)
{
	unsigned long flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID |
			      CLONE_NEWIPC | CLONE_NEWUTS;
	pid_t pid;

	if (pl->tier != TIER_FULL) {
		pid_t self = getpid();

		pid = fork();
		if (pid)
			return pid;
		/*
		 * No PID namespace dies with us here: a SIGKILL to us alone
		 * must still end the command, not leave it running with no
		 * deadline and its TMPDIR removed by the janitor.  (Its own
		 * children are the kill-all gap --probe names.)
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 ||
		    getppid() != self)
			_exit(SC_SANDBOX_FAILED);
		run_command(pl);
	}
	if (pl->pol->net != SC_NET_FULL)
		flags |= CLONE_NEWNET;
	/* Like fork(), but the child is the init of new namespaces. */
	pid = (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, 0);
	if (!pid)
		namespace_init(pl);
	return pid;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* A clone error that means "no user namespaces here", not a failure. */
static int userns_refused(int err)
{
	return err == EPERM || err == EINVAL || err == ENOSPC || err == EUSERS ||
	       err == EACCES;
}

/*
 * Start the command in PL's tier and supervise it.  Returns the exit
 * status, or -2 when the full tier was refused by the kernel (no user
 * namespaces), so the caller may fall back.
 */
static int launch(struct plan *pl)
{
	struct supervisor sv;
	int report[2], ret, err;
	sigset_t mask;

	memset(&sv, 0, sizeof(sv));
	sv.tier = pl->tier;
	sv.janitor = pl->janitor;
	sv.proxied = pl->pol->net == SC_NET_HOSTS;
	sv.max_output = pl->pol->max_output;
	sv.sigfd = -1;
	if (make_pipes(pl, &sv, report) < 0)
		return SC_SANDBOX_FAILED;
	pl->report = report[1];
	sv.report = report[0];
	/* Signals become events on a descriptor; the command unblocks them. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, &pl->sigmask);
	/*
	 * An ignored signal is never queued, not even to a signalfd: a shell
	 * starts background jobs with SIGINT ignored.  We always act on them.
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sv.sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sv.sigfd < 0) {
		sc_error_errno("SETUP-FAILED", "cannot watch signals");
		ret = SC_SANDBOX_FAILED;
		goto out;
	}
	if (pl->tier != TIER_FULL)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	/* Forwarding output to a reader that left must not kill us. */
	if (pl->pol->max_output)
		signal(SIGPIPE, SIG_IGN);
	/* The way out of --network hosts, outside before the namespace is. */
	if (pl->tier == TIER_FULL && pl->pol->net == SC_NET_HOSTS &&
	    sc_netproxy_start(&pl->proxy, &pl->hosts, pl->conn_fd) < 0) {
		ret = SC_SANDBOX_FAILED;
		goto out;
	}
	sv.child = start(pl);
	err = errno;
	close_fd(&pl->proxy.inside);
	close_fd(&pl->report);
	close_fd(&pl->out[0]);
	close_fd(&pl->out[1]);
	if (sv.child < 0) {
		if (pl->tier == TIER_FULL && userns_refused(err)) {
			ret = -2;
			goto out;
		}
		errno = err;
		sc_error_errno("SETUP-FAILED", "cannot start the command");
		ret = SC_SANDBOX_FAILED;
		goto out;
	}
	supervise(&sv, pl->pol->timeout_ms);
	ret = exit_status(&sv);
out:
	sc_netproxy_stop(&pl->proxy);
	close_fd(&sv.report);
	close_fd(&sv.s[0].fd);
	close_fd(&sv.s[1].fd);
	close_fd(&sv.sigfd);
	sigprocmask(SIG_SETMASK, &pl->sigmask, NULL);
	return ret;
}

/* ---- choosing the tier -------------------------------------------- */

static int refuse(const char *tier, const char *missing)
{
	sc_error("SANDBOX-UNAVAILABLE", "%s tier cannot enforce: %s; the "
		 "command was not run", tier, missing);
	return SC_SANDBOX_FAILED;
}

/*
 * Run in TIER if the mode allows what it leaves unenforced: required
 * refuses, auto names it once and goes on.
 */
static int run_tier(struct plan *pl, enum tier tier,
		    const struct protection p[P_COUNT])
{
	struct sc_buf missing = SC_BUF_INIT, accepted = SC_BUF_INIT;
	const char *name = tier == TIER_FULL ? "the full" : "the landlock";
	int ret;

	if (unenforced(pl->pol, p, tier, &missing, &accepted)) {
		if (pl->pol->mode == SC_MODE_REQUIRED) {
			ret = refuse(name, missing.data);
			sc_buf_release(&missing);
			sc_buf_release(&accepted);
			return ret;
		}
		sc_warning("SANDBOX-DEGRADED", "unenforced: %s", missing.data);
	}
	/* A gap a person accepted is still named, every time. */
	if (accepted.len)
		sc_warning("SANDBOX-GAPS-ACCEPTED", "unenforced, as --accept-gaps "
			   "allows: %s", accepted.data);
	sc_buf_release(&missing);
	sc_buf_release(&accepted);
	pl->tier = tier;
	return launch(pl);
}

int sc_sandbox_exec(const struct sc_sandbox_policy *pol, char *const argv[],
		    char *const envp[])
{
	struct protection p[P_COUNT];
	struct plan pl;
	int ret;

	if (plan_resolve(&pl, pol, argv, envp) < 0) {
		plan_release(&pl);
		return SC_SANDBOX_FAILED;
	}
	if (pol->mode == SC_MODE_OFF) {
		sc_warning("SANDBOX-OFF", "--mode off: the command runs "
			   "unconfined");
		pl.tier = TIER_OFF;
		ret = plan_tmpdir(&pl, TIER_OFF) < 0 ? SC_SANDBOX_FAILED :
		      launch(&pl);
		plan_release(&pl);
		return ret;
	}
	if (pol->tier != SC_TIER_LANDLOCK) {
		resolve_sockets(&pl);
		protections(pol, pl.abi, 1, 1, read_only_needed(&pl), p);
		ret = plan_tmpdir(&pl, TIER_FULL) < 0 ? SC_SANDBOX_FAILED :
		      run_tier(&pl, TIER_FULL, p);
		if (ret != -2) {
			plan_release(&pl);
			return ret;
		}
		if (pol->tier == SC_TIER_FULL) {
			plan_release(&pl);
			return refuse("the full", "user namespaces (refused by "
				      "the kernel)");
		}
		sc_warning("NO-USER-NAMESPACES", "the kernel refused user "
			   "namespaces: trying the landlock tier");
		plan_tmpdir_release(&pl);
	}
	protections(pol, pl.abi, 0, hidden_outside_writable(&pl),
		    read_only_needed(&pl), p);
	ret = plan_tmpdir(&pl, TIER_LANDLOCK) < 0 ? SC_SANDBOX_FAILED :
	      run_tier(&pl, TIER_LANDLOCK, p);
	plan_release(&pl);
	return ret;
}

/* ---- --probe ------------------------------------------------------ */

/* Can this process make the namespaces of the full tier? */
static int probe_userns(void)
{
	pid_t pid = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWNS |
				   CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |
				   SIGCHLD, NULL, NULL, NULL, 0);
	int status;

	if (pid < 0)
		return 0;
	if (!pid)
		_exit(0);
	if (waitpid(pid, &status, 0) < 0)
		return 0;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

static const char *yes_no(const struct protection *p, int tier, int userns)
{
	if (!p->needed)
		return "not-needed";
	if (tier == TIER_FULL)
		return userns && p->full ? "yes" : "no";
	return p->landlock ? "yes" : "no";
}

/*
 * What holds of the network in each tier under each --network mode, so a
 * person on a host without user namespaces sees that --network none still
 * refuses every inet socket there while loopback cannot be had: one
 * type=network record per tier and mode.
 */
static void probe_network_modes(const struct sc_sandbox_policy *pol, int abi,
				int userns, struct sc_output *out,
				struct sc_record *rec)
{
	static const int modes[] = { SC_NET_NONE, SC_NET_LOOPBACK, SC_NET_HOSTS,
				     SC_NET_FULL };
	static const enum tier tiers[] = { TIER_FULL, TIER_LANDLOCK };
	struct sc_sandbox_policy q = *pol;   /* read only: net changes */
	struct protection p[P_COUNT];
	size_t t, m;

	for (t = 0; t < 2; t++)
		for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			q.net = modes[m];
			protections(&q, abi, tiers[t] == TIER_FULL ? userns : 0, 1,
				    0, p);
			sc_record_reset(rec);
			sc_record_adds(rec, "type", "network");
			sc_record_adds(rec, "tier", t ? "landlock" : "full");
			sc_record_adds(rec, "mode", sc_net_name(modes[m]));
			sc_record_adds(rec, "network",
				       yes_no(&p[P_NETWORK], tiers[t], userns));
			sc_record_adds(rec, "unix-sockets",
				       yes_no(&p[P_UNIX_SOCKETS], tiers[t], userns));
			sc_record_adds(rec, "abstract-sockets",
				       yes_no(&p[P_ABSTRACT], tiers[t], userns));
			if (tiers[t] == TIER_LANDLOCK && landlock_net_gap(modes[m]))
				sc_record_adds(rec, "why", landlock_net_gap(modes[m]));
			sc_record_write(out, rec);
		}
}

int sc_sandbox_probe(const struct sc_sandbox_policy *pol, int fd,
		     int force_records)
{
	struct protection p[2][P_COUNT];
	int abi = sc_landlock_abi(), userns = probe_userns(), t, i, ret;
	struct sc_output out;
	struct sc_record rec;
	char num[16];

	protections(pol, abi, userns, 1, pol->read_only.nr > 0, p[0]);
	protections(pol, abi, 0, 1, pol->read_only.nr > 0, p[1]);
	sc_output_init_records(&out, fd, force_records);
	sc_record_init(&rec);
	snprintf(num, sizeof(num), "%d", abi);
	sc_record_adds(&rec, "type", "host");
	sc_record_adds(&rec, "landlock-abi", num);
	sc_record_adds(&rec, "user-namespaces", userns ? "yes" : "no");
	sc_record_adds(&rec, "seccomp", sc_seccomp_available() ? "yes" : "no");
	sc_record_adds(&rec, "tier", userns ? "full" : "landlock");
	sc_record_write(&out, &rec);
	for (t = 0; t < 2; t++)
		for (i = 0; i < P_COUNT; i++) {
			int ok = t ? p[t][i].landlock : p[t][i].full;

			if (!t && !userns)
				ok = 0;   /* the full tier cannot start at all */
			sc_record_reset(&rec);
			sc_record_adds(&rec, "type", "protection");
			sc_record_adds(&rec, "tier", t ? "landlock" : "full");
			sc_record_adds(&rec, "name", p[t][i].name);
			sc_record_adds(&rec, "enforced", ok ? "yes" : "no");
			if (!ok && sc_sandbox_gap_accepted(pol, p[t][i].name))
				sc_record_adds(&rec, "accepted", "yes");
			sc_record_write(&out, &rec);
		}
	probe_network_modes(pol, abi, userns, &out, &rec);
	ret = sc_output_flush(&out);
	if (ret < 0)
		sc_error_errno("WRITE-FAILED", "cannot write output");
	sc_record_release(&rec);
	sc_output_release(&out);
	return ret;
}
