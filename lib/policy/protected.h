#ifndef SC_PROTECTED_H
#define SC_PROTECTED_H

/*
 * The names speccoder protects, in one table.  The policy (sc-classify)
 * judges every read and write with it; `sc-classify --print-protected`
 * prints it as gitignore-style patterns, which the guard (sc-hash-git
 * --protect-records) watches; the sandbox takes from it its read-only
 * defaults and the credentials it hides in a home (sc_protected_home).
 * Adding a protected name, or a credential, is one edit, here.
 *
 * Every function takes a FOLDED root-relative path (sc_path_fold_rel: any
 * letter case, the spellings a case-insensitive volume would equate), so
 * `.CLAUDE/settings.json` and `Speccoder.conf` are the protected files.
 */

#include <stddef.h>

enum sc_prot_class {
	SC_PROT_GIT,           /* .git at any depth */
	SC_PROT_SECRET,        /* never read or written by the model */
	SC_PROT_SPEC,          /* the spec: written only by planning */
	SC_PROT_VERIFICATION,  /* decides what verification runs, or runs code */
	SC_PROT_AGENT_CONFIG,  /* agent settings, hooks, MCP servers */
	SC_PROT_AGENT_CONTEXT, /* instructions an agent reads (ask) */
	SC_PROT_MANIFEST,      /* dependency manifests (ask) */
	SC_PROT_NCLASSES
};

/* "git", "secret", "spec", "verification", "agent-config", ... */
const char *sc_protected_class_name(enum sc_prot_class c);

/*
 * 1 when the guard watches the class: a change to such a file by a command
 * stops the attempt.  Secrets (never committed, never read by the model;
 * their digests are not worth keeping), manifests (a package manager the
 * person allowed rewrites them) and .git (the guard hashes it on its own)
 * are not watched.
 */
int sc_protected_watched(enum sc_prot_class c);

/*
 * 1 when folded path F belongs to class C.  For SC_PROT_SPEC this is the
 * whole spec tree (.specify/, specs/, openspec/ at the top); planning's
 * own artifacts are carved out by sc_protected_spec_artifact.
 */
int sc_protected_is(enum sc_prot_class c, const char *f);

/*
 * The I-th literal name (no glob, folded) of class C, from 0; NULL past
 * the last.  For a sandbox that protects names by path (Seatbelt).
 */
const char *sc_protected_name(enum sc_prot_class c, size_t i);

/*
 * The I-th credential every sandbox hides under a home, from 0, as spelled
 * on disk ("Library/Keychains"); NULL past the last.  These are the
 * secret class's literal names (.ssh, .netrc, .config/gh, ...): whatever
 * the policy denies a model by an exact name, sc-sandbox-exec hides in
 * $HOME, the user's home in /etc/passwd and each --hide-home, and the
 * Seatbelt profile under HOME.  Each is relative: no '/' at either end,
 * no "..".
 */
const char *sc_protected_home(size_t i);

/*
 * 1 when folded path F is a planning artifact (spec.md, plan.md, tasks.md,
 * contracts/, ... of spec-kit; proposal.md, design.md, tasks.md and
 * specs/.../spec.md of OpenSpec).  With FEATURE (folded), only that
 * feature's artifacts count.
 */
int sc_protected_spec_artifact(const char *f, const char *feature);

/*
 * The table as gitignore-style patterns (pattern.h), for folded paths.
 * In SPEC_MODE the artifacts of FEATURE (every feature when NULL) are
 * carved out of the spec class, as the policy lets planning write them.
 * FN is called once per pattern, in an order that keeps every negation
 * before the patterns it must not undo; it returns non-zero to stop, and
 * that value is returned.  A path that the policy protects always
 * matches; a path beneath a directory that bears a protected file's name
 * matches too (the guard is the stricter one).
 */
typedef int (*sc_protected_fn)(const char *pattern, enum sc_prot_class c,
			       void *ctx);
int sc_protected_patterns(int spec_mode, const char *feature,
			  sc_protected_fn fn, void *ctx);

/*
 * Write the patterns to OUT as records (type=protected pattern= class=
 * watch=yes|no), for sc-classify --print-protected.  FEATURE is folded
 * here.  0, or -1 when OUT failed.
 */
struct sc_output;
int sc_protected_print(int spec_mode, const char *feature,
		       struct sc_output *out);

#endif
