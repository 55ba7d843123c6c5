/*
 * sc-sandbox-exec on Linux: the supervisor, the calling process outside
 * the sandbox.  It starts the command in its tier, turns signals into
 * events, enforces --timeout and --max-output, reads the report pipe,
 * kills everything the command started and ends with its status.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "diag.h"
#include "io.h"
#include "sandbox-int.h"

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

			/* The kernel ends each number with a space; one without
			 * was cut by the buffer, and killing what is left of it
			 * would kill another process: the next round reads it
			 * whole, once the ones before it are gone. */
			if (end == p || *end != ' ')
				break;
			if (pid > 0 && pid != sv->janitor &&
			    kill((pid_t)pid, SIGKILL) == 0)
				any = 1;
		}
		if (reap(sv) || n == (ssize_t)sizeof(buf) - 1)
			any = 1;   /* reaped, or the list went on past the buffer */
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
		sc_sandbox_run_command(pl);
	}
	if (pl->pol->net != SC_NET_FULL)
		flags |= CLONE_NEWNET;
	/* Like fork(), but the child is the init of new namespaces. */
	pid = (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, 0);
	if (!pid)
		sc_sandbox_namespace_init(pl);
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
int sc_sandbox_launch(struct plan *pl)
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
