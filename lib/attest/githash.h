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

enum sc_githash_kind {
	SC_GITHASH_CONFIG,
	SC_GITHASH_HOOK,
	SC_GITHASH_INFO,
	SC_GITHASH_HEAD,
	SC_GITHASH_REF,
	SC_GITHASH_STATUS,
	SC_GITHASH_PROTECTED,
	SC_GITHASH_NKINDS
};

struct sc_githash_item {
	enum sc_githash_kind kind;
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
struct sc_githash_manifest {
	struct sc_githash_item *v;
	size_t nr, alloc;
	char **chunks;
	size_t nchunks, chunks_alloc;
	char *cur;    /* free space in the last chunk */
	size_t left;
};

struct sc_githash_options {
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
#define SC_GITHASH_MAX_DEPTH 256

void sc_githash_manifest_init(struct sc_githash_manifest *m);
void sc_githash_manifest_release(struct sc_githash_manifest *m);

/* The name of a kind on the wire ("config", "hook", ...), and back (-1). */
const char *sc_githash_kind_name(enum sc_githash_kind kind);
int sc_githash_kind_parse(const char *name);

/*
 * Fill M (sorted) from REPO.  0, or -1 after printing error[READ-FAILED] or
 * error[GIT-FAILED]: an item that cannot be read fails the whole manifest.
 */
int sc_githash_build(git_repository *repo, const struct sc_githash_options *opt,
		     struct sc_githash_manifest *m);

/*
 * Write M as sc-record(5) records: "type=manifest version=1", the items,
 * then "type=end items=N".  -1 when the output failed.
 */
int sc_githash_write(const struct sc_githash_manifest *m,
		     struct sc_output *out);

/*
 * What reading a manifest or a protect list gives: not an exit status
 * (sc-hash-git's run function, hashgittool.h, decides that), but whether the
 * input was at fault.
 */
enum sc_githash_status {
	SC_GITHASH_OK = 0,
	SC_GITHASH_FAILED = -1,     /* it could not be read: I/O, system */
	SC_GITHASH_MALFORMED = -2,  /* it is not what it must be */
};

/*
 * Read a manifest written by sc_githash_write from RD into M (sorted).
 * Records of other types are skipped; the header, the end record and its
 * count are required, so a truncated manifest is refused.
 * SC_GITHASH_MALFORMED after error[MALFORMED-RECORD] or
 * error[MALFORMED-MANIFEST], SC_GITHASH_FAILED after a read error.
 */
enum sc_githash_status sc_githash_read(struct sc_reader *rd,
				       struct sc_githash_manifest *m);

/*
 * Compare OLD with NOW (both sorted) and write one finding per difference:
 *   type=finding code=GIT-CHANGED kind=K item=NAME change=C
 *   type=finding code=INTEGRITY path=NAME change=C   (protected files)
 * with C added, modified or removed.  *NFOUND gets the number.  -1 when the
 * output failed.
 */
int sc_githash_compare(const struct sc_githash_manifest *old,
		       const struct sc_githash_manifest *now,
		       struct sc_output *out, size_t *nfound);

/*
 * The --protect list: gitignore-style patterns, one a line (at most
 * SC_GITHASH_PROTECT_MAX bytes), matched in any letter case as the policy
 * matches protected names.  --protect-records: the type=protected records
 * sc-classify --print-protected writes, of which the watched ones
 * (watch=yes) count.  SC_GITHASH_MALFORMED after error[BAD-PATTERN],
 * error[PROTECT-TOO-LARGE] or a record error; SC_GITHASH_FAILED after
 * error[READ-FAILED].
 */
#define SC_GITHASH_PROTECT_MAX ((size_t)1 << 20)
enum sc_githash_status sc_githash_load_protect(const char *path,
					       struct sc_patterns *list);
enum sc_githash_status sc_githash_load_protect_records(const char *path,
						       struct sc_patterns *list);

#endif
