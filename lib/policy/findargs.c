/*
 * find's expression grammar (GNU findutils 4.9), as a tree:
 *
 *   expr  := comma
 *   comma := or { "," or }
 *   or    := and { ("-o" | "-or") and }
 *   and   := unary { ["-a" | "-and"] unary }
 *   unary := ("!" | "-not") unary | "(" expr ")" | primary
 *
 * Evaluation is three-valued: a test the policy cannot decide for a file
 * (-size, -newer, -perm, ...) may be true and may be false, and both
 * branches are followed.
 */
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "alloc.h"
#include "findargs.h"

enum node_kind { N_AND, N_OR, N_NOT, N_COMMA, N_TEST, N_ACTION };

enum test_kind {
	T_TRUE, T_FALSE, T_UNKNOWN, T_NAME, T_INAME, T_PATH, T_IPATH, T_TYPE,
};

enum act_kind { A_FILES, A_PRUNE, A_QUIT, A_PRINT, A_OTHER };

struct sc_find_node {
	enum node_kind kind;
	long a, b;              /* children (N_AND, N_OR, N_COMMA; N_NOT: a) */
	enum test_kind test;
	size_t arg;             /* the test's argument: argv[arg] */
	enum act_kind act;
	size_t action;          /* A_FILES: index in f->actions */
	int may_fail;           /* the action may return false (-exec ;) */
};

/* Values as a set: may be true, may be false. */
#define V_T 1
#define V_F 2

struct parser {
	struct sc_find *f;
	const char *const *argv;
	size_t n, i;
};

void sc_find_init(struct sc_find *f)
{
	memset(f, 0, sizeof(*f));
	f->top = -1;
	f->maxdepth = SIZE_MAX;
	f->files0_from = -1;
}

void sc_find_release(struct sc_find *f)
{
	free(f->nodes);
	free(f->actions);
	free(f->writes);
	sc_find_init(f);
}

static long add_node(struct parser *p, enum node_kind kind, long a, long b)
{
	struct sc_find *f = p->f;
	struct sc_find_node *nd;

	SC_ALLOC_GROW(f->nodes, f->nr_nodes + 1, f->alloc_nodes);
	nd = &f->nodes[f->nr_nodes];
	memset(nd, 0, sizeof(*nd));
	nd->kind = kind;
	nd->a = a;
	nd->b = b;
	return (long)f->nr_nodes++;
}

static long fail(struct parser *p, const char *why)
{
	if (!p->f->error)
		p->f->error = why;
	return -1;
}

static int is(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

static long test_node(struct parser *p, enum test_kind t, size_t arg)
{
	long k = add_node(p, N_TEST, -1, -1);

	p->f->nodes[k].test = t;
	p->f->nodes[k].arg = arg;
	return k;
}

static long act_node(struct parser *p, enum act_kind a, int may_fail)
{
	long k = add_node(p, N_ACTION, -1, -1);

	p->f->nodes[k].act = a;
	p->f->nodes[k].may_fail = may_fail;
	return k;
}

/* -exec COMMAND ; and the like: the words up to ; or a {} before +. */
static long exec_primary(struct parser *p, enum sc_find_act kind, int ok)
{
	struct sc_find *f = p->f;
	struct sc_find_action *a;
	size_t from = p->i, k;
	int braces = 0;
	long node;

	for (k = from; k < p->n; k++) {
		if (!strcmp(p->argv[k], ";"))
			break;
		/* "+" ends the command only right after a lone {} */
		if (!ok && !strcmp(p->argv[k], "+") && k > from &&
		    !strcmp(p->argv[k - 1], "{}"))
			break;
		if (strstr(p->argv[k], "{}"))
			braces = 1;
	}
	if (k >= p->n)
		return fail(p, "an -exec without ; or +");
	if (k == from)
		return fail(p, "an -exec without a command");
	SC_ALLOC_GROW(f->actions, f->nr_actions + 1, f->alloc_actions);
	a = &f->actions[f->nr_actions];
	a->kind = kind;
	a->from = from;
	a->to = k;
	a->plus = !strcmp(p->argv[k], "+");
	a->braces = braces;
	p->i = k + 1;
	node = act_node(p, A_FILES, !a->plus);
	f->nodes[node].action = f->nr_actions++;
	return node;
}

static int parse_depth(const char *s, size_t *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	v = strtoul(s, &end, 10);
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static long primary(struct parser *p)
{
	static const char *const unknown1[] = { "-amin", "-anewer", "-atime",
		"-cmin", "-cnewer", "-ctime", "-fstype", "-gid", "-group",
		"-ilname", "-inum", "-iregex", "-links", "-lname", "-mmin",
		"-mtime", "-newer", "-perm", "-regex", "-samefile", "-size",
		"-uid", "-used", "-user", "-context", "-xtype", NULL };
	static const char *const unknown0[] = { "-empty", "-executable",
		"-readable", "-writable", "-nogroup", "-nouser", NULL };
	static const char *const options0[] = { "-depth", "-d",
		"-ignore_readdir_race", "-noignore_readdir_race", "-mount",
		"-xdev", "-noleaf", "-daystart", "-follow", "-warn", "-nowarn",
		"-help", "--help", "-version", "--version", NULL };
	static const char *const prints0[] = { "-print", "-print0", "-ls",
		NULL };
	static const char *const writes1[] = { "-fls", "-fprint", "-fprint0",
		NULL };
	struct sc_find *f = p->f;
	const char *s = p->argv[p->i++];
	size_t arg = p->i;

	if (!strcmp(s, "-exec") || !strcmp(s, "-ok"))
		return exec_primary(p, SC_FIND_EXEC, s[1] == 'o');
	if (!strcmp(s, "-execdir") || !strcmp(s, "-okdir"))
		return exec_primary(p, SC_FIND_EXECDIR, s[1] == 'o');
	if (!strcmp(s, "-delete")) {
		long node;

		SC_ALLOC_GROW(f->actions, f->nr_actions + 1, f->alloc_actions);
		memset(&f->actions[f->nr_actions], 0, sizeof(*f->actions));
		f->actions[f->nr_actions].kind = SC_FIND_DELETE;
		f->no_prune = 1;   /* -delete implies -depth */
		node = act_node(p, A_FILES, 1);
		f->nodes[node].action = f->nr_actions++;
		return node;
	}
	if (!strcmp(s, "-prune"))
		return act_node(p, A_PRUNE, 0);
	if (!strcmp(s, "-quit"))
		return act_node(p, A_QUIT, 0);
	if (is(s, prints0)) {
		f->prints++;
		return act_node(p, A_PRINT, 0);
	}
	if (is(s, options0)) {
		if (!strcmp(s, "-depth") || !strcmp(s, "-d"))
			f->no_prune = 1;
		if (!strcmp(s, "-follow"))
			f->follow = 1;
		return test_node(p, T_TRUE, 0);
	}
	if (!strcmp(s, "-true"))
		return test_node(p, T_TRUE, 0);
	if (!strcmp(s, "-false"))
		return test_node(p, T_FALSE, 0);
	if (is(s, unknown0))
		return test_node(p, T_UNKNOWN, 0);
	/* everything below takes at least one argument */
	if (p->i >= p->n)
		return fail(p, "a find primary without its argument");
	if (!strcmp(s, "-printf")) {
		p->i++;
		f->prints++;
		return act_node(p, A_PRINT, 0);
	}
	if (is(s, writes1) || !strcmp(s, "-fprintf")) {
		SC_ALLOC_GROW(f->writes, f->nr_writes + 1, f->alloc_writes);
		f->writes[f->nr_writes++] = p->i++;
		if (!strcmp(s, "-fprintf") && p->i++ >= p->n)
			return fail(p, "a find primary without its argument");
		return act_node(p, A_OTHER, 0);
	}
	if (!strcmp(s, "-maxdepth") || !strcmp(s, "-mindepth")) {
		if (parse_depth(p->argv[p->i++], s[2] == 'a' ? &f->maxdepth
				: &f->mindepth) < 0)
			return fail(p, "a find depth that is not a number");
		return test_node(p, T_TRUE, 0);
	}
	if (!strcmp(s, "-files0-from")) {
		f->files0_from = (long)p->i++;
		return test_node(p, T_TRUE, 0);
	}
	if (!strcmp(s, "-regextype")) {
		p->i++;
		return test_node(p, T_TRUE, 0);
	}
	p->i++;
	if (!strcmp(s, "-name"))
		return test_node(p, T_NAME, arg);
	if (!strcmp(s, "-iname"))
		return test_node(p, T_INAME, arg);
	if (!strcmp(s, "-path") || !strcmp(s, "-wholename"))
		return test_node(p, T_PATH, arg);
	if (!strcmp(s, "-ipath") || !strcmp(s, "-iwholename"))
		return test_node(p, T_IPATH, arg);
	if (!strcmp(s, "-type"))
		return test_node(p, T_TYPE, arg);
	if (is(s, unknown1) ||
	    (!strncmp(s, "-newer", 6) && strlen(s) == 8))
		return test_node(p, T_UNKNOWN, arg);
	return fail(p, "an unknown find primary");
}

static long parse_expr(struct parser *p);

static long parse_unary(struct parser *p)
{
	const char *s;
	long k;

	if (p->i >= p->n)
		return fail(p, "a find expression that ends early");
	s = p->argv[p->i];
	if (!strcmp(s, "!") || !strcmp(s, "-not")) {
		p->i++;
		k = parse_unary(p);
		return k < 0 ? -1 : add_node(p, N_NOT, k, -1);
	}
	if (!strcmp(s, "(")) {
		p->i++;
		k = parse_expr(p);
		if (k < 0)
			return -1;
		if (p->i >= p->n || strcmp(p->argv[p->i], ")"))
			return fail(p, "a ( without )");
		p->i++;
		return k;
	}
	if (!strcmp(s, ")") || !strcmp(s, "-o") || !strcmp(s, "-or") ||
	    !strcmp(s, "-a") || !strcmp(s, "-and") || !strcmp(s, ","))
		return fail(p, "a find operator without an operand");
	return primary(p);
}

static int ends_and(const char *s)
{
	return !strcmp(s, ")") || !strcmp(s, "-o") || !strcmp(s, "-or") ||
	       !strcmp(s, ",");
}

static long parse_and(struct parser *p)
{
	long k = parse_unary(p), r;

	while (k >= 0 && p->i < p->n && !ends_and(p->argv[p->i])) {
		if (!strcmp(p->argv[p->i], "-a") || !strcmp(p->argv[p->i], "-and"))
			p->i++;
		r = parse_unary(p);
		k = r < 0 ? -1 : add_node(p, N_AND, k, r);
	}
	return k;
}

static long parse_or(struct parser *p)
{
	long k = parse_and(p), r;

	while (k >= 0 && p->i < p->n && (!strcmp(p->argv[p->i], "-o") ||
					 !strcmp(p->argv[p->i], "-or"))) {
		p->i++;
		r = parse_and(p);
		k = r < 0 ? -1 : add_node(p, N_OR, k, r);
	}
	return k;
}

static long parse_expr(struct parser *p)
{
	long k = parse_or(p), r;

	while (k >= 0 && p->i < p->n && !strcmp(p->argv[p->i], ",")) {
		p->i++;
		r = parse_or(p);
		k = r < 0 ? -1 : add_node(p, N_COMMA, k, r);
	}
	return k;
}

/* The words before the expression: -H -L -P -D OPTS -Olevel, then paths. */
static size_t parse_head(struct sc_find *f, const char *const *argv, size_t n)
{
	size_t i = 1;

	for (; i < n; i++) {
		const char *s = argv[i];

		if (!strcmp(s, "-H") || !strcmp(s, "-L"))
			f->follow = 1;
		else if (!strcmp(s, "-P"))
			f->follow = 0;
		else if (!strcmp(s, "-D") && i + 1 < n)
			i++;
		else if (!strncmp(s, "-O", 2) && s[2])
			;
		else
			break;
	}
	f->start_from = i;
	while (i < n && (argv[i][0] != '-' || !argv[i][1]) &&
	       strcmp(argv[i], "(") && strcmp(argv[i], "!"))
		i++;
	f->start_to = i;
	return i;
}

int sc_find_parse(struct sc_find *f, const char *const *argv, size_t n)
{
	struct parser p = { f, argv, n, 0 };

	sc_find_release(f);
	p.i = parse_head(f, argv, n);
	if (p.i >= n)
		return 0;   /* find PATH...: lists names, touches nothing */
	f->top = parse_expr(&p);
	if (f->top >= 0 && p.i < n)
		f->top = fail(&p, "a ) without (");
	return f->top < 0 ? -1 : 0;
}

/* ---- evaluation ---------------------------------------------------- */

struct eval {
	const struct sc_find *f;
	const char *const *argv;
	const struct sc_find_file *file;
	void (*reach)(size_t, void *);
	void *arg;
	int pruned;
	int printed;    /* -print, -print0, -printf or -ls may run */
};

static int type_matches(const char *types, mode_t mode)
{
	static const struct { char c; mode_t m; } map[] = {
		{ 'f', S_IFREG }, { 'd', S_IFDIR }, { 'l', S_IFLNK },
		{ 'b', S_IFBLK }, { 'c', S_IFCHR }, { 'p', S_IFIFO },
		{ 's', S_IFSOCK },
	};
	size_t k;

	for (; *types; types++)
		for (k = 0; k < sizeof(map) / sizeof(*map); k++)
			if (*types == map[k].c && (mode & S_IFMT) == map[k].m)
				return 1;
	return 0;
}

static int test_value(const struct eval *e, const struct sc_find_node *nd)
{
	const char *pat = e->argv[nd->arg];
	int hit;

	switch (nd->test) {
	case T_TRUE: return V_T;
	case T_FALSE: return V_F;
	case T_NAME: case T_INAME:
		hit = !fnmatch(pat, e->file->name,
			       nd->test == T_INAME ? FNM_CASEFOLD : 0);
		return hit ? V_T : V_F;
	case T_PATH: case T_IPATH:
		hit = !fnmatch(pat, e->file->shown,
			       nd->test == T_IPATH ? FNM_CASEFOLD : 0);
		return hit ? V_T : V_F;
	case T_TYPE:
		if (e->f->follow && S_ISLNK(e->file->mode))
			return V_T | V_F;   /* the target's type */
		return type_matches(pat, e->file->mode) ? V_T : V_F;
	default:
		return V_T | V_F;
	}
}

/* The values node K may take; SURE when it is evaluated for certain. */
static int eval_node(struct eval *e, long k, int sure)
{
	const struct sc_find_node *nd = &e->f->nodes[k];
	int va, vb;

	switch (nd->kind) {
	case N_TEST:
		return test_value(e, nd);
	case N_ACTION:
		if (nd->act == A_FILES)
			e->reach(nd->action, e->arg);
		if (nd->act == A_PRUNE && sure)
			e->pruned = 1;
		if (nd->act == A_PRINT)
			e->printed = 1;
		return nd->may_fail ? V_T | V_F : V_T;
	case N_NOT:
		va = eval_node(e, nd->a, sure);
		return ((va & V_T) ? V_F : 0) | ((va & V_F) ? V_T : 0);
	case N_AND:
		va = eval_node(e, nd->a, sure);
		if (!(va & V_T))
			return V_F;
		vb = eval_node(e, nd->b, sure && va == V_T);
		return (va & V_F) | vb;
	case N_OR:
		va = eval_node(e, nd->a, sure);
		if (!(va & V_F))
			return V_T;
		vb = eval_node(e, nd->b, sure && va == V_F);
		return (va & V_T) | vb;
	default:   /* N_COMMA */
		eval_node(e, nd->a, sure);
		return eval_node(e, nd->b, sure);
	}
}

int sc_find_eval(const struct sc_find *f, const char *const *argv,
		 const struct sc_find_file *file,
		 void (*reach)(size_t action, void *arg), void *arg)
{
	struct eval e = { f, argv, file, reach, arg, 0, 0 };
	int value, ret;

	if (file->depth < f->mindepth)
		return 0;
	if (f->top < 0)
		return SC_FIND_PRINTS;   /* find PATH...: prints everything */
	value = eval_node(&e, f->top, 1);
	ret = e.pruned && !f->no_prune && S_ISDIR(file->mode) ? SC_FIND_PRUNED
								: 0;
	/* with no action but -prune, find prints what the expression holds */
	if (e.printed || (!f->prints && !f->nr_actions && !f->nr_writes &&
			  (value & V_T)))
		ret |= SC_FIND_PRINTS;
	return ret;
}

/* ---- fd ------------------------------------------------------------ */

void sc_fd_init(struct sc_fd *f)
{
	memset(f, 0, sizeof(*f));
	f->pattern = -1;
	f->maxdepth = SIZE_MAX;
}

void sc_fd_release(struct sc_fd *f)
{
	free(f->paths);
	free(f->exts);
	sc_fd_init(f);
}

static int fd_flag(struct sc_fd *f, const char *s)
{
	static const char *const quiet[] = { "-0", "--print0", "-a",
		"--absolute-path", "-l", "--list-details", "-q", "--quiet", "-1",
		"--prune", "--show-errors", "--strip-cwd-prefix",
		"--one-file-system", "--mount", "--no-ignore-vcs",
		"--no-ignore-parent", "--no-global-ignore-file",
		"--no-require-git", "-I", "--no-ignore", "--regex", NULL };

	if (!strcmp(s, "-H") || !strcmp(s, "--hidden") || !strcmp(s, "-u") ||
	    !strcmp(s, "--unrestricted") || !strcmp(s, "-uu"))
		f->hidden = 1;
	else if (!strcmp(s, "-s") || !strcmp(s, "--case-sensitive"))
		f->scase = 1;
	else if (!strcmp(s, "-i") || !strcmp(s, "--ignore-case"))
		f->icase = 1;
	else if (!strcmp(s, "-g") || !strcmp(s, "--glob"))
		f->glob = 1;
	else if (!strcmp(s, "-F") || !strcmp(s, "--fixed-strings"))
		f->fixed = 1;
	else if (!strcmp(s, "-p") || !strcmp(s, "--full-path"))
		f->full_path = 1;
	else if (!strcmp(s, "-L") || !strcmp(s, "--follow"))
		f->follow = 1;
	else
		return is(s, quiet);
	return 1;
}

/* An option with a value: VAL is its index, or the value after '='. */
static int fd_value(struct sc_fd *f, const char *name, const char *const *argv,
		    size_t val, const char *inline_val)
{
	static const char *const ignored[] = { "-E", "--exclude", "-S",
		"--size", "-o", "--owner", "-j", "--threads", "-c", "--color",
		"--max-results", "--changed-within", "--changed-before",
		"--change-newer-than", "--change-older-than", "--newer",
		"--older", "--path-separator", "--ignore-file", "--format",
		"--batch-size", NULL };
	const char *v = inline_val ? inline_val : argv[val];
	size_t *depth = NULL;

	if (!strcmp(name, "-e") || !strcmp(name, "--extension")) {
		if (inline_val)
			return -1;   /* keep indices: only the spaced form */
		SC_ALLOC_GROW(f->exts, f->nr_exts + 1, f->alloc_exts);
		f->exts[f->nr_exts++] = val;
		return 0;
	}
	if (!strcmp(name, "-t") || !strcmp(name, "--type")) {
		size_t len = strlen(f->types);

		if (len + 1 < sizeof(f->types))
			f->types[len] = *v == 'f' && !strcmp(v, "file") ? 'f' : *v;
		return 0;
	}
	if (!strcmp(name, "--search-path")) {
		if (inline_val)
			return -1;
		SC_ALLOC_GROW(f->paths, f->nr_paths + 1, f->alloc_paths);
		f->paths[f->nr_paths++] = val;
		return 0;
	}
	if (!strcmp(name, "-d") || !strcmp(name, "--max-depth"))
		depth = &f->maxdepth;
	else if (!strcmp(name, "--min-depth"))
		depth = &f->mindepth;
	else if (!strcmp(name, "--exact-depth")) {
		if (parse_depth(v, &f->mindepth) < 0)
			return -1;
		f->maxdepth = f->mindepth;
		return 0;
	}
	if (depth)
		return parse_depth(v, depth);
	return is(name, ignored) ? 0 : -1;
}

static int fd_takes_value(const char *s)
{
	static const char *const names[] = { "-e", "--extension", "-t",
		"--type", "-d", "--max-depth", "--min-depth", "--exact-depth",
		"-E", "--exclude", "-S", "--size", "-o", "--owner", "-j",
		"--threads", "-c", "--color", "--max-results",
		"--changed-within", "--changed-before", "--change-newer-than",
		"--change-older-than", "--newer", "--older", "--path-separator",
		"--ignore-file", "--format", "--batch-size", "--search-path",
		NULL };

	return is(s, names);
}

/* -x CMD... [;] and -X CMD... [;]: the rest of the line, or up to ; */
static int fd_exec(struct sc_fd *f, const char *const *argv, size_t n,
		   size_t *i, int batch)
{
	size_t from = *i + 1, k;

	if (f->has_action)
		return -1;   /* one -x or -X */
	for (k = from; k < n && strcmp(argv[k], ";"); k++)
		;
	if (k == from)
		return -1;
	f->has_action = 1;
	f->action.kind = SC_FIND_EXEC;
	f->action.from = from;
	f->action.to = k;
	f->action.plus = batch;
	f->action.braces = 1;   /* a placeholder, or the path appended */
	*i = k;
	return 0;
}

int sc_fd_parse(struct sc_fd *f, const char *const *argv, size_t n)
{
	size_t i;
	int dd = 0;

	sc_fd_release(f);
	for (i = 1; i < n; i++) {
		const char *s = argv[i];
		const char *eq = strchr(s, '=');

		if (!dd && !strcmp(s, "--")) {
			dd = 1;
		} else if (!dd && (!strcmp(s, "-x") || !strcmp(s, "--exec") ||
				   !strcmp(s, "-X") || !strcmp(s, "--exec-batch"))) {
			if (fd_exec(f, argv, n, &i, s[1] == 'X' ||
				    !strcmp(s, "--exec-batch")) < 0) {
				f->error = "an fd -x without a command";
				return -1;
			}
		} else if (!dd && s[0] == '-' && s[1]) {
			if (fd_flag(f, s))
				continue;
			if (s[1] == '-' && eq) {
				char name[64];
				size_t len = (size_t)(eq - s);

				if (len >= sizeof(name))
					goto unknown;
				memcpy(name, s, len);
				name[len] = '\0';
				if (fd_value(f, name, argv, i, eq + 1) < 0)
					goto unknown;
			} else if (fd_takes_value(s)) {
				if (++i >= n || fd_value(f, s, argv, i, NULL) < 0)
					goto unknown;
			} else {
				goto unknown;
			}
		} else if (f->pattern < 0) {
			f->pattern = (long)i;
		} else {
			SC_ALLOC_GROW(f->paths, f->nr_paths + 1, f->alloc_paths);
			f->paths[f->nr_paths++] = i;
		}
	}
	return 0;
unknown:
	f->error = "an fd option this parser does not know";
	return -1;
}

/* S is a plain word: a regular expression that matches itself. */
static int plain_word(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

static int has_upper(const char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			return 1;
	return 0;
}

/* May the pattern match NAME?  Unknown is yes. */
static int fd_pattern(const struct sc_fd *f, const char *pat,
		      const char *name)
{
	int icase = f->icase || (!f->scase && !has_upper(pat));

	if (!*pat || f->full_path)
		return 1;
	if (f->glob)
		return !fnmatch(pat, name, icase ? FNM_CASEFOLD : 0);
	if (!f->fixed && !plain_word(pat))
		return 1;   /* a regular expression: it may match */
	return icase ? strcasestr(name, pat) != NULL : strstr(name, pat) != NULL;
}

int sc_fd_match(const struct sc_fd *f, const char *const *argv,
		const struct sc_find_file *file)
{
	size_t k;
	int ok = 1;

	if (file->depth && file->name[0] == '.' && !f->hidden)
		return SC_FD_PRUNE;   /* hidden: neither listed nor entered */
	if (!file->depth || file->depth < f->mindepth)
		return 0;
	if (f->pattern >= 0 && !fd_pattern(f, argv[f->pattern], file->name))
		ok = 0;
	if (ok && f->nr_exts) {
		size_t nl = strlen(file->name);

		ok = 0;
		for (k = 0; k < f->nr_exts; k++) {
			const char *e = argv[f->exts[k]];
			size_t el = strlen(e);

			if (nl > el && file->name[nl - el - 1] == '.' &&
			    !strcasecmp(file->name + nl - el, e))
				ok = 1;
		}
	}
	if (ok && f->types[0] && !(f->follow && S_ISLNK(file->mode))) {
		ok = 0;
		for (k = 0; f->types[k]; k++)
			if ((f->types[k] == 'f' && S_ISREG(file->mode)) ||
			    (f->types[k] == 'd' && S_ISDIR(file->mode)) ||
			    (f->types[k] == 'l' && S_ISLNK(file->mode)) ||
			    (f->types[k] == 's' && S_ISSOCK(file->mode)) ||
			    (f->types[k] == 'p' && S_ISFIFO(file->mode)) ||
			    strchr("xeb", f->types[k]))
				ok = 1;   /* x, e: not known here, may be */
	}
	return ok ? SC_FD_MAY_MATCH : 0;
}
