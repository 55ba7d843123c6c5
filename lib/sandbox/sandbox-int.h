/*
 * Private to lib/sandbox-*.c, sc-sandbox-exec on Linux cut at its seams:
 * the plan resolved before anything runs (sandbox-plan.c, and its private
 * TMPDIR in sandbox-tmpdir.c), what runs inside the namespaces
 * (sandbox-inside.c), the supervisor outside them (sandbox-supervisor.c),
 * and the tiers, their protections and --probe (sandbox-linux.c).  The
 * types they share and the functions one calls in another.  Not
 * installed, and included by no file outside lib/sandbox-*.c.
 */
#ifndef SC_SANDBOX_INT_H
#define SC_SANDBOX_INT_H

#include <signal.h>
#include <sys/types.h>

#include "netproxy.h"
#include "sandbox-linux.h"

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

/* sandbox-plan.c */
int sc_sandbox_beneath_any(const char *path, const struct sc_strlist *l);
int sc_sandbox_plan_resolve(struct plan *pl,
			    const struct sc_sandbox_policy *pol,
			    char *const argv[], char *const envp[]);
void sc_sandbox_resolve_sockets(struct plan *pl);
void sc_sandbox_plan_release(struct plan *pl);

/* sandbox-tmpdir.c */
int sc_sandbox_plan_tmpdir(struct plan *pl, enum tier tier);
void sc_sandbox_plan_tmpdir_release(struct plan *pl);

/* sandbox-inside.c */
_Noreturn void sc_sandbox_run_command(const struct plan *pl);
_Noreturn void sc_sandbox_namespace_init(const struct plan *pl);

/* sandbox-supervisor.c */
int sc_sandbox_launch(struct plan *pl);

#endif
