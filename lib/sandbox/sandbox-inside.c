/*
 * sc-sandbox-exec on Linux: what runs inside.  The namespaces' init of
 * the full tier (ids, mounts, loopback, the command, reaping) and the
 * command's own process in every tier (session, stdio, Landlock,
 * capabilities, no_new_privs, seccomp, execve), in a fixed order, each
 * step commented with why.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "alloc.h"
#include "diag.h"
#include "landlock.h"
#include "paths.h"
#include "sandbox-int.h"
#include "seccomp-filter.h"

#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

/* Device files a command may write to; every other device stays shut. */
static const char *const writable_devices[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/tty", "/dev/ptmx", "/dev/pts", NULL,
};

static void send_report(int fd, int kind, int value)
{
	struct report r = { kind, value };

	/* A pipe write this small is atomic; nothing to do if it fails. */
	if (write(fd, &r, sizeof(r)) < 0)
		return;
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

	if (!sc_path_is_beneath(shown, dir) || !strcmp(shown, dir))
		return 0;
	for (i = 0; i < pl->shown.nr; i++)
		if (strcmp(pl->shown.v[i], shown) &&
		    sc_path_is_beneath(shown, pl->shown.v[i]) &&
		    sc_path_is_beneath(pl->shown.v[i], dir) &&
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

_Noreturn void sc_sandbox_run_command(const struct plan *pl)
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
	sc_sandbox_run_command(arg);
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
_Noreturn void sc_sandbox_namespace_init(const struct plan *pl)
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
