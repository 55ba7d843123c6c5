#ifndef SC_GITHASH_H
#define SC_GITHASH_H

/*
 * The manifest of sc-hash-git(1): everything in a repository that can make
 * git run code or change what git shows, plus the protected worktree files,
 * each with a digest; and the comparison of two manifests.
 *
 * Everything is read through libgit2 (refs, HEAD, index, status) or plain
 * openat(2)/readlinkat(2) with O_NOFOLLOW (config, hooks, info, protected
 * files): nothing here executes anything, and a symlink is recorded as a
 * symlink with its target, never followed.  Open the repository with
 * sc_gitopen (gitopen.h).
 *
 * Items, in this stable order (kind, then name bytewise):
 *   config     "config" of the common dir, plus "config.worktree",
 *              "commondir" and "objects/info/alternates" when present (they
 *              change which config and objects git reads), and the files
 *              include.path / includeIf.*.path name, by absolute path
 *   hook       every entry under the common dir's hooks/, recursively
 *   info       every entry under the common dir's info/, recursively
 *   head       HEAD of the opened worktree: symbolic target and oid
 *   ref        every ref under refs/heads/, refs/tags/ and refs/replace/
 *              (replace refs change what git shows for an object), but
 *              those an exclude glob names
 *   status     one digest of HEAD, the index and the tracked files'
 *              changes, with clean=yes|no (when asked)
 *   protected  every worktree file the protect patterns select, ignored or
 *              not, outside .git
 *
 * File items have mode=file|exec|symlink|other; sha256 of the content (of
 * the target string for a symlink; none for "other": fifos, sockets and
 * devices are never opened).
 */

#include <stddef.h>

#include <git2.h>

#include "io.h"
#include "pattern.h"
#include "record.h"

enum sc_hg_kind {
	SC_HG_CONFIG,
	SC_HG_HOOK,
	SC_HG_INFO,
	SC_HG_HEAD,
	SC_HG_REF,
	SC_HG_STATUS,
	SC_HG_PROTECTED,
	SC_HG_NKINDS
};

struct sc_hg_item {
	enum sc_hg_kind kind;
	/* all owned by the manifest's chunks; NULL when absent */
	const char *name;   /* path (common-dir- or worktree-relative) or ref */
	const char *mode;   /* file items: "file", "exec", "symlink", "other" */
	const char *digest; /* sha256 (files, status) or oid (refs, head), hex */
	const char *target; /* a symlink's target, a symbolic ref's target */
	const char *clean;  /* status only: "yes" or "no" */
};

/*
 * The items' strings live in chunks the manifest owns (one allocation per
 * 64 KiB rather than two or three per item: a manifest of 100,000 refs
 * otherwise spends more time in malloc than in reading the refs).
 */
struct sc_hg_manifest {
	struct sc_hg_item *v;
	size_t nr, alloc;
	char **chunks;
	size_t nchunks, chunks_alloc;
	char *cur;    /* free space in the last chunk */
	size_t left;
};

struct sc_hg_options {
	const char *const *exclude_refs; /* globs, '*' not crossing '/' */
	size_t nr_exclude;
	const struct sc_patterns *protect; /* NULL: no protected files */
	int status;                        /* add the status item */
	const char *protect_tree;          /* protected items from this
					    * commit's tree, not the worktree */
	int records;                       /* records even to a terminal */
};

/* The deepest directory nesting walked (hooks/, info/, the worktree): a
 * deeper tree is an error, never a silently partial manifest. */
#define SC_HG_MAX_DEPTH 256

void sc_hg_manifest_init(struct sc_hg_manifest *m);
void sc_hg_manifest_release(struct sc_hg_manifest *m);

/* The name of a kind on the wire ("config", "hook", ...), and back (-1). */
const char *sc_hg_kind_name(enum sc_hg_kind kind);
int sc_hg_kind_parse(const char *name);

/*
 * Fill M (sorted) from REPO.  0, or -1 after printing error[READ-FAILED] or
 * error[GIT-FAILED]: an item that cannot be read fails the whole manifest.
 */
int sc_hg_build(git_repository *repo, const struct sc_hg_options *opt,
		struct sc_hg_manifest *m);

/*
 * Write M as sc-record(5) records: "type=manifest version=1", the items,
 * then "type=end items=N".  -1 when the output failed.
 */
int sc_hg_write(const struct sc_hg_manifest *m, struct sc_output *out);

/*
 * Read a manifest written by sc_hg_write from RD into M (sorted).  Records
 * of other types are skipped; the header, the end record and its count are
 * required, so a truncated manifest is refused.  Returns an exit code: 0, 3
 * (error[MALFORMED-RECORD] or error[MALFORMED-MANIFEST]) or 5 (a read
 * error), with the diagnostic printed.
 */
int sc_hg_read(struct sc_reader *rd, struct sc_hg_manifest *m);

/*
 * Compare OLD with NOW (both sorted) and write one finding per difference:
 *   type=finding code=GIT-CHANGED kind=K item=NAME change=C
 *   type=finding code=INTEGRITY path=NAME change=C   (protected files)
 * with C added, modified or removed.  *NFOUND gets the number.  -1 when the
 * output failed.
 */
int sc_hg_compare(const struct sc_hg_manifest *old,
		  const struct sc_hg_manifest *now, struct sc_output *out,
		  size_t *nfound);

/*
 * The --protect list: gitignore-style patterns, one a line (at most
 * SC_HG_PROTECT_MAX bytes), matched in any letter case as the policy
 * matches protected names.  --protect-records: the type=protected records
 * sc-classify --print-protected writes, of which the watched ones
 * (watch=yes) count.  Each returns an exit code, the diagnostic printed.
 */
#define SC_HG_PROTECT_MAX ((size_t)1 << 20)
int sc_hg_load_protect(const char *path, struct sc_patterns *list);
int sc_hg_load_protect_records(const char *path, struct sc_patterns *list);

#endif
