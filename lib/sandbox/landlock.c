#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/landlock.h>

#include "buf.h"
#include "diag.h"
#include "landlock.h"
#include "paths.h"

/*
 * The system headers may be older than the kernel: spell out what ABI 3
 * to 9 added, and use a ruleset structure of our own with every member.
 */
#define LL_FS_TRUNCATE (1ULL << 14)      /* ABI 3 */
#define LL_FS_IOCTL_DEV (1ULL << 15)     /* ABI 5 */
#define LL_FS_RESOLVE_UNIX (1ULL << 16)  /* ABI 9: connect to a socket on disk */
#define LL_NET_BIND_TCP (1ULL << 0)      /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)

#define LL_FS_READ (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | \
		    LANDLOCK_ACCESS_FS_READ_DIR)
/* The rights that apply to a file rather than a directory. */
#define LL_FS_FILE (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
		    LANDLOCK_ACCESS_FS_READ_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV)

struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

int sc_landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? 0 : (int)abi;
}

static uint64_t fs_rights(int abi)
{
	uint64_t all = (1ULL << 13) - 1;  /* ABI 1 */

	if (abi >= 2)
		all |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		all |= LL_FS_TRUNCATE;
	if (abi >= 5)
		all |= LL_FS_IOCTL_DEV;
	/*
	 * Handled, so connecting to a Unix socket on disk is allowed only
	 * beneath a writable path (SC_LL_WRITE grants every handled right),
	 * or to one the sandbox made: in the landlock tier the only layer
	 * that can, in the full tier one more besides the masks.
	 */
	if (abi >= 9)
		all |= LL_FS_RESOLVE_UNIX;
	return all;
}

int sc_landlock_open(struct sc_landlock *ll, int abi, int deny_tcp)
{
	struct ll_ruleset_attr attr = { 0, 0, 0 };
	size_t size = sizeof(attr.handled_access_fs);
	long fd;

	ll->abi = abi;
	ll->fd = -1;
	ll->handled_fs = attr.handled_access_fs = fs_rights(abi);
	if (deny_tcp && abi >= 4) {
		attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
		size = 2 * sizeof(uint64_t);
	}
	if (abi >= 6) {
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
		size = sizeof(attr);
	}
	fd = syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (fd < 0)
		return sc_error_errno("LANDLOCK-FAILED", "cannot create a "
				      "Landlock ruleset (ABI %d)", abi);
	ll->fd = (int)fd;
	return 0;
}

static uint64_t rights_for(const struct sc_landlock *ll, int access)
{
	uint64_t r = 0;

	if (access & SC_LL_READ)
		r |= LL_FS_READ;
	if (access & SC_LL_WRITE)
		r |= ll->handled_fs;
	if (access & SC_LL_DEV)
		r |= LANDLOCK_ACCESS_FS_WRITE_FILE | LL_FS_IOCTL_DEV |
		     LANDLOCK_ACCESS_FS_READ_FILE;
	return r & ll->handled_fs;
}

/* Add a rule granting RIGHTS beneath the object FD refers to. */
static int add_rule(struct sc_landlock *ll, int fd, uint64_t rights,
		    const char *path)
{
	struct ll_path_beneath rule;

	rule.allowed_access = rights & ll->handled_fs;
	rule.parent_fd = fd;
	if (rule.allowed_access &&
	    syscall(SYS_landlock_add_rule, ll->fd, LANDLOCK_RULE_PATH_BENEATH,
		    &rule, 0) < 0)
		return sc_error_errno("LANDLOCK-FAILED", "cannot add a rule "
				      "for '%s'", path);
	return 0;
}

int sc_landlock_allow(struct sc_landlock *ll, const char *path, int access)
{
	struct stat st;
	uint64_t rights;
	int fd, ret;

	/* O_PATH without O_NOFOLLOW: the rule is for what the path names. */
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return sc_error_errno("LANDLOCK-FAILED", "cannot open '%s'",
				      path);
	}
	if (fstat(fd, &st) < 0) {
		close(fd);
		return sc_error_errno("LANDLOCK-FAILED", "cannot stat '%s'",
				      path);
	}
	rights = rights_for(ll, access);
	if (!S_ISDIR(st.st_mode))
		rights &= LL_FS_FILE;
	ret = add_rule(ll, fd, rights, path);
	close(fd);
	return ret;
}

/* 0 when PATH is none of HIDDEN, 1 when it is one, 2 when it is above one. */
static int hidden_relation(const char *path, char *const *hidden, size_t n)
{
	size_t i;
	int above = 0;

	for (i = 0; i < n; i++) {
		if (!strcmp(hidden[i], path))
			return 1;
		if (sc_path_is_beneath(hidden[i], path))
			above = 1;
	}
	return above ? 2 : 0;
}

/*
 * Grant reading beneath one entry of a directory on the way to a hidden
 * path, or go down into it when a hidden path lies deeper.  A symlink gets
 * nothing: what it names is judged where that lies.
 */
static int read_entry(struct sc_landlock *ll, int dirfd, const char *path,
		      const char *name, char *const *hidden, size_t n,
		      int depth);

static int read_dir_except(struct sc_landlock *ll, int fd, const char *path,
			   char *const *hidden, size_t n, int depth)
{
	struct dirent *de;
	DIR *d;
	int ret;

	/* Listing only: names stay visible, contents need a rule below. */
	if (add_rule(ll, fd, LANDLOCK_ACCESS_FS_READ_DIR, path) < 0)
		return -1;
	d = fdopendir(dup(fd));
	if (!d)
		return sc_error_errno("LANDLOCK-FAILED", "cannot list '%s'", path);
	ret = 0;
	while (!ret && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ret = read_entry(ll, dirfd(d), path, de->d_name, hidden,
					 n, depth);
	closedir(d);
	return ret;
}

static int read_entry(struct sc_landlock *ll, int dirfd, const char *path,
		      const char *name, char *const *hidden, size_t n,
		      int depth)
{
	struct sc_buf child = SC_BUF_INIT;
	struct stat st;
	int fd, rel, ret = 0;

	sc_buf_addf(&child, "%s%s%s", path, strcmp(path, "/") ? "/" : "", name);
	rel = hidden_relation(child.data, hidden, n);
	fd = rel == 1 ? -1 : openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || S_ISLNK(st.st_mode))
		goto out;   /* hidden, vanished or a symlink: nothing to grant */
	if (rel == 2 && S_ISDIR(st.st_mode) && depth < 64) {
		int dfd = openat(dirfd, name, O_RDONLY | O_DIRECTORY |
				 O_NOFOLLOW | O_CLOEXEC);

		ret = dfd < 0 ? sc_error_errno("LANDLOCK-FAILED", "cannot open "
					       "'%s'", child.data) :
		      read_dir_except(ll, dfd, child.data, hidden, n, depth + 1);
		if (dfd >= 0)
			close(dfd);
	} else {
		ret = add_rule(ll, fd, S_ISDIR(st.st_mode) ? LL_FS_READ :
			       LL_FS_READ & LL_FS_FILE, child.data);
	}
out:
	if (fd >= 0)
		close(fd);
	sc_buf_release(&child);
	return ret;
}

int sc_landlock_allow_read_except(struct sc_landlock *ll,
				  char *const *hidden, size_t n)
{
	int fd, ret;

	if (!n)
		return sc_landlock_allow(ll, "/", SC_LL_READ);
	if (hidden_relation("/", hidden, n) == 1)
		return 0;
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return sc_error_errno("LANDLOCK-FAILED", "cannot open '/'");
	ret = read_dir_except(ll, fd, "/", hidden, n, 0);
	close(fd);
	return ret;
}

int sc_landlock_enforce(struct sc_landlock *ll)
{
	int ret = 0;

	if (syscall(SYS_landlock_restrict_self, ll->fd, 0) < 0)
		ret = sc_error_errno("LANDLOCK-FAILED",
				     "cannot enforce the Landlock ruleset");
	sc_landlock_close(ll);
	return ret;
}

void sc_landlock_close(struct sc_landlock *ll)
{
	if (ll->fd >= 0)
		close(ll->fd);
	ll->fd = -1;
}
