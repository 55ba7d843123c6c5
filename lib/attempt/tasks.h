#ifndef SC_TASKS_H
#define SC_TASKS_H

/*
 * A feature's tasks file (spec-kit specs/FEATURE/tasks.md, OpenSpec
 * openspec/changes/FEATURE/tasks.md): finding it, reading its checkbox
 * items, and ticking one.
 *
 * An item is a line: optional indentation (spaces, tabs), "-" or "*", a
 * space, a box "[ ]" (open) or "[x]"/"[X]" (done), white space, and
 * non-empty text.  Everything else is prose and left alone.  A file is
 * accepted only whole: UTF-8, no NUL or control character (tab, and CR
 * before a line's end, excepted), lines of at most 64 KiB, at most 4 MiB,
 * and no box holding another mark ("[?]", "[-]", "[~]"...).  A person's
 * tasks file that is half understood would have an agent skip or redo
 * work, so a file with anything unexpected is refused, never guessed at.
 *
 * Paths are never followed through a symlink where this module walks them:
 * a tasks file (or its spec or plan), or a directory find walks, that is a
 * symlink or not a regular file or directory is refused (SC_TASKS_UNSAFE),
 * so a repository cannot point speccoder at a file outside it.
 */

#include <stddef.h>
#include <sys/stat.h>

#include "buf.h"

/* A person's task list; 4 MiB is far past any real one. */
#define SC_TASKS_MAX_FILE ((size_t)4 << 20)
/* One line; longer is not a task list but an attack on the reader. */
#define SC_TASKS_MAX_LINE ((size_t)64 << 10)

enum sc_tasks_status {
	SC_TASKS_OK = 0,
	SC_TASKS_NONE,       /* no tasks file, or no item in it: NO-TASKS */
	SC_TASKS_AMBIGUOUS,  /* both layouts have the feature */
	SC_TASKS_UNSAFE,     /* a symlink, or not a regular file or directory */
	SC_TASKS_CHANGED,    /* the item is not the one the caller named */
	SC_TASKS_BAD_NAME,   /* the feature's name or a path is not allowed */
	SC_TASKS_MALFORMED,  /* the file breaks the rules above */
	SC_TASKS_IO,         /* a system call failed */
};

/* What sc-tasks(1) was asked, its command line parsed and checked. */
enum sc_tasks_cmd { SC_TASKS_CMD_FIND, SC_TASKS_CMD_LIST, SC_TASKS_CMD_TICK };

struct sc_tasks_opts {
	enum sc_tasks_cmd cmd;
	const char *dir;      /* -C DIR, or NULL */
	const char *target;   /* find: FEATURE; list and tick: FILE */
	size_t n;             /* tick: the item's number, from 1 */
	const char *text;     /* tick: --text */
	int force_records;    /* -z */
};

/*
 * Run sc-tasks as O says: a type=feature or type=task record on stdout,
 * written only once the command succeeded.  Returns the exit status.
 */
int sc_tasks_run(const struct sc_tasks_opts *o);

/* 1 when NAME is a feature name: [A-Za-z0-9._-]+, no leading . or -. */
int sc_tasks_feature_valid(const char *name);

struct sc_feature {
	const char *layout;  /* "spec-kit" or "openspec" */
	char *dir;           /* relative to the directory searched */
	char *tasks;
	char *spec;          /* NULL when the layout's spec file is absent */
	char *plan;          /* NULL when its plan file is absent */
};

void sc_feature_release(struct sc_feature *f);

/*
 * Find FEATURE under DIR in both layouts.  Diagnostics printed; returns
 * SC_TASKS_OK with OUT filled, or NONE, AMBIGUOUS, UNSAFE, BAD_NAME, IO.
 */
int sc_tasks_find(const char *dir, const char *feature,
		  struct sc_feature *out);

struct sc_task {
	size_t n;           /* 1 for the first item */
	size_t line;        /* 1 for the first line */
	int done;
	size_t mark;        /* offset of the character inside the box */
	size_t text;        /* offset and length of the text, white space */
	size_t text_len;    /* trimmed at both ends */
};

struct sc_tasklist {
	struct sc_task *v;
	size_t nr, alloc;
};

void sc_tasklist_init(struct sc_tasklist *l);
void sc_tasklist_release(struct sc_tasklist *l);

/*
 * Parse LEN bytes at DATA into OUT (reset first).  FILE names the file in
 * diagnostics ("FILE:LINE: ...").  SC_TASKS_OK (OUT may be empty) or
 * SC_TASKS_MALFORMED, diagnostic printed.
 */
int sc_tasks_parse(const char *data, size_t len, const char *file,
		   struct sc_tasklist *out);

/* A tasks file read and parsed whole. */
struct sc_taskfile {
	struct sc_buf data;
	struct sc_tasklist items;
	struct stat st;      /* of the file as it was read */
};

void sc_taskfile_init(struct sc_taskfile *tf);
void sc_taskfile_release(struct sc_taskfile *tf);

/*
 * Read and parse FILE: relative to DIR when DIR is set (then no component
 * below DIR may be a symlink, and ".." is refused), else as given (only its
 * last component is never followed).  SC_TASKS_OK, or NONE (no file, or no
 * item), UNSAFE, BAD_NAME, MALFORMED, IO; diagnostics printed.
 */
int sc_tasks_load(const char *dir, const char *file, struct sc_taskfile *tf);

/*
 * Tick item N of FILE (DIR as for sc_tasks_load) when it is open and its
 * text is exactly TEXT: the box's mark becomes 'x', every other byte stays.
 * The new file is written beside the old one, synced, given the old one's
 * mode, and renamed over it, so a crash leaves one or the other whole.
 * SC_TASKS_CHANGED when the item is not there, not open, has another text,
 * or the file changed while it was being ticked.  TF holds the file as it
 * was read; on success *TICKED is the item (done set).
 */
int sc_tasks_tick(const char *dir, const char *file, size_t n,
		  const char *text, struct sc_taskfile *tf,
		  struct sc_task *ticked);

#endif
