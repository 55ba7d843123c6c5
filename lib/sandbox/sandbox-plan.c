/*
 * sc-sandbox-exec on Linux: the plan.  Everything the policy names is
 * resolved here, before anything runs: the root and the writable and
 * read-only paths (real paths, bound in order), the credential paths to
 * hide and their aliases, the Unix sockets to mask, the --network hosts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "landlock.h"
#include "mountinfo.h"
#include "passwd.h"
#include "paths.h"
#include "protected.h"
#include "rootguard.h"
#include "sandbox-int.h"

/* Bound of the Unix-socket scan: it runs before every command. */
#define SOCKET_SCAN_ENTRIES 100000

/* ---- resolving the policy ---------------------------------------- */

int sc_sandbox_beneath_any(const char *path, const struct sc_strlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (sc_path_is_beneath(path, l->v[i]))
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

	if (real && sc_sandbox_beneath_any(real, &pl->writable))
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

/* NAME, one of sc_protected_home, under HOME. */
static void add_hidden_under(struct plan *pl, const char *home,
			     const char *name)
{
	struct sc_buf b = SC_BUF_INIT;

	sc_buf_addf(&b, "%s/%s", home, name);
	add_hidden(pl, b.data);
	sc_buf_release(&b);
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
		for (i = 0; homes[h] && sc_protected_home(i); i++)
			add_hidden_under(pl, homes[h], sc_protected_home(i));
	free(pw_home);
	/*
	 * A command started with another HOME (an external agent gets a
	 * private one) must not read the person's credentials either.
	 */
	for (h = 0; h < pol->hide_homes.nr; h++)
		for (i = 0; sc_protected_home(i); i++)
			add_hidden_under(pl, pol->hide_homes.v[h],
					 sc_protected_home(i));
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
	    sc_sandbox_beneath_any(path, &pl->writable))
		return;
	for (i = 0; i < pl->sockets.nr; i++)
		if (!strcmp(pl->sockets.v[i], path))
			return;
	sc_strlist_add(&pl->sockets, path);
}

void sc_sandbox_resolve_sockets(struct plan *pl)
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

/* --network hosts: the list and the record log (the proxied environment
 * comes with TMPDIR's, in sc_sandbox_plan_tmpdir). */
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

int sc_sandbox_plan_resolve(struct plan *pl,
			    const struct sc_sandbox_policy *pol,
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

void sc_sandbox_plan_release(struct plan *pl)
{
	size_t i;

	sc_sandbox_plan_tmpdir_release(pl);
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

