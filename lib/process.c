#include <errno.h>
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
