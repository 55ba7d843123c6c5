/*
 * sc-sandbox-exec on Linux.  See sandbox-linux.h for the shape.  This file
 * holds what each tier enforces, the choice of the tier and --probe; the
 * plan, the inside and the supervisor each have a file of their own
 * (sandbox-int.h names them).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "buf.h"
#include "diag.h"
#include "landlock.h"
#include "record.h"
#include "rectable.h"
#include "sandbox-int.h"
#include "seccomp-filter.h"

/* The Landlock ABI below which the sandbox refuses under --mode required. */
#define LANDLOCK_MIN_ABI 3


/* Landlock can keep a hidden path unreadable only outside the writable ones. */
static int hidden_outside_writable(const struct plan *pl)
{
	size_t i;

	for (i = 0; i < pl->hide_dirs.nr; i++)
		if (sc_sandbox_beneath_any(pl->hide_dirs.v[i], &pl->writable))
			return 0;
	for (i = 0; i < pl->hide_files.nr; i++)
		if (sc_sandbox_beneath_any(pl->hide_files.v[i], &pl->writable))
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
		if (pl->pol->mode == SC_SANDBOX_MODE_REQUIRED) {
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
	return sc_sandbox_launch(pl);
}

int sc_sandbox_exec(const struct sc_sandbox_policy *pol, char *const argv[],
		    char *const envp[])
{
	struct protection p[P_COUNT];
	struct plan pl;
	int ret;

	if (sc_sandbox_plan_resolve(&pl, pol, argv, envp) < 0) {
		sc_sandbox_plan_release(&pl);
		return SC_SANDBOX_FAILED;
	}
	if (pol->mode == SC_SANDBOX_MODE_OFF) {
		sc_warning("SANDBOX-OFF", "--mode off: the command runs "
			   "unconfined");
		pl.tier = TIER_OFF;
		ret = sc_sandbox_plan_tmpdir(&pl, TIER_OFF) < 0 ?
		      SC_SANDBOX_FAILED : sc_sandbox_launch(&pl);
		sc_sandbox_plan_release(&pl);
		return ret;
	}
	if (pol->tier != SC_TIER_LANDLOCK) {
		sc_sandbox_resolve_sockets(&pl);
		protections(pol, pl.abi, 1, 1, read_only_needed(&pl), p);
		ret = sc_sandbox_plan_tmpdir(&pl, TIER_FULL) < 0 ?
		      SC_SANDBOX_FAILED : run_tier(&pl, TIER_FULL, p);
		if (ret != -2) {
			sc_sandbox_plan_release(&pl);
			return ret;
		}
		if (pol->tier == SC_TIER_FULL) {
			sc_sandbox_plan_release(&pl);
			return refuse("the full", "user namespaces (refused by "
				      "the kernel)");
		}
		sc_warning("NO-USER-NAMESPACES", "the kernel refused user "
			   "namespaces: trying the landlock tier");
		sc_sandbox_plan_tmpdir_release(&pl);
	}
	protections(pol, pl.abi, 0, hidden_outside_writable(&pl),
		    read_only_needed(&pl), p);
	ret = sc_sandbox_plan_tmpdir(&pl, TIER_LANDLOCK) < 0 ?
	      SC_SANDBOX_FAILED : run_tier(&pl, TIER_LANDLOCK, p);
	sc_sandbox_plan_release(&pl);
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
