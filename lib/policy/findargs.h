#ifndef SC_FINDARGS_H
#define SC_FINDARGS_H

/*
 * find(1) command lines, read for judging: the starting points, the
 * expression as a tree, and the actions that touch files (-exec, -execdir,
 * -ok, -okdir, -delete).  sc_find_eval() tells, for one file, which actions
 * the expression may run on it: the name tests (-name, -iname, -path,
 * -ipath, -type) are evaluated, every other test may be true or false, so
 * the set of files an action reaches is bounded from above, never below.
 *
 * A line find would reject (an -exec without ; or +, a ( without ), an
 * unknown primary, a missing argument) does not parse: the caller then
 * knows it did not understand the command.
 */

#include <stddef.h>
#include <sys/types.h>

enum sc_find_act {
	SC_FIND_EXEC,      /* -exec, -ok: COMMAND with {} in the find's cwd */
	SC_FIND_EXECDIR,   /* -execdir, -okdir: in the file's directory */
	SC_FIND_DELETE,    /* -delete */
};

struct sc_find_action {
	enum sc_find_act kind;
	size_t from, to;   /* the command's words: argv[from..to) */
	int plus;          /* ended by +: {} stands for many files */
	int braces;        /* some word holds {} */
};

struct sc_find_node;

struct sc_find {
	size_t start_from, start_to;  /* starting points: argv[from..to) */
	struct sc_find_node *nodes;
	size_t nr_nodes, alloc_nodes;
	long top;                     /* the expression's root node, or -1 */
	struct sc_find_action *actions;
	size_t nr_actions, alloc_actions;
	size_t *writes;               /* -fprint FILE & co.: indices of FILE */
	size_t nr_writes, alloc_writes;
	size_t mindepth, maxdepth;
	int follow;                   /* -L, -H, -follow: symlinks followed */
	int no_prune;                 /* -depth or -delete: -prune is void */
	long files0_from;             /* -files0-from FILE: its index, or -1 */
	size_t prints;                /* -print, -print0, -printf, -ls */
	const char *error;            /* why the line did not parse */
};

void sc_find_init(struct sc_find *f);
void sc_find_release(struct sc_find *f);

/*
 * Parse ARGV[0..N) (ARGV[0] is "find").  0 on success; -1 with F->error
 * set when find would reject the line or a primary is unknown.
 */
int sc_find_parse(struct sc_find *f, const char *const *argv, size_t n);

/* One file as find sees it. */
struct sc_find_file {
	const char *name;    /* last component */
	const char *shown;   /* the path find prints (START/rest) */
	mode_t mode;         /* lstat mode (stat with -L) */
	size_t depth;        /* 0 for a starting point */
};

/*
 * Call REACH(ACTION, ARG) for each action the expression may run on FILE
 * (never for a file outside -mindepth).  Returns SC_FIND_PRUNED when find
 * surely does not descend into FILE (-prune surely reached), with
 * SC_FIND_PRINTS when find may print its name on standard output (what a
 * pipe into xargs reads).
 */
#define SC_FIND_PRUNED 1
#define SC_FIND_PRINTS 2
int sc_find_eval(const struct sc_find *f, const char *const *argv,
		 const struct sc_find_file *file,
		 void (*reach)(size_t action, void *arg), void *arg);

#endif

/*
 * fd(1) (fdfind on Debian) command lines: the search paths, the filters
 * that bound the results (the pattern when it is a plain word, a glob or a
 * fixed string; -e, -t, depths, hidden files), and the command of -x/-X.
 * A pattern the policy cannot evaluate exactly (a regular expression
 * with metacharacters, --full-path) may match any file; .gitignore rules
 * and --exclude, which only take files away, are not read.
 */
struct sc_fd {
	long pattern;            /* index of the pattern word, or -1 */
	size_t *paths;           /* indices of the search paths */
	size_t nr_paths, alloc_paths;
	size_t *exts;            /* indices of -e values */
	size_t nr_exts, alloc_exts;
	char types[16];          /* -t letters */
	int glob, fixed, full_path, hidden, follow, icase, scase;
	size_t mindepth, maxdepth;
	int has_action;
	struct sc_find_action action;   /* -x (; per file) or -X (batch) */
	const char *error;
};

void sc_fd_init(struct sc_fd *f);
void sc_fd_release(struct sc_fd *f);

/* Parse ARGV[0..N) (ARGV[0] is fd).  -1 with F->error set, as for find. */
int sc_fd_parse(struct sc_fd *f, const char *const *argv, size_t n);

/* What fd does with FILE: SC_FD_MAY_MATCH, SC_FD_PRUNE (not descended). */
#define SC_FD_MAY_MATCH 1
#define SC_FD_PRUNE 2
int sc_fd_match(const struct sc_fd *f, const char *const *argv,
		const struct sc_find_file *file);
