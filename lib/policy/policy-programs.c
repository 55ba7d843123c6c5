/*
 * The program tables of sc-classify(1): find, fd, xargs, sed, awk, the
 * reading tools, copy and the file commands, whose arguments name paths or
 * run programs.  Split from policy.c at its seams; shared state in
 * policy-int.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "findargs.h"
#include "gitopts.h"
#include "io.h"
#include "gitkeys.h"
#include "hostlist.h"
#include "policy.h"
#include "protected.h"
#include "shellwords.h"
#include "walk.h"
#include "policy-int.h"

/* ---- programs with arguments that run programs ----------------------- */

/*
 * find: each action that touches files (-exec, -execdir, -ok, -okdir,
 * -delete) is judged on every file under the starting points that the
 * name tests let through, with {} standing for that file.  Ordinary files
 * (a regular file with one link or a directory, whose name no rule cares
 * about) give the same answer as any other of their kind, so one of each
 * kind is judged; every other file (protected names, symlinks, hard
 * links, devices) is judged on its own.  A deny ends the walk: nothing
 * after it can change the verdict.
 */
struct find_judge {
	struct judge *j;
	struct ctx *c;
	const struct sc_sw_word *w;   /* the find's words, w[0] is find */
	const char **argv;
	struct sc_find f;
	struct sc_fd *fd;             /* judging fd -x/-X instead of find */
	const struct sc_sw_word *aw;  /* the words the action indexes */
	int xargs;                    /* the action is xargs's, fed names */
	struct sc_find_action xact;   /* xargs's command */
	const char *repl;             /* xargs -I REPL, or NULL: appended */
	int split;                    /* xargs splits names at blanks */
	const char *object;
	const char *start;            /* the starting point as written */
	const char *start_rel;        /* and resolved, root-relative */
	const struct sc_walk_entry *e;
	struct sc_buf shown;
	int plain;                    /* -1 not yet known */
	struct sc_strlist seen;       /* ordinary kinds already judged */
};

/* Add ITEM to sorted list S, keeping it sorted (one move, no sort). */
static void strlist_insert_sorted(struct sc_strlist *s, const char *item,
				  size_t len)
{
	size_t lo = 0, hi = s->nr;
	char *copy;

	sc_strlist_addn(s, item, len);
	copy = s->v[--s->nr];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->v[mid], copy) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(s->v + lo + 1, s->v + lo,
		(s->nr - lo) * sizeof(*s->v));
	s->v[lo] = copy;
	s->nr++;
}

/* An entry no rule singles out: one of its kind stands for all. */
static int entry_plain(struct find_judge *fj)
{
	const struct sc_walk_entry *e = fj->e;
	struct sc_buf f = SC_BUF_INIT;
	int plain;

	if (fj->plain >= 0)
		return fj->plain;
	plain = (S_ISREG(e->st.st_mode) && e->st.st_nlink == 1) ||
		S_ISDIR(e->st.st_mode);
	if (plain) {
		sc_path_fold_rel(e->rel, &f);
		plain = *e->rel && pol_protected_rule(fj->j, f.data, e->rel, 1) == R_COUNT &&
			pol_ask_rule(fj->j, f.data) == R_COUNT;
	}
	sc_buf_release(&f);
	fj->plain = plain;
	return plain;
}

static const struct sc_find_action *action_of(const struct find_judge *fj,
					      size_t action)
{
	if (fj->xargs)
		return &fj->xact;
	return fj->fd ? &fj->fd->action : &fj->f.actions[action];
}

/* Replace every TOKEN in WORD by PATH (xargs -I). */
static void subst_token(const struct sc_sw_word *word, const char *token,
			const char *path, struct sc_buf *out, int *any)
{
	const char *s = word->s, *hit;
	size_t tl = strlen(token);

	sc_buf_reset(out);
	sc_buf_adds(out, "");
	while (tl && (hit = strstr(s, token))) {
		sc_buf_add(out, s, (size_t)(hit - s));
		sc_buf_adds(out, path);
		s = hit + tl;
		*any = 1;
	}
	sc_buf_adds(out, s);
}

/*
 * fd's placeholders in WORD: {} the path, {/} its name, {//} its
 * directory, {.} and {/.} the same without the extension.  *ANY is set
 * when WORD holds one.
 */
static void subst_fd(const struct sc_sw_word *word, const char *path,
		     struct sc_buf *out, int *any)
{
	const char *s = word->s, *base = strrchr(path, '/');
	const char *dot;
	size_t blen, plen = strlen(path);

	base = base ? base + 1 : path;
	blen = strlen(base);
	dot = strrchr(base, '.');
	sc_buf_reset(out);
	sc_buf_adds(out, "");
	while (*s) {
		if (!strncmp(s, "{}", 2)) {
			sc_buf_adds(out, path);
			s += 2;
		} else if (!strncmp(s, "{/}", 3)) {
			sc_buf_adds(out, base);
			s += 3;
		} else if (!strncmp(s, "{//}", 4)) {
			if (base > path)
				sc_buf_add(out, path, (size_t)(base - path - 1));
			else
				sc_buf_addch(out, '.');
			s += 4;
		} else if (!strncmp(s, "{.}", 3)) {
			sc_buf_add(out, path, dot && dot > base ?
				   plen - blen + (size_t)(dot - base) : plen);
			s += 3;
		} else if (!strncmp(s, "{/.}", 4)) {
			sc_buf_add(out, base, dot && dot > base ?
				   (size_t)(dot - base) : blen);
			s += 4;
		} else {
			sc_buf_addch(out, *s++);
			continue;
		}
		*any = 1;
	}
}

/* Replace {} in WORD by PATH: every {} (-exec ;), or a lone {} (+). */
static void subst_braces(const struct sc_sw_word *word, const char *path,
			 int plus, struct sc_buf *out)
{
	const char *s = word->s, *hit;

	sc_buf_reset(out);
	sc_buf_adds(out, "");
	if (plus) {
		sc_buf_adds(out, strcmp(s, "{}") ? s : path);
		return;
	}
	while ((hit = strstr(s, "{}"))) {
		sc_buf_add(out, s, (size_t)(hit - s));
		sc_buf_adds(out, path);
		s = hit + 2;
	}
	sc_buf_adds(out, s);
}

/* 1 when every {} of the action is a whole word. */
static int braces_whole(const struct find_judge *fj,
			const struct sc_find_action *a)
{
	static const char *const whole[] = { "{}", "{/}", "{//}", "{.}",
		"{/.}", NULL };
	size_t k;

	if (fj->xargs) {
		for (k = a->from; fj->repl && k < a->to; k++)
			if (strstr(fj->aw[k].s, fj->repl) &&
			    strcmp(fj->aw[k].s, fj->repl))
				return 0;
		return 1;
	}
	for (k = a->from; fj->fd && k < a->to; k++)
		if (strchr(fj->w[k].s, '{') &&
		    !sc_str_in_list(fj->w[k].s, whole))
			return 0;
	for (k = a->from; !fj->fd && k < a->to; k++)
		if (strstr(fj->w[k].s, "{}") && strcmp(fj->w[k].s, "{}"))
			return a->plus;
	return 1;
}

static void find_exec(struct find_judge *fj, const struct sc_find_action *a)
{
	const struct sc_walk_entry *e = fj->e;
	size_t k, nw = a->to - a->from;
	struct sc_sw_word *words = sc_xcalloc(nw + 1, sizeof(*words));
	struct sc_buf *vals = sc_xcalloc(nw + 1, sizeof(*vals));
	int any = 0;
	struct sc_buf path = SC_BUF_INIT;
	struct ctx inner;

	memset(&inner, 0, sizeof(inner));
	inner.cwd_unknown = fj->c->cwd_unknown;
	inner.depth = fj->c->depth + 1;
	if (a->kind == SC_FIND_EXECDIR) {
		const char *slash = strrchr(e->rel, '/');

		/* -execdir runs in the file's directory, on ./NAME */
		sc_buf_add(&inner.cwd, e->rel, slash ? (size_t)(slash - e->rel) : 0);
		sc_buf_adds(&path, "./");
		sc_buf_adds(&path, *e->rel ? e->name : ".");
	} else {
		sc_buf_add(&inner.cwd, fj->c->cwd.data ? fj->c->cwd.data : "",
			   fj->c->cwd.len);
		sc_buf_add(&path, fj->shown.data, fj->shown.len);
	}
	sc_buf_adds(&inner.cwd, "");
	for (k = 0; k < nw; k++) {
		words[k] = fj->aw[a->from + k];
		if (!a->braces)
			continue;
		if (fj->xargs && !fj->repl)
			continue;   /* names are appended */
		if (fj->xargs)
			subst_token(&fj->aw[a->from + k], fj->repl, path.data,
				    &vals[k], &any);
		else if (fj->fd)
			subst_fd(&fj->w[a->from + k], path.data, &vals[k], &any);
		else
			subst_braces(&fj->w[a->from + k], path.data, a->plus,
				     &vals[k]);
		words[k].s = vals[k].data;
		words[k].len = vals[k].len;
	}
	if ((fj->xargs ? !fj->repl : fj->fd != NULL) && !any) {
		/* fd -x CMD with no placeholder, xargs CMD: the path last */
		sc_buf_add(&vals[nw], path.data, path.len);
		words[nw].s = vals[nw].data;
		words[nw].len = vals[nw].len;
		nw++;
	}
	pol_judge_argv(fj->j, words, nw, &inner, NULL);
	for (k = 0; k < nw; k++)
		sc_buf_release(&vals[k]);
	free(vals);
	free(words);
	sc_buf_release(&path);
	sc_buf_release(&inner.cwd);
}

static void find_reach(size_t action, void *arg)
{
	struct find_judge *fj = arg;
	const struct sc_find_action *a = action_of(fj, action);
	const struct sc_walk_entry *e = fj->e;

	if (a->kind == SC_FIND_EXEC && !a->braces)
		return;   /* judged once, as it is */
	if (fj->xargs && fj->split && strpbrk(fj->shown.data, " \t\n'\"\\")) {
		/* xargs would cut this name into other words */
		pol_note(fj->j, R_NOT_UNDERSTOOD, fj->object);
		return;
	}
	if (entry_plain(fj) && (a->kind == SC_FIND_DELETE || braces_whole(fj, a))) {
		struct sc_buf key = SC_BUF_INIT;
		int seen;

		/* one ordinary file or directory per action (and directory,
		 * for -execdir) stands for the others */
		sc_buf_addf(&key, "%zu %c ", action,
			    S_ISDIR(e->st.st_mode) ? 'd' : 'f');
		if (a->kind == SC_FIND_EXECDIR)
			sc_buf_add(&key, e->rel, strrchr(e->rel, '/') ?
				   (size_t)(strrchr(e->rel, '/') - e->rel) : 0);
		seen = sc_strlist_has(&fj->seen, key.data);
		if (!seen)
			strlist_insert_sorted(&fj->seen, key.data, key.len);
		sc_buf_release(&key);
		if (seen)
			return;
	}
	if (a->kind == SC_FIND_DELETE)
		pol_judge_path(fj->j, "", *e->rel ? e->rel : ".",
			       *e->rel ? strlen(e->rel) : 1, 1);
	else
		find_exec(fj, a);
}

static int find_visit(const struct sc_walk_entry *e, void *arg)
{
	struct find_judge *fj = arg;
	struct sc_find_file file;
	size_t skip = strlen(fj->start_rel), k;
	int pruned;

	fj->e = e;
	fj->plain = -1;
	sc_buf_reset(&fj->shown);
	sc_buf_adds(&fj->shown, fj->start);
	if (e->depth) {
		while (fj->shown.len > 1 && fj->shown.data[fj->shown.len - 1] == '/')
			sc_buf_setlen(&fj->shown, fj->shown.len - 1);
		if (fj->shown.data[fj->shown.len - 1] != '/')
			sc_buf_addch(&fj->shown, '/');
		sc_buf_adds(&fj->shown, e->rel + skip + (skip ? 1 : 0));
	}
	file.name = e->depth ? e->name : fj->start;
	file.shown = fj->shown.data;
	file.mode = e->st.st_mode;
	file.depth = e->depth;
	if (fj->fd) {
		int m = sc_fd_match(fj->fd, fj->argv, &file);

		pruned = (m & SC_FD_PRUNE) != 0;
		if ((m & SC_FD_MAY_MATCH) ||
		    (fj->fd->follow && S_ISLNK(e->st.st_mode) && !pruned))
			find_reach(0, fj);
	} else {
		int m = sc_find_eval(&fj->f, fj->argv, &file, find_reach, fj);

		pruned = (m & SC_FIND_PRUNED) != 0;
		if (fj->xargs && (m & SC_FIND_PRINTS))
			find_reach(0, fj);   /* its name goes down the pipe */
		if (fj->f.follow && S_ISLNK(e->st.st_mode))
			for (k = 0; k < fj->f.nr_actions; k++)
				find_reach(k, fj);   /* what lies behind */
	}
	if (fj->j->have && fj->j->decision == SC_DENY)
		return -1;
	return pruned;
}

/* Walk one starting point. */
static void find_start(struct find_judge *fj, const struct sc_sw_word *start,
		       size_t *budget)
{
	struct sc_path res;
	int st;

	if (start->flags & SC_SW_UNRESOLVED)
		return;   /* noted as opaque already */
	sc_path_init(&res);
	st = sc_path_resolve(&fj->j->p->root, fj->c->cwd.data ? fj->c->cwd.data
			     : "", start->s, start->len, 0, &res);
	if (st == SC_PATH_OK && res.exists) {
		fj->start = start->s;
		fj->start_rel = res.rel;
		if (sc_walk(fj->j->p->root.path, res.rel, fj->fd ?
			    fj->fd->maxdepth : fj->f.maxdepth, budget,
			    find_visit, fj) > 0)
			pol_note(fj->j, R_NOT_UNDERSTOOD, fj->object);
	}
	sc_path_release(&res);
}

static int find_needs_walk(const struct sc_find *f)
{
	size_t k;

	for (k = 0; k < f->nr_actions; k++)
		if (f->actions[k].kind != SC_FIND_EXEC || f->actions[k].braces)
			return 1;
	return 0;
}

/* FJ for the find or fd command whose arguments are W[I..N). */
static void find_judge_init(struct find_judge *fj, struct judge *j,
			    struct ctx *c, const struct sc_sw_word *w,
			    size_t n, size_t i, const char *object)
{
	size_t k;

	memset(fj, 0, sizeof(*fj));
	fj->j = j;
	fj->c = c;
	fj->w = w + i;
	fj->aw = fj->w;
	fj->object = object;
	fj->argv = sc_xcalloc(n - i + 1, sizeof(*fj->argv));
	for (k = i; k < n; k++)
		fj->argv[k - i] = w[k].s;
	sc_find_init(&fj->f);
}

void pol_judge_find(struct judge *j, struct ctx *c,
		    const struct sc_sw_word *w, size_t n, size_t i,
		    const char *object)
{
	struct find_judge fj;
	static const struct sc_sw_word dot = { (char *)".", 1, 0 };
	size_t k, budget = SC_WALK_BUDGET;

	find_judge_init(&fj, j, c, w, n, i, object);
	if (sc_find_parse(&fj.f, fj.argv, n - i) < 0) {
		pol_note(j, R_NOT_UNDERSTOOD, object);
		goto out;
	}
	for (k = fj.f.start_from; k < fj.f.start_to; k++)
		pol_judge_arg_path(j, c, &fj.w[k], 0, object);
	for (k = 0; k < fj.f.nr_writes; k++)
		pol_judge_arg_path(j, c, &fj.w[fj.f.writes[k]], 1, object);
	if (fj.f.files0_from >= 0)
		pol_judge_arg_path(j, c, &fj.w[fj.f.files0_from], 0, object);
	for (k = 0; k < fj.f.nr_actions; k++) {
		const struct sc_find_action *a = &fj.f.actions[k];

		if (a->kind == SC_FIND_DELETE)
			pol_note(j, R_RECURSIVE_RM, object);
		else if (a->kind == SC_FIND_EXEC && !a->braces) {
			struct ctx inner = *c;

			inner.depth++;
			pol_judge_argv(j, fj.w + a->from, a->to - a->from, &inner, NULL);
		}
	}
	if (find_needs_walk(&fj.f) && !(j->have && j->decision == SC_DENY)) {
		sc_buf_init(&fj.shown);
		/* the files are unknown */
		if (fj.f.files0_from >= 0 || c->cwd_unknown)
			pol_note(j, R_NOT_UNDERSTOOD, object);
		else if (fj.f.start_from == fj.f.start_to)
			find_start(&fj, &dot, &budget);
		for (k = fj.f.start_from; k < fj.f.start_to &&
		     !(j->have && j->decision == SC_DENY); k++)
			find_start(&fj, &fj.w[k], &budget);
		sc_buf_release(&fj.shown);
	}
	pol_note(j, R_READ_COMMAND, object);
out:
	sc_strlist_release(&fj.seen);
	sc_find_release(&fj.f);
	free(fj.argv);
}

/*
 * fd (fdfind): it lists names, which is a read; -x/-X run a command on
 * each result, judged as find -exec is, with the placeholders (or the
 * path appended) standing for every file fd's filters let through.
 */
void pol_judge_fd(struct judge *j, struct ctx *c,
		  const struct sc_sw_word *w, size_t n, size_t i,
		  const char *object)
{
	static const struct sc_sw_word dot = { (char *)".", 1, 0 };
	struct find_judge fj;
	struct sc_fd fd;
	size_t k, budget = SC_WALK_BUDGET;

	find_judge_init(&fj, j, c, w, n, i, object);
	fj.fd = &fd;
	sc_fd_init(&fd);
	if (sc_fd_parse(&fd, fj.argv, n - i) < 0) {
		pol_note(j, R_NOT_UNDERSTOOD, object);
		goto out;
	}
	for (k = 0; k < fd.nr_paths; k++)
		pol_judge_arg_path(j, c, &fj.w[fd.paths[k]], 0, object);
	if (fd.has_action && !(j->have && j->decision == SC_DENY)) {
		if (c->cwd_unknown)
			pol_note(j, R_NOT_UNDERSTOOD, object);
		else if (!fd.nr_paths)
			find_start(&fj, &dot, &budget);
		for (k = 0; k < fd.nr_paths &&
		     !(j->have && j->decision == SC_DENY); k++)
			find_start(&fj, &fj.w[fd.paths[k]], &budget);
	}
	pol_note(j, R_READ_COMMAND, object);
out:
	sc_buf_release(&fj.shown);
	sc_strlist_release(&fj.seen);
	sc_fd_release(&fd);
	free(fj.argv);
}

/*
 * A sed script that only substitutes, prints, deletes and quits.  Anything
 * else (e, w, r, W, R, s///e, s///w, unknown) counts as running or writing.
 */
static int sed_script_safe(const char *s)
{
	while (*s) {
		char d;

		if (strchr(" \t\n;{}!0123456789$,", *s)) {
			s++;
			continue;
		}
		if (*s == '/' || *s == '\\') {   /* an address */
			d = *s == '\\' ? *++s : '/';
			for (s++; *s && *s != d; s++)
				if (*s == '\\' && s[1])
					s++;
			if (!*s)
				return 0;
			s++;
			continue;
		}
		if (strchr("pdqQ=lnNgGhHxPDz", *s)) {
			s++;
			continue;
		}
		if (*s == 'y' || *s == 's') {
			int parts = 2;

			if (!s[1] || s[1] == '\n' || s[1] == '\\')
				return 0;
			d = *++s;
			while (parts--) {
				for (s++; *s && *s != d; s++)
					if (*s == '\\' && s[1])
						s++;
				if (!*s)
					return 0;
			}
			for (s++; *s && strchr("gpiImM0123456789", *s); s++)
				;
			continue;
		}
		return 0;
	}
	return 1;
}

void pol_judge_sed(struct judge *j, struct ctx *c,
		   const struct sc_sw_word *w, size_t n, size_t i,
		   const char *object)
{
	size_t k;
	int in_place = 0, have_script = 0, dd = 0;

	for (k = i + 1; k < n; k++) {
		const char *s = w[k].s;

		if (pol_ends_options(&w[k], &dd))
			continue;
		if (!dd && (!strcmp(s, "-e") || !strcmp(s, "--expression"))) {
			have_script = 1;
			if (++k < n && (!sed_script_safe(w[k].s) ||
					(w[k].flags & SC_SW_UNRESOLVED)))
				pol_note(j, R_EXEC_ARG, object);
		} else if (!dd && !strncmp(s, "--expression=", 13)) {
			have_script = 1;
			if (!sed_script_safe(s + 13))
				pol_note(j, R_EXEC_ARG, object);
		} else if (!dd && (!strcmp(s, "-f") || !strncmp(s, "--file", 6))) {
			have_script = 1;
			pol_note(j, R_EXEC_ARG, object);   /* a script we cannot see */
			if (!strcmp(s, "-f"))
				k++;
		} else if (!dd && (!strncmp(s, "-i", 2) ||
				   !strncmp(s, "--in-place", 10) ||
				   (s[0] == '-' && s[1] != '-' && strchr(s, 'i')))) {
			in_place = 1;
		} else if (!dd && (!strcmp(s, "-l") || !strcmp(s, "--line-length"))) {
			k++;
		} else if (pol_is_option(&w[k], dd)) {
			continue;
		} else if (!have_script) {
			have_script = 1;
			if (!sed_script_safe(s) || (w[k].flags & SC_SW_UNRESOLVED))
				pol_note(j, R_EXEC_ARG, object);
		} else {
			pol_judge_arg_path(j, c, &w[k], in_place, object);
		}
	}
	pol_note(j, in_place ? R_FILE_COMMAND : R_READ_COMMAND, object);
}

void pol_judge_awk(struct judge *j, struct ctx *c,
		   const struct sc_sw_word *w, size_t n, size_t i,
		   const char *object)
{
	static const char *const risky[] = { "system", "|", ">", "getline",
		"ENVIRON", "@load", "close", "fflush", NULL };
	size_t k, r;
	int have_prog = 0, dd = 0;

	for (k = i + 1; k < n; k++) {
		const char *s = w[k].s;

		if (pol_ends_options(&w[k], &dd))
			continue;
		if (!dd && (!strcmp(s, "-f") || !strcmp(s, "-v") ||
				   !strcmp(s, "-F") || !strcmp(s, "-i") ||
				   !strcmp(s, "-l") || !strcmp(s, "-E"))) {
			if (s[1] != 'F' && s[1] != 'v')
				pol_note(j, R_EXEC_ARG, object);
			if (s[1] == 'f' || s[1] == 'E')
				have_prog = 1;
			k++;
		} else if (pol_is_option(&w[k], dd)) {
			if (!strncmp(s, "-f", 2) || !strncmp(s, "--", 2))
				pol_note(j, R_EXEC_ARG, object);
		} else if (!have_prog) {
			have_prog = 1;
			for (r = 0; risky[r]; r++)
				if (strstr(s, risky[r]))
					pol_note(j, R_EXEC_ARG, object);
			if (w[k].flags & SC_SW_UNRESOLVED)
				pol_note(j, R_OPAQUE, object);
		} else if (!strchr(s, '=')) {
			pol_judge_arg_path(j, c, &w[k], 0, object);
		}
	}
	pol_note(j, R_READ_COMMAND, object);
}

static const struct reader readers[] = {
	{ "cat", "", 0 }, { "head", "nc", 0 }, { "tail", "ncs", 0 },
	{ "wc", "", 0 }, { "nl", "bdfhilnsvw", 0 }, { "tac", "s", 0 },
	{ "rev", "", 0 }, { "od", "AjNStw", 0 }, { "hexdump", "neFs", 0 },
	{ "strings", "nteTo", 0 }, { "md5sum", "", 0 }, { "sha1sum", "", 0 },
	{ "sha256sum", "", 0 }, { "sha512sum", "", 0 }, { "b2sum", "l", 0 },
	{ "cksum", "a", 0 }, { "file", "emfFP", 0 }, { "stat", "cf", 0 },
	{ "du", "dtBX", 0 }, { "ls", "ITw", 0 }, { "diff", "CUFILSWxX", 0 },
	{ "cmp", "inI", 0 }, { "comm", "", 0 }, { "sort", "kStTy", 0 },
	{ "uniq", "fsw", 0 }, { "cut", "bcdf", 0 }, { "paste", "d", 0 },
	{ "column", "cstoNRHWE", 0 }, { "fold", "w", 0 }, { "fmt", "wpg", 0 },
	{ "expand", "t", 0 }, { "unexpand", "t", 0 }, { "less", "bhjkoOpPTxyz", 0 },
	{ "more", "n", 0 }, { "grep", "efmABCdD", 1 }, { "egrep", "efmABCdD", 1 },
	{ "fgrep", "efmABCdD", 1 }, { "rg", "efmABCgtTMjEr", 1 },
	{ "jq", "fL", 1 }, { "readlink", "", 0 }, { "realpath", "", 0 },
	{ "tr", "", 2 }, { "base64", "w", 0 }, { "basenc", "w", 0 },
	{ "tree", "LPIo", 0 }, { "look", "t", 1 },
	{ NULL, NULL, 0 },
};

/* Commands that read or write nothing named in their arguments. */
const char *const pol_inert[] = {
	"echo", "printf", "true", "false", "test", "[", ":", "seq", "sleep",
	"yes", "date", "uname", "whoami", "id", "pwd", "basename", "dirname",
	"which", "type", "hostname", "nproc", "tty", "arch", "groups",
	"logname", "expr", "factor", "numfmt", "getconf", "locale", "cal",
	"wait", "shift", "return", "break", "continue", "exit", "unalias",
	"jobs", "times", "umask", "tput", "clear",
	"stty", NULL,
};

const struct reader *pol_find_reader(const char *name)
{
	const struct reader *r;

	for (r = readers; r->name; r++)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

void pol_judge_reader(struct judge *j, struct ctx *c,
		      const struct sc_sw_word *w, size_t n, size_t i,
		      const struct reader *r, const char *object)
{
	size_t k;
	int dd = 0, skip_first = r->pattern_first, tr = r->pattern_first == 2;
	int operands = 0;

	for (k = i + 1; k < n; k++) {
		const char *s = w[k].s;

		if (pol_ends_options(&w[k], &dd))
			continue;
		if (pol_is_option(&w[k], dd)) {
			if (pol_exec_option(r->name, s)) {
				/* noted by judge_exec_options: skip its value */
				if (s[1] == '-' && !strchr(s, '=') && k + 1 < n)
					k++;
			} else if (!strcmp(r->name, "sort") &&
				   (!strncmp(s, "--compress-program", 18) ||
				    !strncmp(s, "--output", 8) ||
				    (s[1] != '-' && strchr(s, 'o')))) {
				if (!strncmp(s, "--compress-program", 18))
					;   /* judge_exec_options */
				else if (strchr(s, '=')) {
					struct sc_sw_word t = w[k];

					t.s = strchr(s, '=') + 1;
					t.len = strlen(t.s);
					pol_judge_arg_path(j, c, &t, 1, object);
				} else if (s[strlen(s) - 1] == 'o' && k + 1 < n)
					pol_judge_arg_path(j, c, &w[++k], 1, object);
				else
					pol_note(j, R_OPAQUE, object);
			} else if (!r->pattern_first && (!strcmp(s, "-o") ||
				   !strcmp(s, "--output")) && k + 1 < n) {
				pol_judge_arg_path(j, c, &w[++k], 1, object);
			} else if (!r->pattern_first &&
				   !strncmp(s, "--output=", 9)) {
				struct sc_sw_word t = w[k];

				t.s += 9;
				t.len -= 9;
				pol_judge_arg_path(j, c, &t, 1, object);
			} else if (!strcmp(r->name, "tree") && !strcmp(s, "-o") &&
				   k + 1 < n) {
				pol_judge_arg_path(j, c, &w[++k], 1, object);
			} else if (s[1] != '-' && strchr(r->optargs, s[strlen(s) - 1]) &&
				   k + 1 < n) {
				if ((!strcmp(s, "-e") || !strcmp(s, "-f")) &&
				    r->pattern_first)
					skip_first = 0;
				if (!strcmp(s, "-f"))
					pol_judge_arg_path(j, c, &w[k + 1], 0, object);
				k++;
			} else if (!strncmp(s, "--regexp", 8) || !strncmp(s, "--file", 6)) {
				skip_first = 0;
				if (!strchr(s, '=') && k + 1 < n)
					k++;
			}
			continue;
		}
		if (tr)
			continue;   /* tr reads no files */
		if (!strcmp(r->name, "uniq") && ++operands == 2) {
			pol_judge_arg_path(j, c, &w[k], 1, object);   /* uniq IN OUT */
			continue;
		}
		if (skip_first) {
			skip_first = 0;
			continue;
		}
		if (!strcmp(s, "-"))
			continue;
		pol_judge_arg_path(j, c, &w[k], 0, object);
	}
	pol_note(j, R_READ_COMMAND, object);
}

/* 1 when W names an existing directory (or ends in a slash). */
static int names_dir(const struct judge *j, const struct ctx *c,
		     const struct sc_sw_word *w)
{
	struct sc_path res;
	int dir;

	if (w->len && w->s[w->len - 1] == '/')
		return 1;
	sc_path_init(&res);
	dir = sc_path_resolve(&j->p->root, c->cwd.data ? c->cwd.data : "",
			      w->s, w->len, 0, &res) == SC_PATH_OK &&
	      res.exists && S_ISDIR(res.st.st_mode);
	sc_path_release(&res);
	return dir;
}

/*
 * cp, mv, ln and install: each source lands in DEST/basename(source) when
 * the destination is a directory, so that is the path a write reaches.
 */
static void judge_copy(struct judge *j, struct ctx *c, const char *name,
		       const struct sc_sw_word *ops, size_t nops,
		       const struct sc_sw_word *dest, int recursive,
		       const char *object)
{
	size_t k;
	int into = dest && names_dir(j, c, dest);

	for (k = 0; k < nops; k++) {
		const struct sc_sw_word *src = &ops[k];

		/* mv removes its sources; cp, ln and install read them */
		pol_judge_arg_path(j, c, src, !strcmp(name, "mv"), object);
		if (!(src->flags & SC_SW_UNRESOLVED) && names_dir(j, c, src) &&
		    (recursive || !strcmp(name, "mv")))
			pol_note(j, R_RECURSIVE_COPY, object);
		if (into && !(src->flags & SC_SW_UNRESOLVED) &&
		    !(dest->flags & SC_SW_UNRESOLVED)) {
			struct sc_sw_word t = *dest;
			struct sc_buf b = SC_BUF_INIT;
			const char *base = src->s + src->len;

			while (base > src->s && base[-1] == '/')
				base--;
			while (base > src->s && base[-1] != '/')
				base--;
			sc_buf_add(&b, dest->s, dest->len);
			sc_buf_addch(&b, '/');
			sc_buf_add(&b, base, strcspn(base, "/"));
			t.s = b.data;
			t.len = b.len;
			pol_judge_arg_path(j, c, &t, 1, object);
			sc_buf_release(&b);
		}
	}
	if (dest && !into)
		pol_judge_arg_path(j, c, dest, 1, object);
}

/* rm, mv, cp, touch and friends: their operands are writes. */
int pol_judge_file_command(struct judge *j, struct ctx *c,
			   const char *name, const struct sc_sw_word *w,
			   size_t n, size_t i, const char *object)
{
	static const char *const writers[] = { "rm", "rmdir", "unlink",
		"shred", "touch", "mkdir", "mv", "cp", "tee", "truncate",
		"ln", "chmod", "chown", "chgrp", "install", "dd", "patch",
		"mkfifo", "mknod", "setfattr", "chattr", "rsync", NULL };
	static const char *const copiers[] = { "mv", "cp", "ln", "install",
		NULL };
	static const char *const listed[] = { "rm", "rmdir", "unlink",
		"touch", "mkdir", "mv", "cp", "tee", NULL };
	struct sc_sw_word *ops = NULL, target;
	size_t k, nops = 0, alloc = 0;
	int dd = 0, recursive = 0, have_target = 0, first_op;

	if (!sc_str_in_list(name, writers))
		return 0;
	/* chmod MODE, chown OWNER, chgrp GROUP: the first operand */
	first_op = sc_str_in_list(name, (const char *const[]){ "chmod", "chown",
		"chgrp", NULL });
	for (k = i + 1; k < n; k++) {
		const char *s = w[k].s;

		if (pol_ends_options(&w[k], &dd))
			continue;
		if (pol_is_option(&w[k], dd)) {
			if ((s[1] != '-' && strpbrk(s + 1, "rRa")) ||
			    !strcmp(s, "--recursive") || !strcmp(s, "--archive"))
				recursive = 1;
			if ((!strcmp(s, "-t") || !strcmp(s, "--target-directory")) &&
			    k + 1 < n) {
				target = w[++k];
				have_target = 1;
			} else if (!strncmp(s, "--target-directory=", 19)) {
				target = w[k];
				target.s += 19;
				target.len -= 19;
				have_target = 1;
			} else if (sc_str_in_list(s, (const char *const[]){
				"-m", "-s", "-r", "-d", "-S", "--suffix", "--mode",
				"--size", "--reference", NULL }) &&
				   sc_str_in_list(name, (const char *const[]){
					       "truncate", "mkdir", "touch",
					       "install", "mkfifo", "mknod",
					       NULL })) {
				k++;
			}
			continue;
		}
		if (first_op) {
			first_op = 0;
			continue;
		}
		if (!strcmp(name, "dd")) {
			struct sc_sw_word t = w[k];

			if (!strncmp(s, "of=", 3) || !strncmp(s, "if=", 3)) {
				t.s += 3;
				t.len -= 3;
				pol_judge_arg_path(j, c, &t, s[0] == 'o',
						   object);
			}
			continue;
		}
		SC_ALLOC_GROW(ops, nops + 1, alloc);
		ops[nops++] = w[k];
	}
	if (sc_str_in_list(name, copiers)) {
		if (!have_target && nops) {
			target = ops[--nops];
			have_target = nops > 0 || !strcmp(name, "ln");
			if (!nops && strcmp(name, "ln"))
				pol_judge_arg_path(j, c, &target, 1, object);
		}
		judge_copy(j, c, name, ops, nops, have_target ? &target : NULL,
			   recursive, object);
	} else {
		for (k = 0; k < nops; k++)
			pol_judge_arg_path(j, c, &ops[k], 1, object);
	}
	free(ops);
	if (recursive && !strcmp(name, "rm"))
		pol_note(j, R_RECURSIVE_RM, object);
	if (sc_str_in_list(name, listed))
		pol_note(j, R_FILE_COMMAND, object);
	else
		pol_note(j, R_UNLISTED, object);
	return 1;
}

int pol_judge_xargs(struct judge *j, struct ctx *c,
		    const struct sc_sw_cmd *feed, const struct sc_sw_word *w,
		    size_t n, size_t i, const char *object)
{
	static const char *const flags[] = { "-0", "--null", "-r",
		"--no-run-if-empty", "-t", "--verbose", "-x", "--exit", "-p",
		"--interactive", "-o", "--open-tty", NULL };
	static const char *const values[] = { "-n", "-L", "-P", "-s", "-E",
		"--max-args", "--max-lines", "--max-procs", "--max-chars",
		"--eof", "--process-slot-var", NULL };
	static const struct sc_sw_word dot = { (char *)".", 1, 0 };
	struct find_judge fj;
	struct sc_fd fd;
	struct sc_buf name = SC_BUF_INIT;
	size_t k, cmd, budget = SC_WALK_BUDGET;
	int ok = 1, is_fd;

	if (!feed || !feed->nr_words || pol_word_has_flag(feed->words,
			feed->nr_words, SC_SW_UNRESOLVED) ||
	    !pol_system_program(&feed->words[0]))
		return 0;
	pol_cmd_name(&feed->words[0], &name);
	is_fd = !strcmp(name.data, "fd") || !strcmp(name.data, "fdfind");
	if (!is_fd && strcmp(name.data, "find")) {
		sc_buf_release(&name);
		return 0;
	}
	sc_buf_release(&name);
	memset(&fj, 0, sizeof(fj));
	fj.split = 1;
	for (k = i + 1; k < n && w[k].s[0] == '-' && ok; k++) {
		const char *s = w[k].s;

		if (!strcmp(s, "--")) {
			k++;
			break;
		}
		if (sc_str_in_list(s, flags)) {
			if (!strcmp(s, "-0") || !strcmp(s, "--null"))
				fj.split = 0;
		} else if (sc_str_in_list(s, values)) {
			ok = ++k < n;
		} else if (!strncmp(s, "--max-", 6) || !strncmp(s, "-n", 2) ||
			   !strncmp(s, "-L", 2) || !strncmp(s, "-P", 2) ||
			   !strncmp(s, "-s", 2) || !strncmp(s, "-l", 2) ||
			   !strncmp(s, "-e", 2) || !strncmp(s, "--eof=", 6)) {
			continue;   /* a value joined to its option */
		} else if (!strcmp(s, "-I")) {
			ok = ++k < n && w[k].len;
			fj.repl = ok ? w[k].s : NULL;
		} else if (!strncmp(s, "-I", 2)) {
			fj.repl = s + 2;
		} else if (!strcmp(s, "-i") || !strcmp(s, "--replace")) {
			fj.repl = "{}";
		} else if (!strncmp(s, "--replace=", 10) && s[10]) {
			fj.repl = s + 10;
		} else if (!strncmp(s, "-i", 2)) {
			fj.repl = s + 2;
		} else {
			ok = 0;   /* -a FILE reads no pipe; -d and the unknown */
		}
	}
	cmd = k;
	if (!ok || cmd >= n)
		return ok && cmd >= n;   /* xargs alone runs echo */
	fj.j = j;
	fj.c = c;
	fj.w = feed->words;
	fj.aw = w;
	fj.xargs = 1;
	fj.object = object;
	fj.xact.kind = SC_FIND_EXEC;
	fj.xact.from = cmd;
	fj.xact.to = n;
	fj.xact.plus = !fj.repl;
	fj.xact.braces = 1;
	fj.argv = sc_xcalloc(feed->nr_words + 1, sizeof(*fj.argv));
	for (k = 0; k < feed->nr_words; k++)
		fj.argv[k] = feed->words[k].s;
	sc_find_init(&fj.f);
	sc_fd_init(&fd);
	if (is_fd) {
		fj.fd = &fd;
		ok = sc_fd_parse(&fd, fj.argv, feed->nr_words) == 0 &&
		     !fd.has_action;
	} else {
		ok = sc_find_parse(&fj.f, fj.argv, feed->nr_words) == 0 &&
		     !fj.f.nr_actions && fj.f.files0_from < 0;
	}
	if (ok && !c->cwd_unknown) {
		size_t nr = is_fd ? fd.nr_paths : fj.f.start_to - fj.f.start_from;

		if (!nr)
			find_start(&fj, &dot, &budget);
		for (k = 0; k < nr && !(j->have && j->decision == SC_DENY); k++)
			find_start(&fj, &fj.w[is_fd ? fd.paths[k] :
					       fj.f.start_from + k], &budget);
	}
	sc_buf_release(&fj.shown);
	sc_strlist_release(&fj.seen);
	sc_find_release(&fj.f);
	sc_fd_release(&fd);
	free(fj.argv);
	return ok && !c->cwd_unknown;
}

/* The launchers looked through: returns the index of the command. */
