#ifndef SC_TREE_H
#define SC_TREE_H

/*
 * The model's worktree, read and restored by the trusted side of an
 * attempt without ever following what the model made of it.
 *
 * A sandboxed command may have replaced any file or directory of the
 * worktree by a symlink (to $HOME, the person's checkout, the state
 * directory), a FIFO, a socket or an unreadable file.  Everything here
 * opens beneath the root with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS
 * | RESOLVE_NO_XDEV), reads a symlink's text and never its target, and
 * refuses what is neither a regular file, a directory nor a symlink.
 * Objects and the index go through libgit2 (lib/gitopen.h): no hook,
 * filter or helper of the repository runs.
 *
 * sc-tree(1)'s commands, one sc_tree_CMD_run() each, called by its main
 * (lib/diag.h):
 *
 *   diff        the worktree against HEAD: a type=change record and a
 *               type=call record (a write or a delete by the model) for
 *               every path a commit would hold differently, the changed
 *               contents stored as blobs; then type=end.
 *   judge       every change of an audit stream (diff's output after
 *               sc-classify) has an allow verdict and nothing refused.
 *   write-tree  HEAD's tree plus exactly the judged changes (by the
 *               object ids the diff stored) plus the ALSO paths.
 *   snapshot    the tree under test, for the held-out copy.
 *   restore     the worktree brought back to HEAD: tracked files from
 *               objects, everything else removed but KEEP.
 *   cat         one regular file beneath the root.
 *
 * Only the run functions return an exit status (sc_exit), with the
 * diagnostic printed: 0; 1 for a finding (SC_TREE_REFUSED, SC_TREE_DENIED
 * below); 3, 4, 5 as DESIGN.md says.  Everything else here answers an
 * enum sc_tree_status.
 */

#include <git2.h>

#include "io.h"
#include "pattern.h"
#include "record.h"

/* The bounds a hostile tree meets (each a documented error). */
#define SC_TREE_FILES_MAX 100000        /* error[TOO-MANY-FILES] */
#define SC_TREE_CHANGES_MAX 10000       /* error[TOO-MANY-CHANGES] */
#define SC_TREE_FILE_MAX ((size_t)64 << 20)   /* error[FILE-TOO-LARGE] */
#define SC_TREE_DEPTH_MAX 128           /* error[TOO-DEEP] */

/*
 * An audit: the change records of sc_tree_diff_run and the verdicts
 * sc-classify wrote for them, kept by id.  Complete only when its
 * type=end record counts exactly the changes read.
 */
struct sc_tree_audit {
	struct sc_record *changes;
	size_t nr, alloc;
	struct sc_record *verdicts;
	size_t nv, av;
	int ended;
	unsigned long long end_count;
};

/*
 * What a function here answers, its diagnostic printed, when its caller
 * must tell one failure from another; sc-tree's exit status for each is
 * in brackets.
 */
enum sc_tree_status {
	SC_TREE_OK = 0,
	/* libgit2, a system call or the output failed [5] */
	SC_TREE_FAILED = -1,
	/* no repository git can read, a bare one, a worktree, root or
	 * input file that cannot be opened [4] */
	SC_TREE_UNAVAILABLE = -2,
	/* the worktree holds what sc-tree refuses or cannot read, write or
	 * remove (SPECIAL-FILE, UNREADABLE, FILE-TOO-LARGE, TOO-DEEP,
	 * TOO-MANY-FILES, TOO-MANY-CHANGES, UNRESTORABLE), or the branch
	 * has no commit to restore (NO-HEAD) [1] */
	SC_TREE_REFUSED = -3,
	/* a change of the audit is not allowed (DIFF-DENIED) [1] */
	SC_TREE_DENIED = -4,
	/* the audit is cut short, or a change in it is incomplete or names
	 * content the diff did not store [3] */
	SC_TREE_MALFORMED = -5,
};

/* Read a whole audit from IN (*A filled even on failure: release it):
 * SC_TREE_OK, SC_TREE_MALFORMED or SC_TREE_FAILED (reading IN). */
enum sc_tree_status sc_tree_audit_read(struct sc_tree_audit *a,
				       struct sc_input *in);
/* SC_TREE_OK when every change is allowed; else SC_TREE_DENIED, with a
 * type=denied record on OUT and an error[DIFF-DENIED] for each change
 * that is not, or SC_TREE_FAILED when OUT cannot be written. */
enum sc_tree_status sc_tree_audit_judge(const struct sc_tree_audit *a,
					struct sc_output *out);
void sc_tree_audit_release(struct sc_tree_audit *a);

/*
 * IGNORED, when set, is a NUL-separated list of root-relative paths (a
 * directory ends in '/') git ignored when an in-place run started: the
 * person's own files, never part of a diff, whatever .gitignore says now.
 */
int sc_tree_diff_run(const char *dir, const char *ignored,
		     struct sc_output *out);
/*
 * The tree under test, for the held-out copy: HEAD's tree plus every
 * change of the diff but those sc-tree refuses, without any symlink or
 * gitlink (HEAD's included), so a copy of it holds only regular files and
 * directories.  Not a commit: no policy judged it.
 */
int sc_tree_snapshot_run(const char *dir, const char *ignored,
			 struct sc_output *out);
int sc_tree_judge_run(const char *audit, struct sc_output *out);
int sc_tree_write_tree_run(const char *dir, const char *audit,
			   const char *const *also, size_t nalso,
			   struct sc_output *out);
int sc_tree_restore_run(const char *dir, const struct sc_patterns *keep);
/* Copy the regular file REL beneath DIR to OUTFD. */
int sc_tree_cat_run(const char *dir, const char *rel, int outfd);
/*
 * Open the repository at DIR (lib/gitopen.h) and its worktree's root
 * directory, the way every command here does.  SC_TREE_OK, or with the
 * diagnostic printed SC_TREE_UNAVAILABLE (no repository git can read, a
 * bare one, a worktree that cannot be opened) or SC_TREE_FAILED (libgit2
 * or I/O).  lib/attempt/include.c opens the attempt's worktree so.
 */
enum sc_tree_status sc_tree_open(const char *dir, git_repository **repo,
				 int *rootfd);

#endif
