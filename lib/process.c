#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process.h"

extern char **environ;

static int add_dup(posix_spawn_file_actions_t *fa, int fd, int target)
{
	if (fd < 0)
		return 0;
	/* glibc clears close-on-exec when FD already is TARGET (POSIX 2017). */
	return posix_spawn_file_actions_adddup2(fa, fd, target);
}

pid_t sc_spawn(char *const argv[], int in, int out, int err, int dirfd)
{
	return sc_spawn_fd3(argv, in, out, err, -1, dirfd);
}

pid_t sc_spawn_fd3(char *const argv[], int in, int out, int err, int fd3,
		   int dirfd)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc;

	if (posix_spawn_file_actions_init(&fa)) {
		errno = ENOMEM;
		return -1;
	}
	rc = add_dup(&fa, in, 0);
	if (!rc)
		rc = add_dup(&fa, out, 1);
	if (!rc)
		rc = add_dup(&fa, err, 2);
	if (!rc)
		rc = add_dup(&fa, fd3, 3);
	if (!rc && dirfd >= 0)
		rc = posix_spawn_file_actions_addfchdir_np(&fa, dirfd);
	if (!rc)
		rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		errno = rc;
		return -1;
	}
	return pid;
}

/*
 * In the child: a session of its own, the pipes on 0 and 1 (and ERR on
 * 2), every other inherited descriptor closed on exec, then ARGV; what
 * failed goes back as its errno on REPORT.
 */
static _Noreturn void exec_piped(char *const argv[], char *const env[],
				 const char *dir, int in, int out, int err,
				 int report)
{
	int e;

	if (setsid() < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
	    (err >= 0 && dup2(err, 2) < 0) || (dir && chdir(dir) < 0))
		goto fail;
	/* Descriptors the caller leaked must not reach the child. */
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		goto fail;
	if (env)
		execvpe(argv[0], argv, env);
	else
		execvp(argv[0], argv);
fail:
	e = errno;
	(void)!write(report, &e, sizeof(e));
	_exit(127);
}

static void close_pair(int fds[2])
{
	close(fds[0]);
	close(fds[1]);
}

enum sc_spawn_step sc_spawn_piped(char *const argv[], char *const env[],
				  const char *dir, int err, struct sc_piped *p)
{
	int to[2], from[2], rep[2], e = 0;
	ssize_t n;

	p->pid = -1;
	p->to = p->from = -1;
	if (pipe2(to, O_CLOEXEC) < 0)
		return SC_SPAWN_PIPES;
	if (pipe2(from, O_CLOEXEC) < 0) {
		e = errno;
		close_pair(to);
		errno = e;
		return SC_SPAWN_PIPES;
	}
	if (pipe2(rep, O_CLOEXEC) < 0) {
		e = errno;
		close_pair(to);
		close_pair(from);
		errno = e;
		return SC_SPAWN_PIPES;
	}
	p->pid = fork();
	if (p->pid == 0)
		exec_piped(argv, env, dir, to[0], from[1], err, rep[1]);
	e = errno;
	close(to[0]);
	close(from[1]);
	close(rep[1]);
	if (p->pid < 0) {
		close(to[1]);
		close(from[0]);
		close(rep[0]);
		errno = e;
		return SC_SPAWN_FORK;
	}
	sc_kill_group_on_fatal_signal(p->pid);
	do
		n = read(rep[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(rep[0]);
	p->to = to[1];
	p->from = from[0];
	if (n == sizeof(e)) {
		errno = e;
		return SC_SPAWN_EXEC;
	}
	return SC_SPAWN_OK;
}

int sc_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int sc_anon_file(const char *name)
{
	return memfd_create(name, MFD_CLOEXEC);
}

/*
 * The group to take along, for the signal handler below: the only
 * process-wide state here, because a handler has no other way to know it.
 */
static volatile sig_atomic_t fatal_group;

static void on_fatal_signal(int sig)
{
	if (fatal_group > 0)
		(void)kill(-(pid_t)fatal_group, SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

void sc_kill_group_on_fatal_signal(pid_t group)
{
	struct sigaction sa;

	fatal_group = group;
	if (group <= 0)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGTERM, &sa, NULL);
	(void)sigaction(SIGINT, &sa, NULL);
	(void)sigaction(SIGHUP, &sa, NULL);
}
