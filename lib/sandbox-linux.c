/*
 * sc-sandbox-exec on Linux.  See sandbox-linux.h for the shape; the steps
 * below run in a fixed order, each commented with why.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
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
#include "record.h"
#include "rectable.h"
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
	char **env;
	char *const *argv;
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

static int resolve_writable(struct plan *pl, const struct sc_sandbox_policy *pol)
{
	size_t i;

	for (i = 0; i < pol->writable.nr; i++) {
		char *real = NULL;

		if (resolve_dir(pol->writable.v[i], "BAD-WRITABLE", &real) < 0) {
			free(real);
			return -1;
		}
		if (!strcmp(real, "/") || !strncmp(real, "/proc", 5) ||
		    !strncmp(real, "/sys", 4) || !strncmp(real, "/dev", 4)) {
			sc_error("BAD-WRITABLE", "refusing to make '%s' writable",
				 real);
			free(real);
			return -1;
		}
		sc_strlist_add(&pl->writable, real);
		add_bind(pl, real, 1);
		free(real);
	}
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
 * The path in the first line of FILE after PREFIX, relative paths taken
 * from FILE's directory; NULL when FILE does not hold one.
 */
static char *read_pointer(const char *file, const char *prefix)
{
	char line[PATH_MAX + 16];
	struct sc_buf path = SC_BUF_INIT;
	size_t plen = strlen(prefix);
	FILE *fp = fopen(file, "re");
	const char *slash;
	int ok;

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

/*
 * A linked worktree's ".git" is a file naming its git directory
 * ("gitdir: PATH"), whose "commondir" names the main repository's: both
 * decide what git does (hooks, config, refs), so both stay read-only too.
 */
static void add_gitdirs(struct plan *pl, const char *dotgit)
{
	char *gitdir = read_pointer(dotgit, "gitdir: "), *common;
	struct sc_buf file = SC_BUF_INIT;

	if (!gitdir)
		return;
	add_implicit_read_only(pl, gitdir);
	sc_buf_addf(&file, "%s/commondir", gitdir);
	common = read_pointer(file.data, "");
	if (common)
		add_implicit_read_only(pl, common);
	free(common);
	free(gitdir);
	sc_buf_release(&file);
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
	char *real = realpath(path, NULL);
	struct stat st;

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

static void resolve_hidden(struct plan *pl, const struct sc_sandbox_policy *pol)
{
	const char *home = getenv("HOME");
	struct passwd *pw = getpwuid(getuid());
	const char *homes[2];
	size_t i, h;

	homes[0] = home && *home ? home : NULL;
	homes[1] = pw && pw->pw_dir && (!homes[0] || strcmp(pw->pw_dir, homes[0]))
		   ? pw->pw_dir : NULL;
	for (h = 0; h < 2; h++)
		for (i = 0; homes[h] && default_hidden[i]; i++)
			add_hidden_under(pl, homes[h], default_hidden[i]);
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

static int plan_resolve(struct plan *pl, const struct sc_sandbox_policy *pol,
			char *const argv[], char *const envp[])
{
	char *root = NULL;

	memset(pl, 0, sizeof(*pl));
	pl->pol = pol;
	pl->argv = argv;
	pl->uid = getuid();
	pl->gid = getgid();
	pl->report = pl->out[0] = pl->out[1] = -1;
	pl->abi = sc_landlock_abi();
	pl->cwd = getcwd(NULL, 0);
	if (!pl->cwd)
		return sc_error_errno("BAD-CWD", "cannot find the current "
				      "directory");
	if (resolve_dir(pol->root ? pol->root : ".", "BAD-ROOT", &root) < 0) {
		free(root);
		return -1;
	}
	if (!strcmp(root, "/")) {
		free(root);
		return sc_error("BAD-ROOT", "refusing '/' as the root");
	}
	if (!pol->root_read_only) {
		sc_strlist_add(&pl->writable, root);
		add_bind(pl, root, 1);
	}
	free(root);
	if (resolve_writable(pl, pol) < 0 || resolve_read_only(pl, pol) < 0)
		return -1;
	resolve_hidden(pl, pol);
	if (make_tmpdir(pl) < 0)
		return -1;
	sc_strlist_add(&pl->writable, pl->tmpdir);
	qsort(pl->binds, pl->nbinds, sizeof(*pl->binds), bind_cmp);
	pl->env = sc_env_build(envp, (enum sc_env_mode)pol->env,
			       pol->env_keep.v, pol->env_keep.nr, pl->tmpdir);
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

static void plan_release(struct plan *pl)
{
	size_t i;

	if (pl->tmpdir) {
		if (rmdir(pl->tmpdir) < 0 && errno != ENOENT)
			remove_tree_at(AT_FDCWD, pl->tmpdir, 0);
		free(pl->tmpdir);
	}
	for (i = 0; i < pl->nbinds; i++)
		free(pl->binds[i].path);
	free(pl->binds);
	free(pl->cwd);
	sc_strlist_release(&pl->writable);
	sc_strlist_release(&pl->hide_dirs);
	sc_strlist_release(&pl->hide_files);
	sc_strlist_release(&pl->sockets);
	sc_env_free(pl->env);
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
			int hide_ok, struct protection p[P_COUNT])
{
	int ll = abi >= LANDLOCK_MIN_ABI, sec = sc_seccomp_available();
	int own_net = pol->net != SC_NET_FULL;

	p[P_LANDLOCK] = (struct protection){ "landlock", 1, ll, ll };
	p[P_SYSCALLS] = (struct protection){ "syscall-filter", 1, sec, sec };
	p[P_FS_WRITE] = (struct protection){ "write-confinement", 1, userns || ll, ll };
	p[P_READ_ONLY] = (struct protection){ "read-only-paths",
		pol->read_only.nr > 0, userns, 0 };
	/* The landlock tier leaves them out of its read rules (see there). */
	p[P_HIDDEN] = (struct protection){ "hidden-credentials", 1, userns,
		ll && hide_ok };
	p[P_NETWORK] = (struct protection){ "network", own_net, userns,
		pol->net == SC_NET_NONE && sec };
	p[P_UNIX_SOCKETS] = (struct protection){ "unix-sockets", 1, userns, 0 };
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

/* Append the unenforced protections of TIER to OUT; their number. */
static int unenforced(const struct protection p[P_COUNT], enum tier tier,
		      struct sc_buf *out)
{
	int i, n = 0;

	for (i = 0; i < P_COUNT; i++) {
		int ok = tier == TIER_FULL ? p[i].full : p[i].landlock;

		if (!p[i].needed || ok)
			continue;
		sc_buf_addf(out, "%s%s", n++ ? ", " : "", p[i].name);
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

/* Credential directories look empty; credential files read as empty. */
static int hide_paths(const struct plan *pl)
{
	size_t i;

	for (i = 0; i < pl->hide_dirs.nr; i++)
		if (mount("tmpfs", pl->hide_dirs.v[i], "tmpfs",
			  MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  "mode=0700,size=4k,nr_inodes=4") < 0)
			return mount_error("hide", pl->hide_dirs.v[i]);
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
	/* A private, empty, writable TMPDIR that dies with the namespace. */
	if (mount("tmpfs", pl->tmpdir, "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=0700") < 0)
		return mount_error("mount a tmpfs on", pl->tmpdir);
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
	for (cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL) {
			/* EPERM: we hold no CAP_SETPCAP, so no capability. */
			if (errno != EPERM)
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
	environ = pl->env;
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
	    (pl->pol->net == SC_NET_LOOPBACK && loopback_up() < 0)) {
		send_report(pl->report, REPORT_SETUP_FAILED, 0);
		_exit(SC_SANDBOX_FAILED);
	}
	child = fork();
	if (child < 0) {
		sc_error_errno("SETUP-FAILED", "cannot fork");
		send_report(pl->report, REPORT_SETUP_FAILED, 0);
		_exit(SC_SANDBOX_FAILED);
	}
	if (!child)
		run_command(pl);
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
			if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
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

/* Wait for the command, its output and its status; enforce the deadline. */
static void supervise(struct supervisor *sv, long long timeout_ms)
{
	long long deadline = timeout_ms ? now_ms() + timeout_ms : 0;

	for (;;) {
		struct pollfd pfd[4];
		int n = 0, i, wait = -1;

		if (sv->child_done && sv->report < 0 && sv->s[0].fd < 0 &&
		    sv->s[1].fd < 0)
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
		pid = fork();
		if (!pid)
			run_command(pl);
		return pid;
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
	sv.child = start(pl);
	err = errno;
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
	struct sc_buf missing = SC_BUF_INIT;
	const char *name = tier == TIER_FULL ? "the full" : "the landlock";
	int ret;

	if (unenforced(p, tier, &missing)) {
		if (pl->pol->mode == SC_MODE_REQUIRED) {
			ret = refuse(name, missing.data);
			sc_buf_release(&missing);
			return ret;
		}
		sc_warning("SANDBOX-DEGRADED", "unenforced: %s", missing.data);
	}
	sc_buf_release(&missing);
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
		ret = launch(&pl);
		plan_release(&pl);
		return ret;
	}
	if (pol->tier != SC_TIER_LANDLOCK) {
		resolve_sockets(&pl);
		protections(pol, pl.abi, 1, 1, p);
		ret = run_tier(&pl, TIER_FULL, p);
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
	}
	protections(pol, pl.abi, 0, hidden_outside_writable(&pl), p);
	ret = run_tier(&pl, TIER_LANDLOCK, p);
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

int sc_sandbox_probe(const struct sc_sandbox_policy *pol, int fd,
		     int force_records)
{
	struct protection p[2][P_COUNT];
	int abi = sc_landlock_abi(), userns = probe_userns(), t, i, ret;
	struct sc_output out;
	struct sc_record rec;
	char num[16];

	protections(pol, abi, userns, 1, p[0]);
	protections(pol, abi, 0, 1, p[1]);
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
			sc_record_write(&out, &rec);
		}
	ret = sc_output_flush(&out);
	if (ret < 0)
		sc_error_errno("WRITE-FAILED", "cannot write output");
	sc_record_release(&rec);
	sc_output_release(&out);
	return ret;
}
