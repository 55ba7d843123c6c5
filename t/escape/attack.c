/*
 * attack: one escape attempt per invocation, for the escape suite.
 *
 *   attack NAME [ARG...]
 *
 * Exit 0 when the attempt worked (the sandbox failed), 1 when the system
 * refused it (the reason on stderr), 2 on a usage error.  A test runs each
 * attempt inside sc-sandbox-exec and expects 1, and, where that is safe,
 * outside first and expects 0, so the test itself can fail.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#define X32_SYSCALL_BIT 0x40000000L

static int denied(const char *what)
{
	fprintf(stderr, "attack: %s: %s\n", what, strerror(errno));
	return 1;
}

static int worked(const char *what)
{
	printf("ESCAPED: %s\n", what);
	return 0;
}

static int check(long rc, const char *what)
{
	return rc < 0 ? denied(what) : worked(what);
}

static int do_ptrace(const char *pid)
{
	pid_t p = (pid_t)atoi(pid);
	long rc = ptrace(PTRACE_SEIZE, p, NULL, NULL);

	if (rc == 0)
		ptrace(PTRACE_DETACH, p, NULL, NULL);
	return check(rc, "ptrace");
}

static int do_memread(const char *pid)
{
	char path[64], buf[16];
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/mem", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return denied("open mem");
	/* Page zero is unmapped: any answer but EACCES/EPERM means access. */
	if (pread(fd, buf, sizeof(buf), 0x400000) < 0 && errno != EIO)
		return denied("read mem");
	return worked("/proc/PID/mem opened");
}

static int do_io_uring(void)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	return check(syscall(SYS_io_uring_setup, 4, &p), "io_uring_setup");
}

static int do_keyctl(void)
{
	return check(syscall(SYS_add_key, "user", "sc-escape", "x", 1,
			     -2 /* KEY_SPEC_PROCESS_KEYRING */), "add_key");
}

static int do_bpf(void)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 4;
	a.max_entries = 1;
	return check(syscall(SYS_bpf, BPF_MAP_CREATE, &a, sizeof(a)), "bpf");
}

static int do_perf(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return check(syscall(SYS_perf_event_open, &a, 0, -1, -1, 0),
		     "perf_event_open");
}

static int do_clone3(void)
{
	struct clone_args a;
	long pid;

	memset(&a, 0, sizeof(a));
	a.exit_signal = SIGCHLD;
	pid = syscall(SYS_clone3, &a, sizeof(a));
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	return check(pid, "clone3");
}

static int do_unshare(const char *what)
{
	int flag = !strcmp(what, "user") ? CLONE_NEWUSER :
		   !strcmp(what, "mount") ? CLONE_NEWNS :
		   !strcmp(what, "net") ? CLONE_NEWNET : CLONE_NEWPID;

	return check(unshare(flag), "unshare");
}

static int do_umount(const char *path)
{
	return check(umount2(path, MNT_DETACH), "umount");
}

static int do_mount(const char *path)
{
	return check(mount("tmpfs", path, "tmpfs", 0, NULL), "mount");
}

static int do_setns(void)
{
	int fd = open("/proc/self/ns/net", O_RDONLY);

	if (fd < 0)
		return denied("open ns");
	return check(setns(fd, 0), "setns");
}

static int do_socket(const char *fam, const char *type, const char *proto)
{
	int s = socket(atoi(fam), atoi(type), atoi(proto));

	return check(s, "socket");
}

static int fill_inet(const char *host, const char *port,
		     struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons((uint16_t)atoi(port));
		*len = sizeof(*in4);
		return AF_INET;
	}
	if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)atoi(port));
		*len = sizeof(*in6);
		return AF_INET6;
	}
	return -1;
}

static int do_connect_tcp(const char *host, const char *port, int proto)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fam = fill_inet(host, port, &ss, &len), s;
	char buf[8];

	if (fam < 0)
		return 2;
	s = socket(fam, SOCK_STREAM, proto);
	if (s < 0)
		return denied("socket");
	if (connect(s, (struct sockaddr *)&ss, len) < 0)
		return denied("connect");
	/* The listener answers "ok": we reached it. */
	if (read(s, buf, 2) != 2)
		return denied("read");
	return worked("tcp connect");
}

static int do_udp_send(const char *host, const char *port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fam = fill_inet(host, port, &ss, &len), s;

	if (fam < 0)
		return 2;
	s = socket(fam, SOCK_DGRAM, 0);
	if (s < 0)
		return denied("socket");
	return check(sendto(s, "ESCAPED", 7, 0, (struct sockaddr *)&ss, len),
		     "udp sendto");
}

static int unix_addr(const char *path, int abstract, struct sockaddr_un *sun,
		     socklen_t *len)
{
	size_t n = strlen(path);

	if (n + 2 > sizeof(sun->sun_path))
		return -1;
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path + (abstract ? 1 : 0), path, n);
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
			   (abstract ? 1 : 0));
	return 0;
}

static int do_connect_unix(const char *path, int abstract)
{
	struct sockaddr_un sun;
	socklen_t len;
	char buf[8];
	int s;

	if (unix_addr(path, abstract, &sun, &len) < 0)
		return 2;
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0)
		return denied("socket");
	if (connect(s, (struct sockaddr *)&sun, len) < 0)
		return denied("connect");
	if (read(s, buf, 2) != 2)
		return denied("read");
	return worked("unix connect");
}

/* Listen, answer "ok" to up to N connections, then exit.  For the tests. */
static int serve(int s, int n)
{
	if (listen(s, 8) < 0)
		return denied("listen");
	printf("listening\n");
	fflush(stdout);
	while (n-- > 0) {
		int c = accept(s, NULL, NULL);

		if (c < 0)
			return denied("accept");
		if (write(c, "ok", 2) < 0)
			return denied("write");
		close(c);
	}
	return 0;
}

static int do_serve_tcp(const char *host, const char *port, const char *n)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fam = fill_inet(host, port, &ss, &len), s, one = 1;

	if (fam < 0)
		return 2;
	s = socket(fam, SOCK_STREAM, 0);
	if (s < 0)
		return denied("socket");
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)&ss, len) < 0)
		return denied("bind");
	return serve(s, atoi(n));
}

static int do_serve_unix(const char *path, int abstract, const char *n)
{
	struct sockaddr_un sun;
	socklen_t len;
	int s;

	if (unix_addr(path, abstract, &sun, &len) < 0)
		return 2;
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sun, len) < 0)
		return denied("bind");
	return serve(s, atoi(n));
}

/* Wait up to SECONDS for one datagram; exit 0 when one came. */
static int do_udp_recv(const char *host, const char *port, const char *secs)
{
	struct sockaddr_storage ss;
	socklen_t len;
	struct timeval tv = { atoi(secs), 0 };
	int fam = fill_inet(host, port, &ss, &len), s;
	char buf[64];

	if (fam < 0)
		return 2;
	s = socket(fam, SOCK_DGRAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&ss, len) < 0)
		return denied("bind");
	printf("listening\n");
	fflush(stdout);
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (recv(s, buf, sizeof(buf), 0) < 0)
		return denied("recv");
	return worked("datagram received");
}

static int do_tiocsti(const char *fdname)
{
	char c = '#';
	int fd = !strcmp(fdname, "tty") ? open("/dev/tty", O_RDWR) : atoi(fdname);

	if (fd < 0)
		return denied("open /dev/tty");
	return check(ioctl(fd, TIOCSTI, &c), "TIOCSTI");
}

static int do_int80(void)
{
	long ret;

	/* getpid through the 32-bit entry point: another ABI. */
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(20) : "memory");
	return ret > 0 ? worked("int 0x80") : (errno = (int)-ret, denied("int 0x80"));
}

static int do_personality(void)
{
	return check(personality(READ_IMPLIES_EXEC), "personality");
}

/*
 * Read PID's memory without ptrace, at the start of its first mapping.
 * EFAULT means the call got past every permission check: it worked.
 */
static int do_vm_read(const char *pid)
{
	char path[64], buf[16];
	unsigned long start = 0x400000;
	struct iovec local = { buf, sizeof(buf) }, remote;
	FILE *fp;
	long rc;

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	fp = fopen(path, "r");
	if (fp) {
		if (fscanf(fp, "%lx-", &start) != 1)
			start = 0x400000;
		fclose(fp);
	}
	remote.iov_base = (void *)start;
	remote.iov_len = sizeof(buf);
	rc = process_vm_readv((pid_t)atoi(pid), &local, 1, &remote, 1, 0);
	if (rc < 0 && errno == EFAULT)
		return worked("process_vm_readv reached the memory");
	return check(rc, "process_vm_readv");
}

static int do_userfaultfd(void)
{
	return check(syscall(SYS_userfaultfd, O_CLOEXEC), "userfaultfd");
}

static int do_chroot(const char *path)
{
	return check(chroot(path), "chroot");
}

/* pivot_root(".", "."): the current directory must be a mount point. */
static int do_pivot_root(void)
{
	return check(syscall(SYS_pivot_root, ".", "."), "pivot_root");
}

/* The new mount API: a detached tmpfs, or a detached copy of a tree. */
static int do_fsopen(void)
{
	return check(syscall(SYS_fsopen, "tmpfs", 0), "fsopen");
}

static int do_open_tree(const char *path)
{
	return check(syscall(SYS_open_tree, AT_FDCWD, path, OPEN_TREE_CLONE),
		     "open_tree");
}

/* The clone system call itself with CLONE_NEWUSER, not unshare(2). */
static int do_clone_newuser(void)
{
	long pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	return check(pid, "clone(CLONE_NEWUSER)");
}

/* ENOKEY means the call reached the keyring code: not filtered. */
static int do_request_key(void)
{
	long rc = syscall(SYS_request_key, "user", "sc-escape-absent", NULL,
			  -2 /* KEY_SPEC_PROCESS_KEYRING */);

	if (rc < 0 && errno == ENOKEY)
		return worked("request_key reached the kernel");
	return check(rc, "request_key");
}

/* getpid through the x32 ABI: the filter must kill, whatever the kernel. */
static int do_x32(void)
{
	return check(syscall(X32_SYSCALL_BIT | SYS_getpid), "x32 getpid");
}

/*
 * socket() with garbage in the upper 32 bits of the family: the kernel
 * reads an int, so a filter comparing 64 bits would let AF_PACKET by.
 */
static int do_socket_hi(const char *fam, const char *type, const char *proto)
{
	unsigned long f = (1UL << 32) | (unsigned long)atoi(fam);

	return check(syscall(SYS_socket, f, atoi(type), atoi(proto)),
		     "socket (upper bits set)");
}

static int do_chown(const char *path)
{
	return check(chown(path, getuid(), getgid()), "chown");
}

static int do_utime(const char *path)
{
	struct timespec t[2] = { { 0, 0 }, { 0, 0 } };

	return check(utimensat(AT_FDCWD, path, t, 0), "utimensat");
}

static int do_setxattr(const char *path)
{
	return check(setxattr(path, "user.sc-escape", "1", 1, 0), "setxattr");
}

/*
 * Not an attack: send() on a connected Unix socket must keep working
 * (filtering sendto breaks it, and asyncio hangs).  0 when it works.
 */
static int do_unix_send(void)
{
	int sv[2];
	char buf[4];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return denied("socketpair");
	if (send(sv[0], "ok", 2, 0) != 2)
		return denied("send");
	if (recv(sv[1], buf, sizeof(buf), 0) != 2)
		return denied("recv");
	return worked("unix send");
}

int main(int argc, char **argv)
{
	const char *a = argc > 1 ? argv[1] : "";
	const char *x = argc > 2 ? argv[2] : "", *y = argc > 3 ? argv[3] : "";
	const char *z = argc > 4 ? argv[4] : "1";

	if (!strcmp(a, "ptrace")) return do_ptrace(x);
	if (!strcmp(a, "memread")) return do_memread(x);
	if (!strcmp(a, "io_uring")) return do_io_uring();
	if (!strcmp(a, "keyctl")) return do_keyctl();
	if (!strcmp(a, "bpf")) return do_bpf();
	if (!strcmp(a, "perf")) return do_perf();
	if (!strcmp(a, "clone3")) return do_clone3();
	if (!strcmp(a, "unshare")) return do_unshare(x);
	if (!strcmp(a, "umount")) return do_umount(x);
	if (!strcmp(a, "mount")) return do_mount(x);
	if (!strcmp(a, "setns")) return do_setns();
	if (!strcmp(a, "socket")) return do_socket(x, y, z);
	if (!strcmp(a, "connect-tcp")) return do_connect_tcp(x, y, 0);
	if (!strcmp(a, "connect-mptcp")) return do_connect_tcp(x, y, IPPROTO_MPTCP);
	if (!strcmp(a, "udp-send")) return do_udp_send(x, y);
	if (!strcmp(a, "connect-unix")) return do_connect_unix(x, 0);
	if (!strcmp(a, "connect-abstract")) return do_connect_unix(x, 1);
	if (!strcmp(a, "serve-tcp")) return do_serve_tcp(x, y, z);
	if (!strcmp(a, "serve-unix")) return do_serve_unix(x, 0, y[0] ? y : "1");
	if (!strcmp(a, "serve-abstract")) return do_serve_unix(x, 1, y[0] ? y : "1");
	if (!strcmp(a, "udp-recv")) return do_udp_recv(x, y, z);
	if (!strcmp(a, "tiocsti")) return do_tiocsti(x);
	if (!strcmp(a, "int80")) return do_int80();
	if (!strcmp(a, "personality")) return do_personality();
	if (!strcmp(a, "vm-read")) return do_vm_read(x);
	if (!strcmp(a, "userfaultfd")) return do_userfaultfd();
	if (!strcmp(a, "chroot")) return do_chroot(x);
	if (!strcmp(a, "pivot-root")) return do_pivot_root();
	if (!strcmp(a, "fsopen")) return do_fsopen();
	if (!strcmp(a, "open-tree")) return do_open_tree(x);
	if (!strcmp(a, "clone-newuser")) return do_clone_newuser();
	if (!strcmp(a, "request-key")) return do_request_key();
	if (!strcmp(a, "x32")) return do_x32();
	if (!strcmp(a, "socket-hi")) return do_socket_hi(x, y, z);
	if (!strcmp(a, "chown")) return do_chown(x);
	if (!strcmp(a, "utime")) return do_utime(x);
	if (!strcmp(a, "setxattr")) return do_setxattr(x);
	if (!strcmp(a, "unix-send")) return do_unix_send();
	fprintf(stderr, "attack: unknown attack '%s'\n", a);
	return 2;
}
