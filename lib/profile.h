#ifndef SC_PROFILE_H
#define SC_PROFILE_H

/*
 * A sandbox policy: what sc-sandbox-exec lets a command write, read and
 * reach.  Profiles (share/profiles/NAME.profile, or any file) hold one in
 * git-config syntax and are read with libgit2, never consulting the user's
 * global or system git configuration:
 *
 *	[sandbox]
 *		network = none | loopback | full | hosts
 *		allowHost = HOST[:PORT]  (repeated; hostlist.h)
 *		writable = PATH          (repeated; inside the root; ~/ is
 *		                          $HOME; skipped when it does not
 *		                          exist)
 *		writableOutside = PATH   (repeated; as writable, outside the
 *		                          root, said on stderr every run)
 *		rootWritable = BOOL      (false: the root is read-only too)
 *		readOnly = PATH          (repeated)
 *		hide = PATH              (repeated)
 *		env = scrub | short
 *		envKeep = NAME           (repeated)
 *		timeout = SECONDS
 *		maxOutput = BYTES
 *
 * The command line adds to the lists and overrides the single values.
 */

#include <stddef.h>

#include "env.h"
#include "strlist.h"

/* The network a sandboxed command gets (--network). */
enum sc_net_mode {
	SC_NET_NONE = 0,   /* no network at all, not even loopback */
	SC_NET_LOOPBACK,   /* a network namespace of its own with only lo */
	SC_NET_FULL,       /* the host's network */
	SC_NET_HOSTS,      /* like loopback, plus the host proxy (netproxy.h) */
};

enum sc_sandbox_mode {
	SC_SANDBOX_MODE_UNSET = -1,
	/* every protection or nothing runs (125) */
	SC_SANDBOX_MODE_REQUIRED = 0,
	SC_SANDBOX_MODE_AUTO,   /* what the host can, naming what it cannot */
	SC_SANDBOX_MODE_OFF,    /* no confinement, said on stderr */
};

enum sc_tier {
	SC_TIER_BEST = 0,     /* the strongest this host has */
	SC_TIER_FULL,         /* namespaces + Landlock + seccomp */
	SC_TIER_LANDLOCK,     /* Landlock + seccomp only */
};

struct sc_sandbox_policy {
	char *root;                    /* NULL: the current directory */
	struct sc_strlist writable, read_only, hide, env_keep;
	/* Writable places outside the root, asked for by name
	 * (--writable-outside): --writable refuses them. */
	struct sc_strlist writable_outside;
	/* Other homes whose credential paths are hidden too (--hide-home):
	 * the person's HOME when the command runs with another one. */
	struct sc_strlist hide_homes;
	int root_read_only;            /* 1: nothing writable but TMPDIR... */
	int net;                       /* enum sc_net_mode, -1 unset */
	int mode;                      /* enum sc_sandbox_mode */
	int tier;                      /* enum sc_tier */
	int env;                       /* enum sc_env_mode, -1 unset */
	long long timeout_ms;          /* 0 none, -1 unset */
	long long max_output;          /* bytes per stream; 0 none, -1 unset */
	int keep_stdin;                /* 1: the caller's stdin (a protocol) */
	/* --network hosts: the host list (entries checked when added) and
	 * where connection records go ("N" a descriptor, else a file). */
	struct sc_strlist allow_hosts;
	char *connections;
	/* Protections a person accepts going without under --mode required
	 * (--accept-gaps, sandbox.acceptGaps): names as --probe prints them. */
	struct sc_strlist accept_gaps;
};

/*
 * The largest --timeout (seconds) and --max-output (bytes), and the
 * largest sandbox.timeout and sandbox.maxOutput a profile may set: one
 * bound, so that every policy a profile makes can be written back as
 * options (sandboxopts.h), and now + timeout cannot overflow.
 */
#define SC_SANDBOX_TIMEOUT_MAX 100000000ULL
#define SC_SANDBOX_MAX_OUTPUT_MAX (1ULL << 50)

/* Everything unset, lists empty. */
void sc_sandbox_policy_init(struct sc_sandbox_policy *p);
void sc_sandbox_policy_release(struct sc_sandbox_policy *p);
/* Fill what is still unset with the defaults (required, loopback, scrub). */
void sc_sandbox_policy_defaults(struct sc_sandbox_policy *p);
/* Apply OVER onto P: lists appended, values OVER sets replace P's. */
void sc_sandbox_policy_merge(struct sc_sandbox_policy *p, const struct sc_sandbox_policy *over);

/* Parse words of the command line and profiles; -1 when not one. */
int sc_net_parse(const char *s);
int sc_sandbox_mode_parse(const char *s);
int sc_env_mode_parse(const char *s);
/* The words the parsers read, for a value they return; "?" for another. */
const char *sc_net_name(int net);
const char *sc_sandbox_mode_name(int mode);
const char *sc_env_mode_name(int env);
/* --tier's words: full or landlock (SC_TIER_*); -1 for anything else. */
int sc_tier_parse(const char *s);
const char *sc_tier_name(int tier);

/*
 * Load profile NAME (a file when it holds a '/', else NAME.profile in the
 * profile directories next to EXE) into P.  -1 with error[UNKNOWN-PROFILE]
 * or error[BAD-PROFILE].
 */
int sc_profile_load(struct sc_sandbox_policy *p, const char *name, const char *exe);

/*
 * 1 when NAME is a protection --accept-gaps may name: a --probe name a
 * lower tier can lack (network, unix-sockets, abstract-sockets,
 * read-only-paths, hidden-credentials, process-isolation, ipc-isolation,
 * file-metadata, kill-all).  Never landlock, syscall-filter or
 * write-confinement: without them nothing is confined.
 */
int sc_sandbox_gap_acceptable(const char *name);

/*
 * Add the comma-separated protection names of LIST to L: how many, or -1
 * with *BAD (a new string, to free) the first one that may not be
 * accepted; *BAD is NULL otherwise.
 */
int sc_sandbox_gaps_add(struct sc_strlist *l, const char *list, char **bad);

/* 1 when NAME is in POL's accepted gaps. */
int sc_sandbox_gap_accepted(const struct sc_sandbox_policy *pol,
			    const char *name);

/*
 * Where a [sandbox] entry is read: a profile (sc_profile_load) or
 * speccoder.conf (sc_config_load, config.h).  Both read the keys of the
 * sandbox alike: network, env, writable, writableOutside, readOnly, hide
 * and envKeep.  A profile alone has rootWritable, allowHost, timeout and
 * maxOutput, and skips a path that does not exist here; speccoder.conf
 * alone has mode and acceptGaps, and its paths go as the command line's.
 */
struct sc_sandbox_src {
	const char *code;      /* "BAD-PROFILE" or "BAD-CONFIG" */
	const char *file;      /* NULL: read from memory */
	size_t at;             /* the entry, from 0, to name its line */
	int profile;           /* 1: a profile's keys and paths */
	struct sc_sandbox_policy *policy;  /* where a profile's entries go */
};

/*
 * One entry NAME (libgit2's spelling, "sandbox.network") into P: 0, or -1
 * with error[SRC->code] naming the file, the entry's line and the key (a
 * bad value, or a key that is not one of SRC's kind).
 */
int sc_sandbox_entry(struct sc_sandbox_policy *p,
		     const struct sc_sandbox_src *src, const char *name,
		     const char *value);

/* Expand a leading "~/" with HOME; a new string. */
char *sc_expand_home(const char *path);

#endif
