/*
 * The git rules of sc-classify(1): options and configuration keys that run
 * programs or move the checkout, and the paths git commands touch.  Split
 * from policy.c at its seams; shared state in policy-int.h.
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

/* ---- git ----------------------------------------------------------- */

/* git configuration keys that make git run a program (gitkeys.h). */
static int git_key_runs(const char *key)
{
	return sc_gitkey_kind(key, NULL) != SC_GITKEY_NONE;
}

/* Keys safe to set for one command. */
static int git_key_safe(const char *key)
{
	static const char *const prefixes[] = { "color.", "user.", "advice.",
		"log.", "column.", "i18n.", "pretty.", "status.", "blame.",
		"grep.", "format.", "init.defaultbranch", "commit.gpgsign",
		"tag.gpgsign", "diff.renames", "diff.algorithm",
		"diff.nonprefix", "diff.mnemonicprefix", "merge.conflictstyle",
		NULL };

	return pol_prefix_in(key, prefixes);
}

static void judge_git_key(struct judge *j, const char *kv,
			  const char *object)
{
	char key[256];
	size_t n = strcspn(kv, "="), i;

	if (n >= sizeof(key)) {
		pol_note(j, R_GIT_EXEC, object);
		return;
	}
	for (i = 0; i < n; i++)
		key[i] = (kv[i] >= 'A' && kv[i] <= 'Z') ? (char)(kv[i] + 32)
							: kv[i];
	key[n] = '\0';
	if (git_key_runs(key))
		pol_note(j, R_GIT_EXEC, object);
	else if (!git_key_safe(key))
		pol_note(j, R_GIT_CONFIG, object);
}

/* A directory between CWD and the root that git would take as a repo. */
static int embedded_repo(const struct judge *j, const char *cwd)
{
	static const char *const bare[] = { "HEAD", "objects", "refs", NULL };
	struct sc_buf d = SC_BUF_INIT, t = SC_BUF_INIT;
	int found = 0;

	sc_buf_adds(&d, cwd);
	while (d.len && !found) {
		struct stat st;
		size_t i, have = 0;
		char *slash;

		sc_buf_reset(&t);
		sc_buf_addf(&t, "%s/%s/.git", j->p->root.path, d.data);
		if (lstat(t.data, &st) == 0)
			found = 1;
		for (i = 0; bare[i]; i++) {
			sc_buf_reset(&t);
			sc_buf_addf(&t, "%s/%s/%s", j->p->root.path, d.data,
				    bare[i]);
			have += lstat(t.data, &st) == 0;
		}
		if (have == 3)
			found = 1;
		slash = strrchr(d.data, '/');
		sc_buf_setlen(&d, slash ? (size_t)(slash - d.data) : 0);
	}
	sc_buf_release(&d);
	sc_buf_release(&t);
	return found;
}

static int any_arg(const struct sc_sw_word *w, size_t n, size_t from,
		   const char *const *list)
{
	size_t i;

	for (i = from; i < n; i++)
		if (sc_str_in_list(w[i].s, list))
			return 1;
	return 0;
}

/* The first word after FROM that is not an option. */
static size_t first_operand(const struct sc_sw_word *w, size_t n, size_t from)
{
	while (from < n && w[from].s[0] == '-')
		from++;
	return from;
}

static void judge_git_config(struct judge *j, const struct sc_sw_word *w,
			     size_t n, size_t sub, const char *object)
{
	static const char *const reads[] = { "--get", "--get-all",
		"--get-regexp", "--get-urlmatch", "-l", "--list",
		"--get-color", "--get-colorbool", "get", "list", NULL };
	static const char *const outside[] = { "--global", "--system",
		"--file", "-f", "--blob", NULL };
	size_t k;

	if (any_arg(w, n, sub + 1, outside)) {
		pol_note(j, R_OUTSIDE, object);
		return;
	}
	if (any_arg(w, n, sub + 1, reads)) {
		pol_note(j, R_GIT_READ, object);
		return;
	}
	k = first_operand(w, n, sub + 1);
	if (k < n && (!strcmp(w[k].s, "set") || !strcmp(w[k].s, "unset")))
		k = first_operand(w, n, k + 1);
	if (k >= n) {
		pol_note(j, R_GIT_READ, object);
		return;
	}
	if (k + 1 >= n && !any_arg(w, n, sub + 1, (const char *const[]){
		"--unset", "--unset-all", "--add", "--replace-all", NULL })) {
		/* a read of one key, but keys that run stay denied */
		judge_git_key(j, w[k].s, object);
		pol_note(j, R_GIT_READ, object);
		return;
	}
	judge_git_key(j, w[k].s, object);
	pol_note(j, R_GIT_STATE, object);
}

static int git_read_only(const char *sub, const struct sc_sw_word *w,
			 size_t n, size_t at)
{
	static const char *const reads[] = {
		"status", "log", "diff", "show", "blame", "annotate", "grep",
		"ls-files", "ls-tree", "cat-file", "rev-parse", "rev-list",
		"describe", "shortlog", "show-ref", "for-each-ref", "diff-tree",
		"diff-files", "diff-index", "merge-base", "name-rev",
		"whatchanged", "count-objects", "var", "help", "version",
		"check-ignore", "check-attr", "check-ref-format", "show-branch",
		"range-diff", "cherry", "verify-commit", "verify-tag",
		"fsck", "hash-object", "ls-remote-local", "-v", "--version",
		"--help", "-h", NULL,
	};
	static const char *const listing[] = { "-a", "-r", "-v", "-vv", "-l",
		"--list", "--all", "--remotes", "--verbose", "--show-current",
		NULL };
	size_t i;

	if (sc_str_in_list(sub, reads))
		return 1;
	if (!strcmp(sub, "branch") || !strcmp(sub, "tag")) {
		for (i = at + 1; i < n; i++)
			if (!sc_str_in_list(w[i].s, listing))
				return 0;
		return 1;
	}
	if (!strcmp(sub, "stash") || !strcmp(sub, "worktree"))
		return at + 1 < n && sc_str_in_list(w[at + 1].s,
			(const char *const[]){ "list", "show", NULL });
	if (!strcmp(sub, "reflog") || !strcmp(sub, "notes"))
		return at + 1 >= n || sc_str_in_list(w[at + 1].s,
			(const char *const[]){ "list", "show", NULL });
	return 0;
}

static int git_moves_checkout(const char *sub, const struct sc_sw_word *w,
			      size_t n, size_t at)
{
	static const char *const moves[] = {
		"checkout", "switch", "reset", "commit", "merge", "rebase",
		"cherry-pick", "revert", "stash", "branch", "tag", "update-ref",
		"worktree", "am", "pull", "bisect", "symbolic-ref", "read-tree",
		"update-index", "sparse-checkout", "replace", "checkout-index",
		"commit-tree", "mv", "rm", "add", "notes", "gc", "prune",
		"pack-refs", "maintenance", "fast-import", NULL,
	};

	if (sc_str_in_list(sub, moves))
		return 1;
	if (!strcmp(sub, "apply"))
		return any_arg(w, n, at + 1, (const char *const[]){ "--index",
			"--cached", "--3way", "-3", NULL });
	if (!strcmp(sub, "restore"))
		return any_arg(w, n, at + 1, (const char *const[]){ "--staged",
			"-S", "-SW", "-WS", NULL });
	return 0;
}

/* --output=FILE and --output FILE write files. */
static void judge_git_outputs(struct judge *j, struct ctx *c,
			      const struct sc_sw_word *w, size_t n, size_t at,
			      const char *object)
{
	size_t i;

	for (i = at + 1; i < n; i++) {
		if (!strncmp(w[i].s, "--output=", 9)) {
			struct sc_sw_word t = w[i];

			t.s += 9;
			t.len -= 9;
			pol_judge_arg_path(j, c, &t, 1, object);
		} else if (!strcmp(w[i].s, "--output") && i + 1 < n) {
			pol_judge_arg_path(j, c, &w[++i], 1, object);
		} else if (pol_exec_option("git", w[i].s)) {
			pol_note(j, R_EXEC_ARG, object);
		}
	}
}

/* Global options before the subcommand; the subcommand's index. */
static size_t git_globals(struct judge *j, struct ctx *c,
			  const struct sc_sw_word *w, size_t n, size_t i,
			  struct sc_buf *gitcwd, const char *object)
{
	static const char *const harmless[] = {
		"-P", "--no-pager", "--no-replace-objects", "--literal-pathspecs",
		"--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
		"--no-optional-locks", "--no-lazy-fetch", "--no-advice",
		"--html-path", "--man-path", "--info-path", "--version", "--help",
		"-v", "-h", "--exec-path", NULL,
	};

	for (i++; i < n && w[i].s[0] == '-'; i++) {
		const char *s = w[i].s;

		if (!strcmp(s, "-c") || !strcmp(s, "--config-env")) {
			if (++i >= n)
				pol_note(j, R_GIT_OPTION, object);
			else
				judge_git_key(j, w[i].s, object);
		} else if (!strncmp(s, "--config-env=", 13)) {
			judge_git_key(j, s + 13, object);
		} else if (!strcmp(s, "-C")) {
			struct sc_path res;
			int st;

			if (++i >= n || (w[i].flags & SC_SW_UNRESOLVED)) {
				pol_note(j, R_OPAQUE, object);
				continue;
			}
			if (!w[i].len)
				continue;   /* git -C '' stays where it is */
			sc_path_init(&res);
			st = sc_path_resolve(&j->p->root, gitcwd->data, w[i].s,
					     w[i].len, 0, &res);
			if (st != SC_PATH_OK)
				pol_note(j, pol_status_rule(st), object);
			else {
				sc_buf_reset(gitcwd);
				sc_buf_adds(gitcwd, res.rel);
				pol_judge_path(j,
					       c->cwd.data ? c->cwd.data : "",
					       w[i].s, w[i].len, 0);
			}
			sc_path_release(&res);
		} else if (!strcmp(s, "--namespace") ||
			   !strcmp(s, "--list-cmds") ||
			   !strcmp(s, "--attr-source")) {
			i++;
		} else if (!strncmp(s, "--namespace=", 12) ||
			   !strncmp(s, "--list-cmds=", 12) ||
			   !strncmp(s, "--attr-source=", 14) ||
			   sc_str_in_list(s, harmless)) {
			continue;
		} else if (!strcmp(s, "-p") || !strcmp(s, "--paginate")) {
			pol_note(j, R_EXEC_ARG, object);
		} else {
			/* --git-dir, --work-tree, --exec-path=, --bare,
			 * --super-prefix and anything unknown */
			pol_note(j, R_GIT_OPTION, object);
			if ((!strcmp(s, "--git-dir") || !strcmp(s, "--work-tree") ||
			     !strcmp(s, "--super-prefix")) && i + 1 < n)
				i++;
		}
	}
	return i;
}

/* OPT's first LEN bytes as a string in NAME (SIZE bytes); -1 when they
 * do not fit, which no option git knows does. */
static int option_name(char *name, size_t size, const char *opt, size_t len)
{
	if (len >= size)
		return -1;
	memcpy(name, opt, len);
	name[len] = '\0';
	return 0;
}

/* Options whose value is free text (a message, a pattern), not a path. */
static int git_text_option(const char *sub, const char *opt, size_t len)
{
	static const char *const text[] = { "-m", "--message", "-S", "-G",
		"--grep", "--author", "--committer", "--format", "--pretty",
		"--since", "--until", "--after", "--before", "--date", "-n",
		"--max-count", "--skip", "-U", "--unified", "-L", "--regexp",
		"-b", "-B", "--branch", "--orphan", "-c", "-C", "--abbrev",
		"--word-diff-regex", "--color-words", "--diff-filter",
		"--encoding", "--trailer", "--reuse-message", "--reedit-message",
		"--fixup", "--squash", "--decorate-refs",
		"--decorate-refs-exclude", "--sort", "--points-at", "--contains",
		"--no-contains", "--merged", "--no-merged", "--source", "-s",
		"--conflict", "--strategy", "-X", "--strategy-option",
		"--onto", "--reason", NULL };
	char name[64];

	if (option_name(name, sizeof(name), opt, len) < 0)
		return 0;
	if (!strcmp(name, "-e"))
		return !strcmp(sub, "grep");
	if (!strcmp(name, "-s"))
		return !strcmp(sub, "restore") || !strcmp(sub, "checkout");
	return sc_str_in_list(name, text);
}

/* Short options that take the next word as a value, per subcommand. */
static int git_takes_value(const char *sub, const char *opt)
{
	if (!strcmp(sub, "log") || !strcmp(sub, "show") ||
	    !strcmp(sub, "whatchanged") || !strcmp(sub, "shortlog"))
		if (sc_str_in_list(opt, (const char *const[]){
			"-n", "-S", "-G", "-L", NULL }))
			return 1;
	if (!strcmp(sub, "grep") &&
	    sc_str_in_list(opt, (const char *const[]){ "-e", "-f", "-m", "-A",
			"-B", "-C", NULL }))
		return 1;
	if ((!strcmp(sub, "commit") || !strcmp(sub, "tag") ||
	     !strcmp(sub, "merge") || !strcmp(sub, "stash") ||
	     !strcmp(sub, "notes")) &&
	    sc_str_in_list(opt, (const char *const[]){
			"-m", "-F", "-t", "-C", "-c", "-u", NULL }))
		return 1;
	if ((!strcmp(sub, "checkout") || !strcmp(sub, "switch") ||
	     !strcmp(sub, "worktree")) &&
	    sc_str_in_list(opt, (const char *const[]){ "-b", "-B", "-c", "-C",
			"--orphan", NULL }))
		return 1;
	if ((!strcmp(sub, "restore") || !strcmp(sub, "reset")) &&
	    sc_str_in_list(opt, (const char *const[]){ "-s", "--source", NULL }))
		return 1;
	if ((!strcmp(sub, "format-patch") || !strcmp(sub, "archive")) &&
	    sc_str_in_list(opt, (const char *const[]){ "-o",
			"--output-directory", "--prefix", "--format", NULL }))
		return 1;
	return sc_str_in_list(opt, (const char *const[]){
		"--author", "--committer", "--grep", "--format", "--pretty", "--since", "--until",
		"--after", "--before", "--date", "--max-count", "--skip",
		"--message", "--branch", "--orphan", "--contents", "--output",
		"--file", "--template", "--path", "--encoding", "--regexp",
		"--trailer", "--reuse-message", "--reedit-message", "--fixup",
		"--squash", "--source", "--sort", "--conflict", "--strategy",
		"--strategy-option", "--onto", "--reason", NULL });
}

/* Values of these options are files git reads (or, -o, writes). */
static int git_path_option(const char *sub, const char *opt, size_t len,
			   int *write)
{
	static const char *const reads[] = { "--contents", "--file",
		"--template", "--path", "--ignore-revs-file", "--exclude-from",
		"--pathspec-from-file", NULL };
	static const char *const message_file[] = { "commit", "tag", "merge",
		"notes", "stash", NULL };
	char name[64];

	*write = 0;
	if (option_name(name, sizeof(name), opt, len) < 0)
		return 0;
	if ((!strcmp(sub, "format-patch") || !strcmp(sub, "archive")) &&
	    (!strcmp(name, "-o") || !strcmp(name, "--output-directory"))) {
		*write = 1;
		return 1;
	}
	if (!strcmp(name, "-F"))   /* grep -F: fixed strings */
		return sc_str_in_list(sub, message_file);
	if (!strcmp(name, "-t"))
		return !strcmp(sub, "commit");       /* a template */
	if (!strcmp(name, "-f"))
		return !strcmp(sub, "grep");         /* patterns from a file */
	return sc_str_in_list(name, reads);
}

/* A --name=VALUE value that may name a file: judged as one. */
static int looks_like_path(const char *v)
{
	return v[0] == '/' || v[0] == '~' || v[0] == '.' || strchr(v, '/');
}

/*
 * Every path a git subcommand reads or writes, before or after "--": its
 * operands (git diff /etc/passwd x, git diff --no-index ../.. x, git add
 * .env), REV:PATH (git show HEAD:.env), the files of --contents=,
 * --file=, -F, --template and --path=, and any --option=VALUE whose value
 * looks like a path, are reads as for cat; the operands of rm, mv,
 * restore and checkout are writes.  A word that is a revision reads a
 * file of that name at worst, which is judged the same way.
 */
static void judge_git_paths(struct judge *j, struct ctx *c, const char *sub,
			    const struct sc_sw_word *w, size_t n, size_t at,
			    const struct sc_buf *gitcwd, const char *object)
{
	static const char *const writers[] = { "rm", "mv", "restore",
		"checkout", NULL };
	int write = sc_str_in_list(sub, writers), dd = 0, wr;
	int pattern = !strcmp(sub, "grep");   /* its first operand */
	struct ctx gc = *c, top = *c;
	struct sc_buf empty = SC_BUF_INIT;
	size_t k;

	if (!strcmp(sub, "config"))
		return;   /* judge_git_config */
	gc.cwd = *gitcwd;        /* borrowed, never released here */
	top.cwd = empty;
	for (k = at + 1; k < n; k++) {
		const struct sc_sw_word *a = &w[k];
		const char *colon = strchr(a->s, ':');

		if (pol_ends_options(a, &dd)) {
			pattern = 0;   /* only paths follow */
			continue;
		}
		if (!dd && a->s[0] == '-' && a->s[1]) {
			const char *eq = strchr(a->s, '=');
			size_t len = eq ? (size_t)(eq - a->s) : a->len;
			struct sc_sw_word t = *a;

			/* -e PATTERN, -ie PATTERN, -f FILE: no bare pattern */
			if (pattern && ((a->s[1] != '-' && strpbrk(a->s + 1, "ef")) ||
					!strncmp(a->s, "--regexp", 8) ||
					!strncmp(a->s, "--file", 6)))
				pattern = 0;
			if (git_path_option(sub, a->s, len, &wr)) {
				if (eq) {
					t.s = (char *)eq + 1;
					t.len = strlen(t.s);
					pol_judge_arg_path(j, &gc, &t, wr,
							   object);
				} else if (k + 1 < n) {
					pol_judge_arg_path(j, &gc, &w[++k], wr,
							   object);
				}
			} else if (eq && !git_text_option(sub, a->s, len) &&
				   looks_like_path(eq + 1)) {
				t.s = (char *)eq + 1;
				t.len = strlen(t.s);
				pol_judge_arg_path(j, &gc, &t, 0, object);
			} else if (!eq && (git_takes_value(sub, a->s) ||
					   (a->s[1] != '-' && a->len > 2 &&
					    git_takes_value(sub, (const char[]){ '-',
						    a->s[a->len - 1], 0 })))) {
				k++;   /* a message, a pattern (-am MSG too) */
			}
			continue;
		}
		if (pattern) {
			pattern = 0;
			continue;
		}
		if (colon && colon[1] && !dd && colon != a->s) {
			struct sc_sw_word t = *a;

			t.s = (char *)colon + 1;
			t.len = strlen(t.s);
			/* HEAD:./x is relative to the cwd, HEAD:x to the top */
			if (t.s[0] == '.' && (t.s[1] == '/' || !t.s[1]))
				pol_judge_arg_path(j, &gc, &t, 0, object);
			else
				pol_judge_arg_path(j, &top, &t, 0, object);
			continue;
		}
		pol_judge_arg_path(j, &gc, a, write, object);
	}
}

void pol_judge_git(struct judge *j, struct ctx *c,
		   const struct sc_sw_word *w, size_t n, size_t i,
		   const char *object)
{
	static const char *const remote[] = {
		"push", "fetch", "pull", "clone", "remote", "submodule",
		"ls-remote", "send-pack", "fetch-pack", "upload-pack",
		"receive-pack", "upload-archive", "send-email", "request-pull",
		"svn", "p4", "cvsimport", "cvsserver", "cvsexportcommit",
		"daemon", "http-fetch", "http-push", "http-backend",
		"remote-ext", "remote-fd", "remote-http", "remote-https",
		"credential", "credential-store", "credential-cache",
		"instaweb", "bundle", "archimport", "imap-send", "quiltimport",
		"shell", "p4", "lfs", NULL,
	};
	static const char *const destructive[] = { "clean", "filter-branch",
		"filter-repo", "prune-packed", NULL };
	struct sc_buf gitcwd = SC_BUF_INIT, sub = SC_BUF_INIT;
	size_t at, k;

	sc_buf_add(&gitcwd, c->cwd.data ? c->cwd.data : "", c->cwd.len);
	sc_buf_adds(&gitcwd, "");
	at = git_globals(j, c, w, n, i, &gitcwd, object);
	if (embedded_repo(j, gitcwd.data))
		pol_note(j, R_GIT_EMBEDDED, object);
	if (at >= n) {
		pol_note(j, R_GIT_READ, object);
		goto out;
	}
	pol_cmd_name(&w[at], &sub);
	if (sc_str_in_list(sub.data, remote) ||
	    !strncmp(sub.data, "remote-", 7)) {
		pol_note(j, R_GIT_REMOTE, object);
	} else if (sc_str_in_list(sub.data, destructive) ||
		   (!strcmp(sub.data, "reset") &&
		    any_arg(w, n, at + 1, (const char *const[]){ "--hard",
			    "--merge", "--keep", NULL }))) {
		pol_note(j, R_GIT_DESTRUCTIVE, object);
	}
	if (!strcmp(sub.data, "notes") && !git_read_only(sub.data, w, n, at))
		pol_note(j, R_GIT_NOTES, object);
	if (!strcmp(sub.data, "update-ref"))
		for (k = at + 1; k < n; k++)
			if (strstr(w[k].s, "refs/notes"))
				pol_note(j, R_GIT_NOTES, object);
	if (j->p->mode == SC_MODE_IN_PLACE &&
	    git_moves_checkout(sub.data, w, n, at) &&
	    !git_read_only(sub.data, w, n, at))
		pol_note(j, R_IN_PLACE_GIT, object);
	judge_git_outputs(j, c, w, n, at, object);
	judge_git_paths(j, c, sub.data, w, n, at, &gitcwd, object);
	if (!strcmp(sub.data, "config")) {
		judge_git_config(j, w, n, at, object);
	} else if (git_read_only(sub.data, w, n, at)) {
		/* an option this parser does not know: never allowed */
		for (k = at + 1; k < n && strcmp(w[k].s, "--"); k++)
			if (!strncmp(w[k].s, "--", 2) &&
			    !sc_git_option_known(w[k].s, strcspn(w[k].s, "=")))
				pol_note(j, R_NOT_UNDERSTOOD, object);
		pol_note(j, R_GIT_READ, object);
	}
	else
		pol_note(j, R_GIT_STATE, object);
out:
	sc_buf_release(&gitcwd);
	sc_buf_release(&sub);
}
