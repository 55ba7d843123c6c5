/*
 * The rules of sc-classify(1): see policy.h for how findings combine.
 *
 * Layout: the rule table; small string helpers; the path rules; the
 * command rules (launchers, shells, git, file commands); the call
 * dispatch.  Every branch that meets something it does not understand
 * notes at least an ask, and every deny is noted before any shortcut to
 * allow can be taken.
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

#define RULES \
 X(MALFORMED, "deny.malformed-call", SC_DENY, "The call is malformed or holds a value that cannot be judged.") \
 X(SOURCE, "deny.source", SC_DENY, "The call's arguments come from a source that may not change anything.") \
 X(OUTSIDE, "deny.outside-root", SC_DENY, "The path lies outside the worktree.") \
 X(ESCAPE, "deny.symlink-escape", SC_DENY, "A symlink on the path leads outside the worktree.") \
 X(SYMLINK_TARGET, "deny.symlink-target", SC_DENY, "A write may not have a symlink as its target.") \
 X(SPELLING, "deny.other-spelling", SC_DENY, "The path reaches a file under another spelling; name that file itself.") \
 X(HARDLINK, "deny.hard-link", SC_DENY, "The file has hard links outside the worktree.") \
 X(UNRESOLVABLE, "deny.unresolvable-path", SC_DENY, "The path cannot be resolved (a symlink loop or a file used as a directory).") \
 X(GIT_DIR, "deny.git-dir", SC_DENY, "Nothing under .git may be touched.") \
 X(SECRET, "deny.secret-file", SC_DENY, "The file looks like it holds secrets.") \
 X(SPEC, "deny.spec-write", SC_DENY, "The spec is an input of the attempt and may not be written.") \
 X(VERIFY, "deny.verification-config", SC_DENY, "The file decides how the work is built, tested or verified.") \
 X(AGENT_CONFIG, "deny.agent-config", SC_DENY, "The file configures a coding agent.") \
 X(IGNORED, "deny.in-place-ignored", SC_DENY, "In an in-place run, files git ignored at the start are off limits.") \
 X(INCLUDED, "deny.included-file", SC_DENY, "The file is the person's, included in the worktree for the sandboxed checks only.") \
 X(EXPLORE, "deny.explore-write", SC_DENY, "An explore run writes nothing.") \
 X(PRIVILEGE, "deny.privilege", SC_DENY, "Privilege escalation is never allowed.") \
 X(GIT_REMOTE, "deny.git-remote", SC_DENY, "git commands that reach remotes are not allowed.") \
 X(GIT_DESTRUCTIVE, "deny.git-destructive", SC_DENY, "Destructive git commands are not allowed.") \
 X(GIT_NOTES, "deny.git-notes", SC_DENY, "Only speccoder writes git notes.") \
 X(GIT_EXEC, "deny.git-exec-config", SC_DENY, "The git setting or variable makes git run a program.") \
 X(GIT_OPTION, "deny.git-option", SC_DENY, "The git option points git at another repository, program or mode.") \
 X(GIT_EMBEDDED, "deny.git-embedded-repo", SC_DENY, "The command would run git in a repository embedded in the worktree.") \
 X(IN_PLACE_GIT, "deny.in-place-git", SC_DENY, "In an in-place run, git commands that move the checkout are not allowed.") \
 X(SHELL_SYNTAX, "deny.shell-syntax", SC_DENY, "The shell line is malformed.") \
 X(SHELL_UNUSUAL, "deny.shell-unusual", SC_DENY, "The command holds control characters, or a command name holds non-ASCII characters.") \
 X(WRITE_ROOT, "deny.write-root", SC_DENY, "The write would remove or replace the worktree itself.") \
 X(SHELL_DEPTH, "deny.shell-depth", SC_DENY, "The command nests shells too deeply to be judged.") \
 X(AGENT_CONTEXT, "ask.agent-context", SC_ASK, "The file is context every agent reads.") \
 X(MANIFEST, "ask.dependency-manifest", SC_ASK, "The file declares the project's dependencies.") \
 X(FROZEN, "ask.frozen-test", SC_ASK, "The test existed before the attempt.") \
 X(SPEC_MODE, "ask.spec-mode", SC_ASK, "Planning writes only the spec, plan and tasks.") \
 X(SHELL, "ask.shell", SC_ASK, "The command starts a shell or evaluates a string as commands.") \
 X(LAUNCHER, "ask.launcher", SC_ASK, "The command runs other commands with arguments it builds itself.") \
 X(INLINE_CODE, "ask.inline-code", SC_ASK, "The command runs code given on its command line.") \
 X(EXEC_ARG, "ask.exec-arg", SC_ASK, "An argument makes the command run another program.") \
 X(HOST_CHANGE, "ask.host-change", SC_ASK, "The command changes the host: its clock, name, network, mounts or kernel.") \
 X(NETWORK_TOOL, "ask.network-tool", SC_ASK, "The command is a network tool.") \
 X(RECURSIVE_RM, "ask.recursive-rm", SC_ASK, "The command deletes recursively.") \
 X(RECURSIVE_COPY, "ask.recursive-copy", SC_ASK, "The command copies or moves a whole directory, whose names cannot be judged one by one.") \
 X(GIT_STATE, "ask.git-state", SC_ASK, "The git command changes the repository's state.") \
 X(GIT_CONFIG, "ask.git-config", SC_ASK, "The command sets a git configuration value.") \
 X(ENV_PREFIX, "ask.env-prefix", SC_ASK, "An assignment changes what programs run or how.") \
 X(OPAQUE, "ask.shell-opaque", SC_ASK, "The shell line holds something whose value is only known when it runs.") \
 X(NOT_UNDERSTOOD, "ask.not-understood", SC_ASK, "The command's arguments were not fully understood.") \
 X(UNLISTED, "ask.unlisted", SC_ASK, "The command is not on any allow list.") \
 X(MCP, "ask.mcp", SC_ASK, "The MCP tool is not allowed by the configuration.") \
 X(MCP_DIGEST, "ask.mcp-digest", SC_ASK, "The MCP tool's definition differs from the one allowed.") \
 X(NETWORK, "ask.network", SC_ASK, "The call makes a network request.") \
 X(READ, "allow.read", SC_ALLOW, "Reading the project is allowed.") \
 X(WRITE, "allow.write", SC_ALLOW, "Writing an ordinary project file is allowed.") \
 X(SPEC_ARTIFACT, "allow.spec-artifact", SC_ALLOW, "Planning may write the spec, plan and tasks.") \
 X(READ_COMMAND, "allow.read-command", SC_ALLOW, "The command only reads the project.") \
 X(FILE_COMMAND, "allow.file-command", SC_ALLOW, "The command changes only ordinary project files.") \
 X(BUILTIN, "allow.builtin", SC_ALLOW, "The shell builtin changes nothing outside the shell.") \
 X(GIT_READ, "allow.git-read", SC_ALLOW, "The git command only reads the repository.") \
 X(CHECK, "allow.check", SC_ALLOW, "The command is one of the configured checks.") \
 X(COMMAND, "allow.command", SC_ALLOW, "The command is on the configured allow list.") \
 X(NET_COMMAND, "allow.network-command", SC_ALLOW, "The command is on the configured network allow list.") \
 X(NET_HOSTS, "allow.network-hosts", SC_ALLOW, "The command reaches only the hosts configured for it.") \
 X(MCP_ALLOW, "allow.mcp", SC_ALLOW, "The MCP tool is allowed by the configuration.") \
 X(GRANT, "allow.grant", SC_ALLOW, "A person granted exactly this.")

enum rule_id {
#define X(e, id, d, r) R_##e,
	RULES
#undef X
	R_COUNT
};

struct rule {
	const char *id;
	int decision;
	const char *reason;
};

static const struct rule rules[] = {
#define X(e, id, d, r) { id, d, r },
	RULES
#undef X
};

const char *const sc_policy_rules[] = {
#define X(e, id, d, r) id,
	RULES
#undef X
	NULL
};

/* The deepest nesting of shells inside shells a line may use. */
#define MAX_DEPTH 8

/* ---- sets ---------------------------------------------------------- */

void sc_strset_add(struct sc_strset *s, const char *item, size_t len)
{
	SC_ALLOC_GROW(s->items, s->nr + 1, s->alloc);
	s->items[s->nr++] = sc_xmemdup(item, len);
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sc_strset_sort(struct sc_strset *s)
{
	if (s->nr)
		qsort(s->items, s->nr, sizeof(*s->items), cmpstr);
}

int sc_strset_has(const struct sc_strset *s, const char *item)
{
	return s->nr && bsearch(&item, s->items, s->nr, sizeof(*s->items),
				cmpstr) != NULL;
}

void sc_strset_release(struct sc_strset *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->items[i]);
	free(s->items);
	memset(s, 0, sizeof(*s));
}

/* ---- judging state ------------------------------------------------- */

struct judge {
	const struct sc_policy *p;
	const struct sc_net_rule *net;   /* set with R_NET_HOSTS */
	int have;
	int decision;
	enum rule_id rule;
	struct sc_buf object;
	struct sc_verdict *v;   /* collects the parts that ask */
};

struct ctx {
	struct sc_buf cwd;     /* root-relative working directory */
	int cwd_unknown;       /* cd to somewhere the lexer cannot see */
	int depth;
	const struct sc_sw_cmd *feed;   /* the command piping into this one */
};

/*
 * Among allows, the rule that names the whole command is the one to show:
 * a path read inside "cat FILE" is allowed because the command is.
 */
static int allow_rank(enum rule_id r)
{
	switch (r) {
	case R_BUILTIN: return 1;
	case R_READ_COMMAND: case R_GIT_READ: return 2;
	case R_FILE_COMMAND: return 3;
	case R_CHECK: case R_COMMAND: case R_NET_COMMAND: case R_MCP_ALLOW:
	case R_NET_HOSTS:
		return 4;
	case R_GRANT: return 5;
	default: return 0;
	}
}

/* Remember a part that asks, once per rule and object. */
static void add_part(struct sc_verdict *v, const char *rule,
		     const char *object)
{
	size_t k;

	for (k = 0; k < v->nr_parts; k++)
		if (v->parts[k].rule == rule && !strcmp(v->parts[k].object, object))
			return;
	SC_ALLOC_GROW(v->parts, v->nr_parts + 1, v->alloc_parts);
	v->parts[v->nr_parts].rule = rule;
	v->parts[v->nr_parts++].object = sc_xstrdup(object);
}

static void clear_parts(struct sc_verdict *v)
{
	size_t k;

	for (k = 0; k < v->nr_parts; k++)
		free(v->parts[k].object);
	v->nr_parts = 0;
}

/* Add the hosts a grant of OBJECT names to V's, each once. */
static void grant_hosts(const struct sc_policy *p, struct sc_verdict *v,
			const char *object)
{
	size_t i, k, m;

	for (i = 0; i < p->nr_host_grants; i++) {
		const struct sc_host_grant *g = &p->host_grants[i];

		if (strcmp(g->object, object))
			continue;
		for (k = 0; k < g->nr; k++) {
			for (m = 0; m < v->nr_hosts; m++)
				if (!strcmp(v->hosts[m], g->hosts[k]))
					break;
			if (m < v->nr_hosts)
				continue;
			SC_ALLOC_GROW(v->hosts, v->nr_hosts + 1, v->alloc_hosts);
			v->hosts[v->nr_hosts++] = g->hosts[k];
		}
	}
}

/*
 * Record one finding.  A grant lifts an ask whose object it names (and
 * brings the hosts it names); the strictest finding wins, the first among
 * equals.
 */
static void note(struct judge *j, enum rule_id r, const char *object)
{
	int d = rules[r].decision;

	if (d == SC_ASK && sc_strset_has(&j->p->grants, object)) {
		r = R_GRANT;
		d = SC_ALLOW;
		grant_hosts(j->p, j->v, object);
	}
	if (d == SC_ASK)
		add_part(j->v, rules[r].id, object);
	if (j->have && (d < j->decision ||
			(d == j->decision &&
			 (d != SC_ALLOW || allow_rank(r) <= allow_rank(j->rule)))))
		return;
	j->have = 1;
	j->decision = d;
	j->rule = r;
	sc_buf_reset(&j->object);
	sc_buf_adds(&j->object, object);
}

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

static int prefix_in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strncmp(s, *list, strlen(*list)))
			return 1;
	return 0;
}

/* ---- the path rules ------------------------------------------------ */

static int is_secret(const char *f)
{
	return sc_protected_is(SC_PROT_SECRET, f);
}

int sc_policy_secret_name(const char *rel)
{
	struct sc_buf f = SC_BUF_INIT;
	int ret;

	sc_path_fold_rel(rel, &f);
	ret = is_secret(f.data);
	sc_buf_release(&f);
	return ret;
}

static int is_spec(const char *f)
{
	return sc_protected_is(SC_PROT_SPEC, f);
}

static int is_spec_artifact(const char *f)
{
	return sc_protected_spec_artifact(f, NULL);
}

/*
 * A planning artifact of the feature being planned, when the policy was
 * told one (--feature): planning one feature never rewrites another's.
 */
static int is_own_artifact(const struct sc_policy *p, const char *f)
{
	return sc_protected_spec_artifact(f, p->feature);
}

static int is_verification(const char *f)
{
	return sc_protected_is(SC_PROT_VERIFICATION, f);
}

static int is_agent_config(const char *f)
{
	return sc_protected_is(SC_PROT_AGENT_CONFIG, f);
}

static int is_agent_context(const char *f)
{
	return sc_protected_is(SC_PROT_AGENT_CONTEXT, f);
}

static int is_manifest(const char *f)
{
	return sc_protected_is(SC_PROT_MANIFEST, f);
}

/* F or one of its ancestors is in SET. */
static int path_in_set(const struct sc_strset *set, const char *f)
{
	struct sc_buf b = SC_BUF_INIT;
	int found = 0;
	char *slash;

	if (!set->nr)
		return 0;
	sc_buf_adds(&b, f);
	while (!found) {
		found = sc_strset_has(set, b.data);
		slash = strrchr(b.data, '/');
		if (!slash)
			break;
		sc_buf_setlen(&b, (size_t)(slash - b.data));
	}
	sc_buf_release(&b);
	return found;
}

/* The deny rules a path name meets, read or write; R_COUNT for none. */
static enum rule_id protected_rule(const struct judge *j, const char *f,
				   int write)
{
	if (sc_protected_is(SC_PROT_GIT, f))
		return R_GIT_DIR;
	/* Before the secret names: an included .env.test is named by
	 * its own rule, whatever its name looks like. */
	if (path_in_set(&j->p->included, f))
		return R_INCLUDED;
	if (is_secret(f))
		return R_SECRET;
	if (j->p->mode == SC_MODE_IN_PLACE &&
	    path_in_set(&j->p->ignored, f) &&
	    (write || !(is_spec(f) || is_spec_artifact(f))))
		return R_IGNORED;
	if (!write)
		return R_COUNT;
	if (is_spec(f) && !(j->p->mode == SC_MODE_SPEC && is_own_artifact(j->p, f)))
		return R_SPEC;
	if (is_verification(f)) {
		/* .github/copilot-instructions.md and the like are agent
		 * configuration, but both rules deny: the first wins */
		return R_VERIFY;
	}
	if (is_agent_config(f))
		return R_AGENT_CONFIG;
	return R_COUNT;
}

static enum rule_id ask_rule(const struct judge *j, const char *f)
{
	if (is_agent_context(f))
		return R_AGENT_CONTEXT;
	if (is_manifest(f))
		return R_MANIFEST;
	if (sc_strset_has(&j->p->frozen, f))
		return R_FROZEN;
	if (j->p->mode == SC_MODE_SPEC && !is_own_artifact(j->p, f))
		return R_SPEC_MODE;
	return R_COUNT;
}

static enum rule_id status_rule(int status)
{
	switch (status) {
	case SC_PATH_INVALID: return R_MALFORMED;
	case SC_PATH_OUTSIDE: return R_OUTSIDE;
	case SC_PATH_ESCAPE: return R_ESCAPE;
	case SC_PATH_TARGET_SYMLINK: return R_SYMLINK_TARGET;
	case SC_PATH_SPELLING: return R_SPELLING;
	case SC_PATH_HARDLINK: return R_HARDLINK;
	default: return R_UNRESOLVABLE;
	}
}

static const char *show_rel(const char *rel)
{
	return *rel ? rel : ".";
}

/*
 * Judge a read or a write of PATH from CWD.  Every name the file has (as
 * spelled, canonical, hard links) meets the protected-name rules.
 */
static void judge_path(struct judge *j, const char *cwd, const char *path,
		       size_t len, int write)
{
	struct sc_path res;
	struct sc_buf f = SC_BUF_INIT;
	enum rule_id r, ask = R_COUNT;
	const char *names[3];
	size_t i, k;
	int st;

	sc_path_init(&res);
	st = sc_path_resolve(&j->p->root, cwd, path, len,
			     write ? SC_PATH_WRITE : 0, &res);
	if (st != SC_PATH_OK && st != SC_PATH_HARDLINK) {
		struct sc_buf spelled = SC_BUF_INIT;

		/* outside the root there is no root-relative name: show the
		 * path as written */
		if (res.lexical && *res.lexical)
			sc_buf_adds(&spelled, res.lexical);
		else
			sc_buf_add(&spelled, path, strnlen(path, len));
		note(j, status_rule(st), spelled.len ? spelled.data : ".");
		sc_buf_release(&spelled);
		/* the spelling may still name a protected file: say which */
	}
	names[0] = res.rel;
	names[1] = res.lexical;
	names[2] = NULL;
	for (i = 0; i < 2 + res.nr_aliases; i++) {
		const char *name = i < 2 ? names[i] : res.aliases[i - 2];

		if (!name)
			continue;
		sc_path_fold_rel(name, &f);
		r = protected_rule(j, f.data, write);
		if (r != R_COUNT)
			note(j, r, show_rel(res.rel));
		if (write && ask == R_COUNT)
			ask = ask_rule(j, f.data);
	}
	if (st == SC_PATH_HARDLINK)
		note(j, R_HARDLINK, show_rel(res.rel));
	if (write && j->p->mode == SC_MODE_EXPLORE)
		note(j, R_EXPLORE, show_rel(res.rel));
	if (write && !*res.rel)
		note(j, R_WRITE_ROOT, ".");
	if (ask != R_COUNT)
		note(j, ask, show_rel(res.rel));
	k = write ? (j->p->mode == SC_MODE_SPEC ? R_SPEC_ARTIFACT : R_WRITE)
		  : R_READ;
	note(j, (enum rule_id)k, show_rel(res.rel));
	sc_buf_release(&f);
	sc_path_release(&res);
}

/* ---- commands ------------------------------------------------------ */

struct words {
	const struct sc_sw_word *w;
	size_t n;
};

static void quote_words(struct sc_buf *out, const struct sc_sw_word *w,
			size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			sc_buf_addch(out, ' ');
		sc_sw_quote(out, w[i].s, w[i].len);
	}
}

/*
 * PATH lookups, remembered for the life of the process: a stream of calls
 * names the same few programs again and again, and each lookup costs a
 * stat per PATH entry.  Bounded: past the limit lookups are not kept.
 */
#define EXE_CACHE_MAX 512

struct sc_exe_cache {
	char *name[EXE_CACHE_MAX];
	char *path[EXE_CACHE_MAX];
	size_t nr;
};

static const char *exe_cached(const struct sc_policy *p, const char *name)
{
	size_t i;

	for (i = 0; p->exes && i < p->exes->nr; i++)
		if (!strcmp(p->exes->name[i], name))
			return p->exes->path[i];
	return NULL;
}

static void exe_remember(const struct sc_policy *p, const char *name,
			 const char *path)
{
	struct sc_exe_cache *c = p->exes;

	if (!c || c->nr >= EXE_CACHE_MAX)
		return;
	c->name[c->nr] = sc_xstrdup(name);
	c->path[c->nr++] = sc_xstrdup(path);
}

/* Where NAME would be found: a path, or '' when nowhere. */
static void resolve_exe(const struct judge *j, const struct ctx *c,
			const char *name, struct sc_buf *out)
{
	struct sc_buf norm = SC_BUF_INIT, cand = SC_BUF_INIT;
	const char *dirs = j->p->path_env ? j->p->path_env : "";
	const char *cached;

	if (strchr(name, '/')) {
		if (name[0] != '/') {
			sc_buf_adds(&cand, j->p->root.path);
			sc_buf_addch(&cand, '/');
			sc_buf_add(&cand, c->cwd.data ? c->cwd.data : "",
				   c->cwd.len);
			sc_buf_addch(&cand, '/');
		}
		sc_buf_adds(&cand, name);
		if (sc_path_normalize(cand.data, cand.len, &norm) == 0) {
			sc_buf_addch(out, '/');
			sc_buf_add(out, norm.data, norm.len);
		}
	} else if ((cached = exe_cached(j->p, name))) {
		sc_buf_adds(out, cached);
	} else {
		size_t start = out->len;

		while (*dirs) {
			size_t n = strcspn(dirs, ":");
			struct stat st;

			sc_buf_reset(&cand);
			sc_buf_add(&cand, n ? dirs : ".", n ? n : 1);
			sc_buf_addch(&cand, '/');
			sc_buf_adds(&cand, name);
			if (cand.data[0] == '/' && stat(cand.data, &st) == 0 &&
			    S_ISREG(st.st_mode) && !access(cand.data, X_OK)) {
				sc_buf_add(out, cand.data, cand.len);
				break;
			}
			dirs += n + (dirs[n] == ':');
		}
		sc_buf_adds(out, "");
		exe_remember(j->p, name, out->data + start);
	}
	sc_buf_release(&norm);
	sc_buf_release(&cand);
}

/* The object of a command: working directory, executable, argv. */
static void cmd_object(const struct judge *j, const struct ctx *c,
		       const struct sc_sw_word *w, size_t n, size_t prog,
		       struct sc_buf *out)
{
	struct sc_buf exe = SC_BUF_INIT;

	sc_buf_reset(out);
	sc_buf_adds(out, "cwd=");
	sc_sw_quote(out, c->cwd.len ? c->cwd.data : ".",
		    c->cwd.len ? c->cwd.len : 1);
	if (prog < n)
		resolve_exe(j, c, w[prog].s, &exe);
	sc_buf_adds(out, " exe=");
	sc_sw_quote(out, exe.data ? exe.data : "", exe.len);
	sc_buf_adds(out, " argv=");
	quote_words(out, w, n);
	sc_buf_release(&exe);
}

/* The object of a shell line that cannot be seen through. */
static void line_object(const struct ctx *c, const char *line, size_t len,
			struct sc_buf *out)
{
	sc_buf_reset(out);
	sc_buf_adds(out, "cwd=");
	sc_sw_quote(out, c->cwd.len ? c->cwd.data : ".",
		    c->cwd.len ? c->cwd.len : 1);
	sc_buf_adds(out, " shell=");
	sc_sw_quote(out, line, len);
}

/* The name a command word runs: last path component, folded. */
static void cmd_name(const struct sc_sw_word *w, struct sc_buf *out)
{
	const char *s = w->s, *slash = strrchr(s, '/');

	sc_buf_reset(out);
	sc_buf_adds(out, "");
	if (slash)
		s = slash + 1;
	sc_path_fold(s, strlen(s), out);
}

/* A program named by path runs a file the lists cannot vouch for. */
static int system_program(const struct sc_sw_word *w)
{
	static const char *const dirs[] = { "/usr/bin/", "/bin/",
		"/usr/local/bin/", "/usr/sbin/", "/sbin/", NULL };
	struct sc_buf norm = SC_BUF_INIT;
	int ok = 0;
	size_t i;

	if (!strchr(w->s, '/'))
		return 1;
	if (w->s[0] == '/' && sc_path_normalize(w->s, w->len, &norm) == 0) {
		for (i = 0; dirs[i]; i++) {
			size_t n = strlen(dirs[i]) - 2;

			/* norm is "usr/bin/NAME": the directory, one name */
			if (norm.len > n + 1 && norm.data[n] == '/' &&
			    !strncmp(norm.data, dirs[i] + 1, n) &&
			    !strchr(norm.data + n + 1, '/'))
				ok = 1;
		}
	}
	sc_buf_release(&norm);
	return ok;
}

static int is_privilege(const char *name)
{
	static const char *const names[] = { "sudo", "su", "doas", "pkexec",
		"run0", "runuser", "sudoedit", "setpriv", "ksu", "calife",
		"sg", "newgrp", "chroot", "nsenter", "unshare", "capsh",
		"machinectl", "systemd-run", "gosu", "su-exec", NULL };

	return in_list(name, names);
}

static void judge_line(struct judge *j, const char *line, size_t len,
		       struct ctx *c);
static void judge_argv(struct judge *j, const struct sc_sw_word *w,
		       size_t n, struct ctx *c, const char *heredoc);

/* Judge a string that a shell, eval or trap will run. */
static void judge_nested(struct judge *j, const char *s, size_t len,
			 struct ctx *c)
{
	struct ctx inner;

	memset(&inner, 0, sizeof(inner));
	sc_buf_add(&inner.cwd, c->cwd.data ? c->cwd.data : "", c->cwd.len);
	inner.cwd_unknown = c->cwd_unknown;
	inner.depth = c->depth + 1;
	judge_line(j, s, len, &inner);
	sc_buf_release(&inner.cwd);
}

/* Variables that change which program runs or what it loads. */
static enum rule_id env_rule(const char *assign)
{
	static const char *const exec_git[] = {
		"GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_PAGER",
		"GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_ASKPASS",
		"GIT_EXEC_PATH", "GIT_PROXY_COMMAND", "GIT_CONFIG_PARAMETERS",
		"GIT_CONFIG_COUNT", "GIT_CONFIG", "GIT_CONFIG_GLOBAL",
		"GIT_CONFIG_SYSTEM", "GIT_DIR", "GIT_WORK_TREE",
		"GIT_TEMPLATE_DIR", "GIT_COMMON_DIR", "GIT_INDEX_FILE",
		"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
		"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
		"GIT_NAMESPACE", NULL,
	};
	static const char *const exec_git_prefix[] = { "GIT_CONFIG_KEY_",
		"GIT_CONFIG_VALUE_", NULL };
	static const char *const names[] = {
		"PATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4",
		"PROMPT_COMMAND", "IFS", "CDPATH", "GLOBIGNORE", "PAGER",
		"MANPAGER", "EDITOR", "VISUAL", "BROWSER", "NODE_OPTIONS",
		"NODE_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME",
		"PYTHONINSPECT", "PERL5LIB", "PERL5OPT", "PERLLIB", "RUBYOPT",
		"RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
		"JDK_JAVA_OPTIONS", "CLASSPATH", "LESSOPEN", "LESSCLOSE",
		"SSH_ASKPASS", "SUDO_ASKPASS", "HOME", "XDG_CONFIG_HOME",
		"RUSTC_WRAPPER", "RUSTC", "RUSTDOC", "CARGO", "CC", "CXX",
		"CPP", "LD", "AR", "MAKE", "MAKEFLAGS", "MFLAGS", "SHELL",
		"TMPDIR", "PROFILE", "ZDOTDIR", "INPUTRC", "TERMINFO",
		"GCONV_PATH", "MALLOC_CHECK_", "HOSTALIASES", "RESOLV_HOST_CONF",
		"LOCPATH", "NLSPATH", "http_proxy", "https_proxy", "HTTP_PROXY",
		"HTTPS_PROXY", "ALL_PROXY", "all_proxy", NULL,
	};
	static const char *const prefixes[] = { "LD_", "DYLD_", "GIT_",
		"npm_config_", "NPM_CONFIG_", "PIP_", "CARGO_", "RUSTFLAGS",
		"BASH_FUNC_", "PYTHON", "PERL", "RUBY", "NODE_", "GEM_",
		"BUNDLE_", "GOFLAGS", "GOPATH", "GOPROXY", "UV_", "POETRY_",
		"YARN_", NULL };
	char name[128];
	size_t n = strcspn(assign, "+=");

	if (n >= sizeof(name))
		return R_ENV_PREFIX;
	memcpy(name, assign, n);
	name[n] = '\0';
	if (in_list(name, exec_git) || prefix_in(name, exec_git_prefix))
		return R_GIT_EXEC;
	if (in_list(name, names) || prefix_in(name, prefixes))
		return R_ENV_PREFIX;
	return R_COUNT;
}

static void judge_assign(struct judge *j, const struct ctx *c,
			 const char *assign)
{
	enum rule_id r = env_rule(assign);
	struct sc_buf o = SC_BUF_INIT;

	if (r == R_COUNT)
		return;
	sc_buf_adds(&o, "cwd=");
	sc_sw_quote(&o, c->cwd.len ? c->cwd.data : ".",
		    c->cwd.len ? c->cwd.len : 1);
	sc_buf_adds(&o, " env=");
	sc_sw_quote(&o, assign, strlen(assign));
	note(j, r, o.data);
	sc_buf_release(&o);
}

/* A path argument: judged when its value is known, else opaque. */
static int is_device(const char *s);

static void judge_arg_path(struct judge *j, struct ctx *c,
			   const struct sc_sw_word *w, int write,
			   const char *object)
{
	size_t len = strnlen(w->s, w->len);   /* what the program sees */

	if (!len)
		return;   /* no file has an empty name */
	if (!(w->flags & SC_SW_UNRESOLVED) && is_device(w->s))
		return;
	if (w->flags & SC_SW_TILDE) {
		note(j, R_OUTSIDE, w->s);
		return;
	}
	if (w->flags & SC_SW_UNRESOLVED) {
		note(j, R_OPAQUE, object);
		return;
	}
	if (c->cwd_unknown && w->s[0] != '/')
		note(j, R_OPAQUE, object);
	judge_path(j, c->cwd.data ? c->cwd.data : "", w->s, len, write);
}

static int is_option(const struct sc_sw_word *w, int after_dashdash)
{
	return !after_dashdash && w->len > 1 && w->s[0] == '-';
}

/*
 * Skip a launcher's options and fixed operands: the index of the command
 * it runs.  OPTARGS lists the short options taking an argument; LONGARGS
 * the long ones (written "--name"); OPERANDS the words before the command.
 */
static size_t skip_launcher(const struct sc_sw_word *w, size_t n, size_t i,
			    const char *optargs, const char *const *longargs,
			    size_t operands)
{
	for (i++; i < n; i++) {
		const char *s = w[i].s;

		if (!strcmp(s, "--")) {
			i++;
			break;
		}
		if (s[0] != '-' || !s[1])
			break;
		if (s[1] == '-') {
			if (!strchr(s, '=') && longargs && in_list(s, longargs))
				i++;
			continue;
		}
		if (s[1] >= '0' && s[1] <= '9')
			continue;   /* nice -10 */
		for (s++; *s; s++)
			if (strchr(optargs, *s)) {
				if (!s[1])
					i++;
				break;
			}
	}
	while (operands-- && i < n)
		i++;
	return i;
}

/* env [OPTION]... [NAME=VALUE]... [COMMAND [ARG]...] */
static size_t skip_env(struct judge *j, const struct sc_sw_word *w,
		       size_t n, size_t i, struct ctx *c, int *nested)
{
	for (i++; i < n; i++) {
		const char *s = w[i].s;

		if (!strcmp(s, "-S") || !strncmp(s, "--split-string", 14) ||
		    (s[0] == '-' && s[1] != '-' && strchr(s, 'S'))) {
			/* env -S splits a string into a command: judge it */
			const char *str = strchr(s, '=') ? strchr(s, '=') + 1
				: (s[1] == 'S' && s[2]) ? s + 2
				: (i + 1 < n ? w[++i].s : "");

			judge_nested(j, str, strlen(str), c);
			*nested = 1;
			return n;
		}
		if (!strcmp(s, "-u") || !strcmp(s, "-C") ||
		    !strcmp(s, "--unset") || !strcmp(s, "--chdir")) {
			if (s[1] == 'C' || !strcmp(s, "--chdir"))
				c->cwd_unknown = 1;
			i++;
			continue;
		}
		if (!strncmp(s, "--chdir=", 8) || !strncmp(s, "-C", 2))
			c->cwd_unknown = 1;
		if (s[0] == '-')
			continue;
		if (strchr(s, '=') && sc_sw_is_name(s, strcspn(s, "="))) {
			judge_assign(j, c, s);
			continue;
		}
		break;
	}
	return i;
}

static int word_has_flag(const struct sc_sw_word *w, size_t n, unsigned f)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (w[i].flags & f)
			return 1;
	return 0;
}

/* ---- configured allow lists ---------------------------------------- */

static int argv_equal(const struct sc_sw_word *w, size_t n,
		      const struct sc_argv *a)
{
	size_t i;

	if (n != a->n)
		return 0;
	for (i = 0; i < n; i++)
		if (strlen(a->v[i]) != w[i].len || strcmp(a->v[i], w[i].s))
			return 0;
	return 1;
}

/*
 * An option that makes a program load a file or run code of its own
 * choosing (make -f, --eval, -C DIR, -I DIR, perl -e, --rcfile, --config,
 * npm --prefix, pytest -p): a prefix entry never covers one, in any
 * spelling (-fFILE, --file=FILE), before or after "--".
 */
static int is_interpreter(const char *name);
static int is_shell(const char *name);

static int loads_code(const char *s, int interp)
{
	static const char *const longs[] = { "--file", "--makefile",
		"--eval", "--directory", "--include-dir", "--rcfile",
		"--init-file", "--config", "--prefix", "--require", "--import",
		"--loader", "--load", "--plugin", "--plugins", "--rootdir",
		"--confcutdir", "--exec", "--cwd", "--manifest-path",
		"--config-file", "--settings", NULL };
	size_t k;

	if (s[0] != '-' || !s[1])
		return 0;
	if (s[1] != '-')
		return strchr("fCIpc", s[1]) != NULL ||
		       (interp && strchr("ecrmEx", s[1]));
	for (k = 0; longs[k]; k++) {
		size_t len = strlen(longs[k]);

		if (!strncmp(s, longs[k], len) && (!s[len] || s[len] == '='))
			return 1;
	}
	return 0;
}

static int argv_prefix(const struct sc_sw_word *w, size_t n,
		       const struct sc_argv *a, size_t len)
{
	struct sc_buf prog = SC_BUF_INIT;
	size_t i;
	int interp;

	if (len < 2 || n < len)
		return 0;   /* a bare program is never a prefix */
	for (i = 0; i < len; i++)
		if (strlen(a->v[i]) != w[i].len || strcmp(a->v[i], w[i].s))
			return 0;
	cmd_name(&w[0], &prog);
	interp = is_interpreter(prog.data) || is_shell(prog.data);
	sc_buf_release(&prog);
	for (; i < n; i++)
		if (loads_code(w[i].s, interp))
			return 0;   /* judged on its own, as unlisted */
	return 1;
}

/*
 * 1 when W is an entry of LIST: word for word, or, with PREFIX, the entry
 * followed by anything but an option that loads code.
 */
static int in_argv_list(const struct sc_sw_word *w, size_t n,
			const struct sc_argv_list *list, int prefix)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		if (prefix ? argv_prefix(w, n, &list->items[i], list->items[i].n)
			   : argv_equal(w, n, &list->items[i]))
			return 1;
	return 0;
}

/* The rule of a configured list that allows W, or R_COUNT. */
static enum rule_id configured(const struct judge *j,
			       const struct sc_sw_word *w, size_t n)
{
	const struct sc_config *cfg = &j->p->cfg;
	size_t i;

	if (!n || word_has_flag(w, n, SC_SW_UNRESOLVED | SC_SW_CTRL))
		return R_COUNT;
	/* a check is exactly the argv the configuration names: make test
	 * -f FILE, make test CC=./x or make test -C DIR runs something else */
	for (i = 0; i < cfg->checks.nr; i++)
		if (argv_equal(w, n, &cfg->checks.items[i]))
			return R_CHECK;
	if (in_argv_list(w, n, &cfg->allow, 0) ||
	    in_argv_list(w, n, &cfg->allow_prefix, 1))
		return R_COMMAND;
	if (in_argv_list(w, n, &cfg->net_allow, 0) ||
	    in_argv_list(w, n, &cfg->net_allow_prefix, 1))
		return R_NET_COMMAND;
	return R_COUNT;
}

/*
 * The [network "NAME"] section that gives W (N words) its hosts: its argv
 * word for word, else its argvPrefix as commands.allowPrefix matches (no
 * option that loads code follows), the first section in the file among
 * equals; a section without hosts gives nothing.  The hosts are appended
 * to OBJECT: a grant or a driver sees what the command may reach.  NULL
 * when none.
 */
static const struct sc_net_rule *net_hosts(const struct judge *j,
					   const struct sc_sw_word *w, size_t n,
					   struct sc_buf *object)
{
	const struct sc_config *cfg = &j->p->cfg;
	const struct sc_net_rule *r = NULL;
	size_t i, k;
	int prefix;

	if (!n || word_has_flag(w, n, SC_SW_UNRESOLVED | SC_SW_CTRL))
		return NULL;
	for (prefix = 0; prefix < 2 && !r; prefix++)
		for (i = 0; i < cfg->nr_net_rules && !r; i++)
			if (cfg->net_rules[i].nr_hosts &&
			    in_argv_list(w, n, prefix ? &cfg->net_rules[i].argv_prefix
						      : &cfg->net_rules[i].argv, prefix))
				r = &cfg->net_rules[i];
	for (k = 0; r && k < r->nr_hosts; k++) {
		sc_buf_adds(object, k ? " " : " hosts=");
		sc_sw_quote(object, r->hosts[k], strlen(r->hosts[k]));
	}
	return r;
}

/* ---- arguments that run programs ----------------------------------- */

/*
 * Options that make a program run another program, in one table (listed
 * in sc-classify(1) under "Arguments that run programs").  A prefix match:
 * "--pre" covers --pre=X and --pre X; "-I" covers -Ixz.  find -exec, sed
 * e, awk system(), git -c and env -S are judged by their own parsers.
 */
static const struct exec_opt {
	const char *prog, *opt;
} exec_opts[] = {
	{ "rg", "--pre" }, { "rg", "--hostname-bin" },
	{ "sort", "--compress-program" },
	{ "tar", "--to-command" }, { "tar", "--use-compress-program" },
	{ "tar", "-I" }, { "tar", "--checkpoint-action" },
	{ "tar", "--info-script" }, { "tar", "--new-volume-script" },
	{ "tar", "-F" }, { "tar", "--rsh-command" }, { "tar", "--rmt-command" },
	{ "man", "-P" }, { "man", "--pager" }, { "man", "-H" },
	{ "man", "--html" },
	{ "rsync", "-e" }, { "rsync", "--rsh" }, { "rsync", "--rsync-path" },
	{ "zip", "-TT" }, { "zip", "--unzip-command" },
	{ "split", "--filter" }, { "sdiff", "--diff-program" },
	{ "diff3", "--diff-program" }, { "flock", "-c" },
	{ "flock", "--command" }, { "less", "--lesskey-src" },
	{ "git", "-O" }, { "git", "--open-files-in-pager" },
	{ "git", "--ext-diff" }, { "git", "--exec" }, { "git", "--upload-pack" },
	{ "git", "--receive-pack" }, { "git", "--extcmd" }, { "git", "--tool" },
	{ "git", "--textconv" }, { "git", "--filters" },
};

/* 1 when word S of program PROG makes it run another program. */
static int exec_option(const char *prog, const char *s)
{
	size_t k, len;

	for (k = 0; k < sizeof(exec_opts) / sizeof(*exec_opts); k++) {
		if (strcmp(prog, exec_opts[k].prog))
			continue;
		len = strlen(exec_opts[k].opt);
		if (strncmp(s, exec_opts[k].opt, len))
			continue;
		/* --pre-glob is another option; -Ixz is -I with a value */
		if (!s[len] || s[len] == '=' || exec_opts[k].opt[1] != '-')
			return 1;
	}
	return 0;
}

/* Note every option of W[I+1..N) that runs a program. */
static void judge_exec_options(struct judge *j, const char *prog,
			       const struct sc_sw_word *w, size_t n, size_t i,
			       const char *object)
{
	size_t k;

	for (k = i + 1; k < n && strcmp(w[k].s, "--"); k++)
		if (exec_option(prog, w[k].s))
			note(j, R_EXEC_ARG, object);
}

/*
 * Programs that change the host for every process on it (the clock, the
 * name, the network, mounts, swap, kernel modules), asked even when the
 * sandbox would stop them: a person should know an agent tried.
 */
static int host_change(const char *name, const struct sc_sw_word *w,
		       size_t n, size_t i)
{
	static const char *const always[] = { "hwclock", "mount", "umount",
		"swapon", "swapoff", "modprobe", "insmod", "rmmod", "reboot",
		"shutdown", "poweroff", "halt", "kexec", "iptables",
		"ip6tables", "nft", "ufw", "losetup", "mkswap", "wipefs",
		"rtcwake", "ntpdate", "setcap", "sysctl", "timedatectl",
		"hostnamectl", "ifconfig", "route", "systemctl", "service",
		"ip", NULL };
	static const char *const ip_changes[] = { "add", "del", "delete",
		"set", "change", "replace", "flush", "append", "prepend",
		"restore", "exec", "attach", "detach", "up", "down", NULL };
	static const char *const date_values[] = { "-d", "--date", "-f",
		"--file", "-r", "--reference", NULL };
	size_t k;

	if (!strcmp(name, "date")) {
		for (k = i + 1; k < n; k++) {
			const char *s = w[k].s;

			if (in_list(s, date_values)) {
				k++;
			} else if (!strncmp(s, "--set", 5)) {
				return 1;
			} else if (s[0] == '-' && s[1] != '-') {
				/* -us sets; -Iseconds, -dSTR carry a value */
				size_t at = strcspn(s + 1, "sIdfr") + 1;

				if (s[at] == 's')
					return 1;
			} else if (s[0] != '-' && s[0] != '+') {
				return 1;   /* date MMDDhhmm sets the clock */
			}
		}
		return 0;
	}
	if (!strcmp(name, "hostname")) {
		for (k = i + 1; k < n; k++)
			if (w[k].s[0] != '-' || in_list(w[k].s,
			    (const char *const[]){ "-F", "--file", "-b",
				    "--boot", NULL }))
				return 1;
		return 0;
	}
	if (!in_list(name, always))
		return 0;
	/* the forms that only show: mount, sysctl -a, ip addr, ... */
	if (i + 1 >= n)
		return strcmp(name, "mount") && strcmp(name, "swapon") &&
		       strcmp(name, "ip") && strcmp(name, "sysctl") &&
		       strcmp(name, "timedatectl") && strcmp(name, "hostnamectl") &&
		       strcmp(name, "ifconfig") && strcmp(name, "route");
	if (!strcmp(name, "ip")) {
		for (k = i + 1; k < n; k++)
			if (in_list(w[k].s, ip_changes))
				return 1;
		return 0;
	}
	if (!strcmp(name, "sysctl")) {
		for (k = i + 1; k < n; k++)
			if (strchr(w[k].s, '=') || !strcmp(w[k].s, "-w") ||
			    !strncmp(w[k].s, "--write", 7) ||
			    !strcmp(w[k].s, "-p") || !strncmp(w[k].s, "--load", 6) ||
			    !strcmp(w[k].s, "--system"))
				return 1;
		return 0;
	}
	if (!strcmp(name, "timedatectl") || !strcmp(name, "hostnamectl") ||
	    !strcmp(name, "systemctl"))
		return !in_list(w[i + 1].s, (const char *const[]){ "status",
			"show", "list-timezones", "timesync-status",
			"show-timesync", "list-units", "is-active", "is-enabled",
			"cat", "--version", NULL });
	return 1;
}

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

	return prefix_in(key, prefixes);
}

static void judge_git_key(struct judge *j, const char *kv,
			  const char *object)
{
	char key[256];
	size_t n = strcspn(kv, "="), i;

	if (n >= sizeof(key)) {
		note(j, R_GIT_EXEC, object);
		return;
	}
	for (i = 0; i < n; i++)
		key[i] = (kv[i] >= 'A' && kv[i] <= 'Z') ? (char)(kv[i] + 32)
							: kv[i];
	key[n] = '\0';
	if (git_key_runs(key))
		note(j, R_GIT_EXEC, object);
	else if (!git_key_safe(key))
		note(j, R_GIT_CONFIG, object);
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
		if (in_list(w[i].s, list))
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
		note(j, R_OUTSIDE, object);
		return;
	}
	if (any_arg(w, n, sub + 1, reads)) {
		note(j, R_GIT_READ, object);
		return;
	}
	k = first_operand(w, n, sub + 1);
	if (k < n && (!strcmp(w[k].s, "set") || !strcmp(w[k].s, "unset")))
		k = first_operand(w, n, k + 1);
	if (k >= n) {
		note(j, R_GIT_READ, object);
		return;
	}
	if (k + 1 >= n && !any_arg(w, n, sub + 1, (const char *const[]){
		"--unset", "--unset-all", "--add", "--replace-all", NULL })) {
		judge_git_key(j, w[k].s, object);   /* a read of one key, but */
		note(j, R_GIT_READ, object);        /* keys that run stay denied */
		return;
	}
	judge_git_key(j, w[k].s, object);
	note(j, R_GIT_STATE, object);
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

	if (in_list(sub, reads))
		return 1;
	if (!strcmp(sub, "branch") || !strcmp(sub, "tag")) {
		for (i = at + 1; i < n; i++)
			if (!in_list(w[i].s, listing))
				return 0;
		return 1;
	}
	if (!strcmp(sub, "stash") || !strcmp(sub, "worktree"))
		return at + 1 < n && in_list(w[at + 1].s, (const char *const[]){
			"list", "show", NULL });
	if (!strcmp(sub, "reflog") || !strcmp(sub, "notes"))
		return at + 1 >= n || in_list(w[at + 1].s, (const char *const[]){
			"list", "show", NULL });
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

	if (in_list(sub, moves))
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
			judge_arg_path(j, c, &t, 1, object);
		} else if (!strcmp(w[i].s, "--output") && i + 1 < n) {
			judge_arg_path(j, c, &w[++i], 1, object);
		} else if (exec_option("git", w[i].s)) {
			note(j, R_EXEC_ARG, object);
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
				note(j, R_GIT_OPTION, object);
			else
				judge_git_key(j, w[i].s, object);
		} else if (!strncmp(s, "--config-env=", 13)) {
			judge_git_key(j, s + 13, object);
		} else if (!strcmp(s, "-C")) {
			struct sc_path res;
			int st;

			if (++i >= n || (w[i].flags & SC_SW_UNRESOLVED)) {
				note(j, R_OPAQUE, object);
				continue;
			}
			if (!w[i].len)
				continue;   /* git -C '' stays where it is */
			sc_path_init(&res);
			st = sc_path_resolve(&j->p->root, gitcwd->data, w[i].s,
					     w[i].len, 0, &res);
			if (st != SC_PATH_OK)
				note(j, status_rule(st), object);
			else {
				sc_buf_reset(gitcwd);
				sc_buf_adds(gitcwd, res.rel);
				judge_path(j, c->cwd.data ? c->cwd.data : "",
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
			   in_list(s, harmless)) {
			continue;
		} else if (!strcmp(s, "-p") || !strcmp(s, "--paginate")) {
			note(j, R_EXEC_ARG, object);
		} else {
			/* --git-dir, --work-tree, --exec-path=, --bare,
			 * --super-prefix and anything unknown */
			note(j, R_GIT_OPTION, object);
			if ((!strcmp(s, "--git-dir") || !strcmp(s, "--work-tree") ||
			     !strcmp(s, "--super-prefix")) && i + 1 < n)
				i++;
		}
	}
	return i;
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

	if (len >= sizeof(name))
		return 0;
	memcpy(name, opt, len);
	name[len] = '\0';
	if (!strcmp(name, "-e"))
		return !strcmp(sub, "grep");
	if (!strcmp(name, "-s"))
		return !strcmp(sub, "restore") || !strcmp(sub, "checkout");
	return in_list(name, text);
}

/* Short options that take the next word as a value, per subcommand. */
static int git_takes_value(const char *sub, const char *opt)
{
	if (!strcmp(sub, "log") || !strcmp(sub, "show") ||
	    !strcmp(sub, "whatchanged") || !strcmp(sub, "shortlog"))
		if (in_list(opt, (const char *const[]){ "-n", "-S", "-G", "-L",
			NULL }))
			return 1;
	if (!strcmp(sub, "grep") &&
	    in_list(opt, (const char *const[]){ "-e", "-f", "-m", "-A",
		    "-B", "-C", NULL }))
		return 1;
	if ((!strcmp(sub, "commit") || !strcmp(sub, "tag") ||
	     !strcmp(sub, "merge") || !strcmp(sub, "stash") ||
	     !strcmp(sub, "notes")) &&
	    in_list(opt, (const char *const[]){ "-m", "-F", "-t", "-C", "-c",
		    "-u", NULL }))
		return 1;
	if ((!strcmp(sub, "checkout") || !strcmp(sub, "switch") ||
	     !strcmp(sub, "worktree")) &&
	    in_list(opt, (const char *const[]){ "-b", "-B", "-c", "-C",
		    "--orphan", NULL }))
		return 1;
	if ((!strcmp(sub, "restore") || !strcmp(sub, "reset")) &&
	    in_list(opt, (const char *const[]){ "-s", "--source", NULL }))
		return 1;
	if ((!strcmp(sub, "format-patch") || !strcmp(sub, "archive")) &&
	    in_list(opt, (const char *const[]){ "-o", "--output-directory",
		    "--prefix", "--format", NULL }))
		return 1;
	return in_list(opt, (const char *const[]){ "--author", "--committer",
		"--grep", "--format", "--pretty", "--since", "--until",
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
	if (len >= sizeof(name))
		return 0;
	memcpy(name, opt, len);
	name[len] = '\0';
	if ((!strcmp(sub, "format-patch") || !strcmp(sub, "archive")) &&
	    (!strcmp(name, "-o") || !strcmp(name, "--output-directory"))) {
		*write = 1;
		return 1;
	}
	if (!strcmp(name, "-F"))
		return in_list(sub, message_file);   /* grep -F: fixed strings */
	if (!strcmp(name, "-t"))
		return !strcmp(sub, "commit");       /* a template */
	if (!strcmp(name, "-f"))
		return !strcmp(sub, "grep");         /* patterns from a file */
	return in_list(name, reads);
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
	int write = in_list(sub, writers), dd = 0, wr;
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

		if (!dd && !strcmp(a->s, "--")) {
			dd = 1;
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
					judge_arg_path(j, &gc, &t, wr, object);
				} else if (k + 1 < n) {
					judge_arg_path(j, &gc, &w[++k], wr, object);
				}
			} else if (eq && !git_text_option(sub, a->s, len) &&
				   looks_like_path(eq + 1)) {
				t.s = (char *)eq + 1;
				t.len = strlen(t.s);
				judge_arg_path(j, &gc, &t, 0, object);
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
				judge_arg_path(j, &gc, &t, 0, object);
			else
				judge_arg_path(j, &top, &t, 0, object);
			continue;
		}
		judge_arg_path(j, &gc, a, write, object);
	}
}

static void judge_git(struct judge *j, struct ctx *c,
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
		note(j, R_GIT_EMBEDDED, object);
	if (at >= n) {
		note(j, R_GIT_READ, object);
		goto out;
	}
	cmd_name(&w[at], &sub);
	if (in_list(sub.data, remote) || !strncmp(sub.data, "remote-", 7)) {
		note(j, R_GIT_REMOTE, object);
	} else if (in_list(sub.data, destructive) ||
		   (!strcmp(sub.data, "reset") &&
		    any_arg(w, n, at + 1, (const char *const[]){ "--hard",
			    "--merge", "--keep", NULL }))) {
		note(j, R_GIT_DESTRUCTIVE, object);
	}
	if (!strcmp(sub.data, "notes") && !git_read_only(sub.data, w, n, at))
		note(j, R_GIT_NOTES, object);
	if (!strcmp(sub.data, "update-ref"))
		for (k = at + 1; k < n; k++)
			if (strstr(w[k].s, "refs/notes"))
				note(j, R_GIT_NOTES, object);
	if (j->p->mode == SC_MODE_IN_PLACE &&
	    git_moves_checkout(sub.data, w, n, at) &&
	    !git_read_only(sub.data, w, n, at))
		note(j, R_IN_PLACE_GIT, object);
	judge_git_outputs(j, c, w, n, at, object);
	judge_git_paths(j, c, sub.data, w, n, at, &gitcwd, object);
	if (!strcmp(sub.data, "config")) {
		judge_git_config(j, w, n, at, object);
	} else if (git_read_only(sub.data, w, n, at)) {
		/* an option this parser does not know: never allowed */
		for (k = at + 1; k < n && strcmp(w[k].s, "--"); k++)
			if (!strncmp(w[k].s, "--", 2) &&
			    !sc_git_option_known(w[k].s, strcspn(w[k].s, "=")))
				note(j, R_NOT_UNDERSTOOD, object);
		note(j, R_GIT_READ, object);
	}
	else
		note(j, R_GIT_STATE, object);
out:
	sc_buf_release(&gitcwd);
	sc_buf_release(&sub);
}

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
	struct sc_strset seen;        /* ordinary kinds already judged */
};

/* Add ITEM to sorted set S, keeping it sorted (one move, no sort). */
static void strset_insert(struct sc_strset *s, const char *item, size_t len)
{
	size_t lo = 0, hi = s->nr;
	char *copy;

	sc_strset_add(s, item, len);
	copy = s->items[--s->nr];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->items[mid], copy) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(s->items + lo + 1, s->items + lo,
		(s->nr - lo) * sizeof(*s->items));
	s->items[lo] = copy;
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
		plain = *e->rel && protected_rule(fj->j, f.data, 1) == R_COUNT &&
			ask_rule(fj->j, f.data) == R_COUNT;
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
		if (strchr(fj->w[k].s, '{') && !in_list(fj->w[k].s, whole))
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
	judge_argv(fj->j, words, nw, &inner, NULL);
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
		note(fj->j, R_NOT_UNDERSTOOD, fj->object);
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
		seen = sc_strset_has(&fj->seen, key.data);
		if (!seen)
			strset_insert(&fj->seen, key.data, key.len);
		sc_buf_release(&key);
		if (seen)
			return;
	}
	if (a->kind == SC_FIND_DELETE)
		judge_path(fj->j, "", *e->rel ? e->rel : ".",
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
			note(fj->j, R_NOT_UNDERSTOOD, fj->object);
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

static void judge_find(struct judge *j, struct ctx *c,
		       const struct sc_sw_word *w, size_t n, size_t i,
		       const char *object)
{
	struct find_judge fj;
	static const struct sc_sw_word dot = { (char *)".", 1, 0 };
	size_t k, budget = SC_WALK_BUDGET;

	memset(&fj, 0, sizeof(fj));
	fj.j = j;
	fj.c = c;
	fj.w = w + i;
	fj.aw = fj.w;
	fj.object = object;
	fj.argv = sc_xcalloc(n - i + 1, sizeof(*fj.argv));
	for (k = i; k < n; k++)
		fj.argv[k - i] = w[k].s;
	sc_find_init(&fj.f);
	if (sc_find_parse(&fj.f, fj.argv, n - i) < 0) {
		note(j, R_NOT_UNDERSTOOD, object);
		goto out;
	}
	for (k = fj.f.start_from; k < fj.f.start_to; k++)
		judge_arg_path(j, c, &fj.w[k], 0, object);
	for (k = 0; k < fj.f.nr_writes; k++)
		judge_arg_path(j, c, &fj.w[fj.f.writes[k]], 1, object);
	if (fj.f.files0_from >= 0)
		judge_arg_path(j, c, &fj.w[fj.f.files0_from], 0, object);
	for (k = 0; k < fj.f.nr_actions; k++) {
		const struct sc_find_action *a = &fj.f.actions[k];

		if (a->kind == SC_FIND_DELETE)
			note(j, R_RECURSIVE_RM, object);
		else if (a->kind == SC_FIND_EXEC && !a->braces) {
			struct ctx inner = *c;

			inner.depth++;
			judge_argv(j, fj.w + a->from, a->to - a->from, &inner, NULL);
		}
	}
	if (find_needs_walk(&fj.f) && !(j->have && j->decision == SC_DENY)) {
		sc_buf_init(&fj.shown);
		if (fj.f.files0_from >= 0 || c->cwd_unknown)
			note(j, R_NOT_UNDERSTOOD, object);   /* files unknown */
		else if (fj.f.start_from == fj.f.start_to)
			find_start(&fj, &dot, &budget);
		for (k = fj.f.start_from; k < fj.f.start_to &&
		     !(j->have && j->decision == SC_DENY); k++)
			find_start(&fj, &fj.w[k], &budget);
		sc_buf_release(&fj.shown);
	}
	note(j, R_READ_COMMAND, object);
out:
	sc_strset_release(&fj.seen);
	sc_find_release(&fj.f);
	free(fj.argv);
}

/*
 * fd (fdfind): it lists names, which is a read; -x/-X run a command on
 * each result, judged as find -exec is, with the placeholders (or the
 * path appended) standing for every file fd's filters let through.
 */
static void judge_fd(struct judge *j, struct ctx *c,
		     const struct sc_sw_word *w, size_t n, size_t i,
		     const char *object)
{
	static const struct sc_sw_word dot = { (char *)".", 1, 0 };
	struct find_judge fj;
	struct sc_fd fd;
	size_t k, budget = SC_WALK_BUDGET;

	memset(&fj, 0, sizeof(fj));
	fj.j = j;
	fj.c = c;
	fj.w = w + i;
	fj.aw = fj.w;
	fj.object = object;
	fj.fd = &fd;
	fj.argv = sc_xcalloc(n - i + 1, sizeof(*fj.argv));
	for (k = i; k < n; k++)
		fj.argv[k - i] = w[k].s;
	sc_find_init(&fj.f);
	sc_fd_init(&fd);
	if (sc_fd_parse(&fd, fj.argv, n - i) < 0) {
		note(j, R_NOT_UNDERSTOOD, object);
		goto out;
	}
	for (k = 0; k < fd.nr_paths; k++)
		judge_arg_path(j, c, &fj.w[fd.paths[k]], 0, object);
	if (fd.has_action && !(j->have && j->decision == SC_DENY)) {
		if (c->cwd_unknown)
			note(j, R_NOT_UNDERSTOOD, object);
		else if (!fd.nr_paths)
			find_start(&fj, &dot, &budget);
		for (k = 0; k < fd.nr_paths &&
		     !(j->have && j->decision == SC_DENY); k++)
			find_start(&fj, &fj.w[fd.paths[k]], &budget);
	}
	note(j, R_READ_COMMAND, object);
out:
	sc_buf_release(&fj.shown);
	sc_strset_release(&fj.seen);
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

static void judge_sed(struct judge *j, struct ctx *c,
		      const struct sc_sw_word *w, size_t n, size_t i,
		      const char *object)
{
	size_t k;
	int in_place = 0, have_script = 0, dd = 0;

	for (k = i + 1; k < n; k++) {
		const char *s = w[k].s;

		if (!dd && !strcmp(s, "--")) {
			dd = 1;
		} else if (!dd && (!strcmp(s, "-e") || !strcmp(s, "--expression"))) {
			have_script = 1;
			if (++k < n && (!sed_script_safe(w[k].s) ||
					(w[k].flags & SC_SW_UNRESOLVED)))
				note(j, R_EXEC_ARG, object);
		} else if (!dd && !strncmp(s, "--expression=", 13)) {
			have_script = 1;
			if (!sed_script_safe(s + 13))
				note(j, R_EXEC_ARG, object);
		} else if (!dd && (!strcmp(s, "-f") || !strncmp(s, "--file", 6))) {
			have_script = 1;
			note(j, R_EXEC_ARG, object);   /* a script we cannot see */
			if (!strcmp(s, "-f"))
				k++;
		} else if (!dd && (!strncmp(s, "-i", 2) ||
				   !strncmp(s, "--in-place", 10) ||
				   (s[0] == '-' && s[1] != '-' && strchr(s, 'i')))) {
			in_place = 1;
		} else if (!dd && (!strcmp(s, "-l") || !strcmp(s, "--line-length"))) {
			k++;
		} else if (is_option(&w[k], dd)) {
			continue;
		} else if (!have_script) {
			have_script = 1;
			if (!sed_script_safe(s) || (w[k].flags & SC_SW_UNRESOLVED))
				note(j, R_EXEC_ARG, object);
		} else {
			judge_arg_path(j, c, &w[k], in_place, object);
		}
	}
	note(j, in_place ? R_FILE_COMMAND : R_READ_COMMAND, object);
}

static void judge_awk(struct judge *j, struct ctx *c,
		      const struct sc_sw_word *w, size_t n, size_t i,
		      const char *object)
{
	static const char *const risky[] = { "system", "|", ">", "getline",
		"ENVIRON", "@load", "close", "fflush", NULL };
	size_t k, r;
	int have_prog = 0, dd = 0;

	for (k = i + 1; k < n; k++) {
		const char *s = w[k].s;

		if (!dd && !strcmp(s, "--")) {
			dd = 1;
		} else if (!dd && (!strcmp(s, "-f") || !strcmp(s, "-v") ||
				   !strcmp(s, "-F") || !strcmp(s, "-i") ||
				   !strcmp(s, "-l") || !strcmp(s, "-E"))) {
			if (s[1] != 'F' && s[1] != 'v')
				note(j, R_EXEC_ARG, object);
			if (s[1] == 'f' || s[1] == 'E')
				have_prog = 1;
			k++;
		} else if (is_option(&w[k], dd)) {
			if (!strncmp(s, "-f", 2) || !strncmp(s, "--", 2))
				note(j, R_EXEC_ARG, object);
		} else if (!have_prog) {
			have_prog = 1;
			for (r = 0; risky[r]; r++)
				if (strstr(s, risky[r]))
					note(j, R_EXEC_ARG, object);
			if (w[k].flags & SC_SW_UNRESOLVED)
				note(j, R_OPAQUE, object);
		} else if (!strchr(s, '=')) {
			judge_arg_path(j, c, &w[k], 0, object);
		}
	}
	note(j, R_READ_COMMAND, object);
}

/* Options (short letters / long names) of reading tools that take a value. */
struct reader {
	const char *name;
	const char *optargs;
	int pattern_first;      /* grep, rg, jq: the first operand is not a path */
};

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
static const char *const inert[] = {
	"echo", "printf", "true", "false", "test", "[", ":", "seq", "sleep",
	"yes", "date", "uname", "whoami", "id", "pwd", "basename", "dirname",
	"which", "type", "hostname", "nproc", "tty", "arch", "groups",
	"logname", "expr", "factor", "numfmt", "getconf", "locale", "cal",
	"wait", "shift", "return", "break", "continue", "exit", "unalias",
	"jobs", "times", "umask", "tput", "clear",
	"stty", NULL,
};

static const struct reader *find_reader(const char *name)
{
	const struct reader *r;

	for (r = readers; r->name; r++)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

static void judge_reader(struct judge *j, struct ctx *c,
			 const struct sc_sw_word *w, size_t n, size_t i,
			 const struct reader *r, const char *object)
{
	size_t k;
	int dd = 0, skip_first = r->pattern_first, tr = r->pattern_first == 2;
	int operands = 0;

	for (k = i + 1; k < n; k++) {
		const char *s = w[k].s;

		if (!dd && !strcmp(s, "--")) {
			dd = 1;
			continue;
		}
		if (is_option(&w[k], dd)) {
			if (exec_option(r->name, s)) {
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
					judge_arg_path(j, c, &t, 1, object);
				} else if (s[strlen(s) - 1] == 'o' && k + 1 < n)
					judge_arg_path(j, c, &w[++k], 1, object);
				else
					note(j, R_OPAQUE, object);
			} else if (!r->pattern_first && (!strcmp(s, "-o") ||
				   !strcmp(s, "--output")) && k + 1 < n) {
				judge_arg_path(j, c, &w[++k], 1, object);
			} else if (!r->pattern_first &&
				   !strncmp(s, "--output=", 9)) {
				struct sc_sw_word t = w[k];

				t.s += 9;
				t.len -= 9;
				judge_arg_path(j, c, &t, 1, object);
			} else if (!strcmp(r->name, "tree") && !strcmp(s, "-o") &&
				   k + 1 < n) {
				judge_arg_path(j, c, &w[++k], 1, object);
			} else if (s[1] != '-' && strchr(r->optargs, s[strlen(s) - 1]) &&
				   k + 1 < n) {
				if ((!strcmp(s, "-e") || !strcmp(s, "-f")) &&
				    r->pattern_first)
					skip_first = 0;
				if (!strcmp(s, "-f"))
					judge_arg_path(j, c, &w[k + 1], 0, object);
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
			judge_arg_path(j, c, &w[k], 1, object);   /* uniq IN OUT */
			continue;
		}
		if (skip_first) {
			skip_first = 0;
			continue;
		}
		if (!strcmp(s, "-"))
			continue;
		judge_arg_path(j, c, &w[k], 0, object);
	}
	note(j, R_READ_COMMAND, object);
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
		judge_arg_path(j, c, src, !strcmp(name, "mv"), object);
		if (!(src->flags & SC_SW_UNRESOLVED) && names_dir(j, c, src) &&
		    (recursive || !strcmp(name, "mv")))
			note(j, R_RECURSIVE_COPY, object);
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
			judge_arg_path(j, c, &t, 1, object);
			sc_buf_release(&b);
		}
	}
	if (dest && !into)
		judge_arg_path(j, c, dest, 1, object);
}

/* rm, mv, cp, touch and friends: their operands are writes. */
static int judge_file_command(struct judge *j, struct ctx *c,
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

	if (!in_list(name, writers))
		return 0;
	/* chmod MODE, chown OWNER, chgrp GROUP: the first operand */
	first_op = in_list(name, (const char *const[]){ "chmod", "chown",
		"chgrp", NULL });
	for (k = i + 1; k < n; k++) {
		const char *s = w[k].s;

		if (!dd && !strcmp(s, "--")) {
			dd = 1;
			continue;
		}
		if (is_option(&w[k], dd)) {
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
			} else if (in_list(s, (const char *const[]){ "-m", "-s",
				"-r", "-d", "-S", "--suffix", "--mode",
				"--size", "--reference", NULL }) &&
				   in_list(name, (const char *const[]){
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
				judge_arg_path(j, c, &t, s[0] == 'o', object);
			}
			continue;
		}
		SC_ALLOC_GROW(ops, nops + 1, alloc);
		ops[nops++] = w[k];
	}
	if (in_list(name, copiers)) {
		if (!have_target && nops) {
			target = ops[--nops];
			have_target = nops > 0 || !strcmp(name, "ln");
			if (!nops && strcmp(name, "ln"))
				judge_arg_path(j, c, &target, 1, object);
		}
		judge_copy(j, c, name, ops, nops, have_target ? &target : NULL,
			   recursive, object);
	} else {
		for (k = 0; k < nops; k++)
			judge_arg_path(j, c, &ops[k], 1, object);
	}
	free(ops);
	if (recursive && !strcmp(name, "rm"))
		note(j, R_RECURSIVE_RM, object);
	if (in_list(name, listed))
		note(j, R_FILE_COMMAND, object);
	else
		note(j, R_UNLISTED, object);
	return 1;
}

static int is_shell(const char *name)
{
	static const char *const shells[] = { "sh", "bash", "dash", "zsh",
		"ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh",
		"pwsh", "powershell", "rbash", "oksh", "loksh", "elvish",
		"nu", "xonsh", "script", "watch", "su", NULL };

	return in_list(name, shells);
}

/* Shells whose -c SCRIPT is a POSIX shell line the lexer reads. */
static int is_posix_shell(const char *name)
{
	static const char *const names[] = { "sh", "bash", "dash", "zsh",
		"ksh", "mksh", "ash", "posh", "yash", "rbash", "oksh", "loksh",
		NULL };

	return in_list(name, names);
}

/*
 * sh -c SCRIPT [NAME ARGS...], bash -lc SCRIPT, /bin/bash -c, a heredoc
 * fed to a shell: SCRIPT is judged as a shell line of the same call, and
 * the wrapper adds a question of its own only when it runs text the
 * policy cannot see (a script file, --rcfile, a pipe), is interactive
 * (-i, no operand) or is not a POSIX shell.  Returns with OWN set then.
 */
static void judge_shell_cmd(struct judge *j, struct ctx *c,
			    const struct sc_sw_word *w, size_t n, size_t i,
			    const char *name, const char *heredoc,
			    const char *object)
{
	static const char *const with_value[] = { "-o", "+o", "-O", "+O",
		NULL };
	static const char *const harmless_long[] = { "--login",
		"--noprofile", "--norc", "--posix", "--noediting",
		"--restricted", "--verbose", "--no-rcs", NULL };
	size_t k;
	int seen_c = 0, own = !is_posix_shell(name);

	/* bash -c 'sh' <<EOF: the inner shell reads the heredoc */
	if (heredoc)
		judge_nested(j, heredoc, strlen(heredoc), c);
	for (k = i + 1; k < n; k++) {
		const char *s = w[k].s;

		if (!strcmp(s, "--")) {
			k++;
			break;
		}
		if (in_list(s, with_value)) {
			k++;
			continue;
		}
		if (!strcmp(s, "--rcfile") || !strcmp(s, "--init-file")) {
			own = 1;   /* a file of startup commands */
			if (k + 1 < n)
				judge_arg_path(j, c, &w[++k], 0, object);
			continue;
		}
		if (s[0] == '-' && s[1] == '-') {
			if (!in_list(s, harmless_long))
				own = 1;
			continue;
		}
		if ((s[0] != '-' && s[0] != '+') || !s[1])
			break;
		if (s[0] == '-' && strchr(s, 'c'))
			seen_c = 1;
		if (strchr(s, 'i'))
			own = 1;   /* interactive: reads ENV and the terminal */
		if ((strchr(s, 'o') || strchr(s, 'O')) && k + 1 < n)
			k++;       /* -eo pipefail */
	}
	if (seen_c) {
		if (k >= n) {
			note(j, R_SHELL_SYNTAX, object);   /* -c without a string */
		} else {
			if (w[k].flags & SC_SW_UNRESOLVED)
				note(j, R_OPAQUE, object);
			judge_nested(j, w[k].s, strnlen(w[k].s, w[k].len), c);
		}
	} else if (k < n) {
		judge_arg_path(j, c, &w[k], 0, object);
		own = 1;   /* a script file, whose text is not seen */
	} else if (!heredoc) {
		own = 1;   /* interactive, or commands from a pipe */
	}
	if (own)
		note(j, R_SHELL, object);
}

static int is_network_tool(const char *name)
{
	static const char *const tools[] = { "curl", "wget", "wget2", "nc",
		"ncat", "netcat", "socat", "ssh", "scp", "sftp", "rsync",
		"telnet", "ftp", "lftp", "aria2c", "http", "https", "xh",
		"ping", "ping6", "dig", "nslookup", "host", "whois",
		"traceroute", "gh", "glab", "hub", "tea", "ssh-keyscan",
		"openssl", "gsutil", "aws", "gcloud", "az", "kubectl",
		"docker", "podman", "nmap", "tftp", "mosh", "rclone", NULL };

	return in_list(name, tools);
}

static int is_interpreter(const char *name)
{
	static const char *const names[] = { "perl", "ruby", "node",
		"nodejs", "deno", "bun", "php", "lua", "luajit", "rscript",
		"julia", "osascript", "tclsh", "wish", "jshell", "groovy",
		"scala", "kotlin", "awk", "irb", "erl", "elixir", "guile",
		"racket", "sbcl", "ghci", "runghc", NULL };

	return in_list(name, names) || !strncmp(name, "python", 6) ||
	       !strncmp(name, "pypy", 4);
}

static int inline_code(const struct sc_sw_word *w, size_t n, size_t i)
{
	static const char *const flags[] = { "-c", "-e", "-E", "--eval",
		"-r", "-p", "--print", "-x", "--command", "-m", "-pe", "-ne",
		"-i", "-l", "-n", NULL };
	size_t k;

	for (k = i + 1; k < n && w[k].s[0] == '-'; k++)
		if (in_list(w[k].s, flags) ||
		    (w[k].s[1] != '-' && strpbrk(w[k].s + 1, "ceE")))
			return 1;
	return 0;
}

static void judge_cd(struct judge *j, struct ctx *c,
		     const struct sc_sw_word *w, size_t n, size_t i,
		     const char *object)
{
	struct sc_path res;
	size_t k = i + 1;
	int st;

	while (k < n && (!strcmp(w[k].s, "-L") || !strcmp(w[k].s, "-P") ||
			 !strcmp(w[k].s, "-e") || !strcmp(w[k].s, "--")))
		k++;
	note(j, R_BUILTIN, object);
	if (k < n && !w[k].len)
		return;   /* cd '' stays where it is */
	if (k >= n || (w[k].flags & SC_SW_UNRESOLVED) || !strcmp(w[k].s, "-")) {
		c->cwd_unknown = 1;   /* $HOME, $OLDPWD, a variable */
		if (k < n && (w[k].flags & SC_SW_TILDE))
			note(j, R_OUTSIDE, object);
		return;
	}
	sc_path_init(&res);
	st = sc_path_resolve(&j->p->root, c->cwd.data ? c->cwd.data : "",
			     w[k].s, w[k].len, 0, &res);
	if (st != SC_PATH_OK) {
		note(j, status_rule(st), object);
		c->cwd_unknown = 1;
	} else {
		judge_path(j, c->cwd.data ? c->cwd.data : "", w[k].s,
			   w[k].len, 0);
		sc_buf_reset(&c->cwd);
		sc_buf_adds(&c->cwd, res.rel);
	}
	sc_path_release(&res);
}

/* export NAME=VALUE, declare, local, readonly, typeset, unset. */
static int judge_declaration(struct judge *j, struct ctx *c,
			     const char *name, const struct sc_sw_word *w,
			     size_t n, size_t i, const char *object)
{
	static const char *const decl[] = { "export", "declare", "typeset",
		"local", "readonly", "unset", NULL };
	size_t k;

	if (!in_list(name, decl))
		return 0;
	for (k = i + 1; k < n; k++) {
		if (w[k].flags & SC_SW_UNRESOLVED)
			note(j, R_OPAQUE, object);
		if (w[k].s[0] == '-') {
			if (strchr(w[k].s, 'f'))
				note(j, R_SHELL, object);   /* functions */
			continue;
		}
		if (!strcmp(name, "unset")) {
			struct sc_buf a = SC_BUF_INIT;

			sc_buf_adds(&a, w[k].s);
			sc_buf_addch(&a, '=');
			judge_assign(j, c, a.data);
			sc_buf_release(&a);
		} else {
			judge_assign(j, c, w[k].s);
		}
	}
	note(j, R_BUILTIN, object);
	return 1;
}

/* Any argument naming a privilege program makes an unknown command a deny. */
static void scan_privilege(struct judge *j, const struct sc_sw_word *w,
			   size_t n, size_t i, const char *object)
{
	struct sc_buf name = SC_BUF_INIT;
	size_t k;

	for (k = i + 1; k < n; k++) {
		cmd_name(&w[k], &name);
		if (is_privilege(name.data))
			note(j, R_PRIVILEGE, object);
	}
	sc_buf_release(&name);
}

/*
 * xargs [OPTIONS] COMMAND... fed by find or fd on its left (find . -name
 * '*.py' | xargs grep -n x): COMMAND is judged with the names the listing
 * can print appended (or standing for -I's REPL), as find -exec is.
 * Returns 0, judging nothing, when the line is not such a pair or an
 * option is not understood: xargs then stays a launcher that asks.
 */
static int judge_xargs(struct judge *j, struct ctx *c,
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

	if (!feed || !feed->nr_words || word_has_flag(feed->words,
			feed->nr_words, SC_SW_UNRESOLVED) ||
	    !system_program(&feed->words[0]))
		return 0;
	cmd_name(&feed->words[0], &name);
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
		if (in_list(s, flags)) {
			if (!strcmp(s, "-0") || !strcmp(s, "--null"))
				fj.split = 0;
		} else if (in_list(s, values)) {
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
	sc_strset_release(&fj.seen);
	sc_find_release(&fj.f);
	sc_fd_release(&fd);
	free(fj.argv);
	return ok && !c->cwd_unknown;
}

/* The launchers looked through: returns the index of the command. */
static size_t peel_launchers(struct judge *j, struct ctx *c,
			     const struct sc_sw_word *w, size_t n,
			     const char *object, const struct sc_sw_cmd *feed,
			     int *done)
{
	static const char *const timeout_long[] = { "--signal", "--kill-after",
		NULL };
	static const char *const nice_long[] = { "--adjustment", NULL };
	static const char *const stdbuf_long[] = { "--input", "--output",
		"--error", NULL };
	static const char *const time_long[] = { "--format", "--output", NULL };
	static const char *const xargs_long[] = { "--arg-file", "--delimiter",
		"--eof", "--replace", "--max-lines", "--max-args",
		"--max-procs", "--max-chars", "--process-slot-var", NULL };
	struct sc_buf name = SC_BUF_INIT;
	size_t i = 0, before;

	while (i < n && !*done) {
		before = i;
		cmd_name(&w[i], &name);
		if (is_privilege(name.data)) {
			note(j, R_PRIVILEGE, object);
			*done = 1;
		} else if (!strcmp(name.data, "env")) {
			/* env CMD is judged as CMD; env alone prints the
			 * environment, env -S splits a string */
			i = skip_env(j, w, n, i, c, done);
			if (*done || i >= n)
				note(j, R_LAUNCHER, object);
		} else if (!strcmp(name.data, "xargs")) {
			/* fed by find or fd: judged on the names it reads */
			if (i || !judge_xargs(j, c, feed, w, n, i, object))
				note(j, R_LAUNCHER, object);
			i = skip_launcher(w, n, i, "adEIiLlnPs", xargs_long, 0);
		} else if (!strcmp(name.data, "timeout")) {
			i = skip_launcher(w, n, i, "sk", timeout_long, 1);
		} else if (!strcmp(name.data, "nice")) {
			i = skip_launcher(w, n, i, "n", nice_long, 0);
		} else if (!strcmp(name.data, "nohup") ||
			   !strcmp(name.data, "builtin") ||
			   !strcmp(name.data, "unbuffer") ||
			   !strcmp(name.data, "setsid") ||
			   !strcmp(name.data, "caffeinate") ||
			   !strcmp(name.data, "nocache")) {
			i = skip_launcher(w, n, i, "", NULL, 0);
		} else if (!strcmp(name.data, "stdbuf")) {
			i = skip_launcher(w, n, i, "ioe", stdbuf_long, 0);
		} else if (!strcmp(name.data, "exec")) {
			i = skip_launcher(w, n, i, "a", NULL, 0);
		} else if (!strcmp(name.data, "command")) {
			if (i + 1 < n && (!strcmp(w[i + 1].s, "-v") ||
					  !strcmp(w[i + 1].s, "-V"))) {
				note(j, R_BUILTIN, object);
				*done = 1;
			}
			i = skip_launcher(w, n, i, "", NULL, 0);
		} else if (!strcmp(name.data, "time")) {
			size_t k;

			for (k = i + 1; k < n && w[k].s[0] == '-'; k++)
				if ((!strcmp(w[k].s, "-o") || !strcmp(w[k].s, "--output")) &&
				    k + 1 < n)
					judge_arg_path(j, c, &w[k + 1], 1, object);
				else if (!strncmp(w[k].s, "--output=", 9)) {
					struct sc_sw_word t = w[k];

					t.s += 9;
					t.len -= 9;
					judge_arg_path(j, c, &t, 1, object);
				}
			i = skip_launcher(w, n, i, "fo", time_long, 0);
		} else if (!strcmp(name.data, "busybox") ||
			   !strcmp(name.data, "toybox")) {
			note(j, R_LAUNCHER, object);
			i++;
		} else {
			break;
		}
		if (i == before)
			break;
	}
	sc_buf_release(&name);
	return i;
}

/* Judge one command: W[0..N) with the words already resolved. */
static void judge_argv(struct judge *j, const struct sc_sw_word *w,
		       size_t n, struct ctx *c, const char *heredoc)
{
	struct sc_buf object = SC_BUF_INIT, name = SC_BUF_INIT;
	const struct sc_sw_cmd *feed = c->feed;
	const struct reader *r;
	enum rule_id conf;
	size_t i, k;
	int done = 0;

	c->feed = NULL;   /* for this command only, never what it runs */
	if (!n)
		return;
	if (c->depth > MAX_DEPTH) {
		note(j, R_SHELL_DEPTH, "");
		return;
	}
	i = 0;
	cmd_object(j, c, w, n, 0, &object);
	if (word_has_flag(w, n, SC_SW_CTRL))
		note(j, R_SHELL_UNUSUAL, object.data);
	if (word_has_flag(w, n, SC_SW_UNRESOLVED))
		note(j, R_OPAQUE, object.data);
	if (c->cwd_unknown)
		note(j, R_OPAQUE, object.data);
	i = peel_launchers(j, c, w, n, object.data, feed, &done);
	if (c->cwd_unknown)
		note(j, R_OPAQUE, object.data);   /* env -C DIR: runs elsewhere */
	if (!done && i >= n)
		note(j, R_READ_COMMAND, object.data);   /* timeout 5: runs nothing */
	if (done || i >= n)
		goto out;
	if (i)
		cmd_object(j, c, w, n, i, &object);
	cmd_name(&w[i], &name);
	if ((w[i].flags & (SC_SW_NONASCII | SC_SW_CTRL)) ||
	    w[i].len != strcspn(w[i].s, "\t\n"))
		note(j, R_SHELL_UNUSUAL, object.data);   /* a name never holds them */
	if (w[i].flags & SC_SW_UNRESOLVED) {
		/* sudo${IFS}id: what the word starts with is still known */
		struct sc_sw_word lit = w[i];
		char *cut = sc_xmemdup(w[i].s, strcspn(w[i].s, "$`*?[{~"));

		lit.s = cut;
		lit.len = strlen(cut);
		cmd_name(&lit, &name);
		if (is_privilege(name.data))
			note(j, R_PRIVILEGE, object.data);
		free(cut);
		scan_privilege(j, w, n, i, object.data);
		note(j, R_OPAQUE, object.data);
		goto out;
	}
	conf = configured(j, w + i, n - i);
	if ((j->net = net_hosts(j, w + i, n - i, &object)))
		conf = R_NET_HOSTS;
	if (!strcmp(name.data, "git") && system_program(&w[i])) {
		judge_git(j, c, w, n, i, object.data);
	}
	if (conf != R_COUNT) {
		note(j, conf, object.data);
		goto out;
	}
	if (!system_program(&w[i])) {
		/* ./rm, ../bin/cat: a program the built-in lists do not know */
		scan_privilege(j, w, n, i, object.data);
		note(j, R_UNLISTED, object.data);
		goto out;
	}
	judge_exec_options(j, name.data, w, n, i, object.data);
	if (host_change(name.data, w, n, i))
		note(j, R_HOST_CHANGE, object.data);
	if (!strcmp(name.data, "git")) {
		/* judged above */
	} else if (is_shell(name.data)) {
		judge_shell_cmd(j, c, w, n, i, name.data, heredoc,
				object.data);
	} else if (!strcmp(name.data, "eval") || !strcmp(name.data, "trap")) {
		struct sc_buf s = SC_BUF_INIT;

		note(j, R_SHELL, object.data);
		for (k = i + 1; k < n; k++) {
			if (!strcmp(name.data, "trap") && k > i + 1)
				break;
			if (s.len)
				sc_buf_addch(&s, ' ');
			sc_buf_add(&s, w[k].s, w[k].len);
		}
		judge_nested(j, s.data ? s.data : "", s.len, c);
		sc_buf_release(&s);
	} else if (!strcmp(name.data, "source") || !strcmp(name.data, ".") ||
		   !strcmp(name.data, "alias") || !strcmp(name.data, "hash") ||
		   !strcmp(name.data, "enable") || !strcmp(name.data, "shopt") ||
		   !strcmp(name.data, "set") || !strcmp(name.data, "fc") ||
		   !strcmp(name.data, "coproc")) {
		note(j, R_SHELL, object.data);
		for (k = i + 1; k < n; k++)
			if (w[k].s[0] != '-')
				judge_arg_path(j, c, &w[k], 0, object.data);
	} else if (!strcmp(name.data, "cd") || !strcmp(name.data, "pushd")) {
		judge_cd(j, c, w, n, i, object.data);
	} else if (!strcmp(name.data, "popd")) {
		c->cwd_unknown = 1;
		note(j, R_BUILTIN, object.data);
	} else if (judge_declaration(j, c, name.data, w, n, i, object.data)) {
		/* judged */
	} else if (!strcmp(name.data, "find")) {
		judge_find(j, c, w, n, i, object.data);
	} else if (!strcmp(name.data, "fd") || !strcmp(name.data, "fdfind")) {
		judge_fd(j, c, w, n, i, object.data);
	} else if (!strcmp(name.data, "sed") || !strcmp(name.data, "gsed")) {
		judge_sed(j, c, w, n, i, object.data);
	} else if (!strcmp(name.data, "awk") || !strcmp(name.data, "gawk") ||
		   !strcmp(name.data, "mawk") || !strcmp(name.data, "nawk")) {
		judge_awk(j, c, w, n, i, object.data);
	} else if ((r = find_reader(name.data))) {
		judge_reader(j, c, w, n, i, r, object.data);
	} else if (in_list(name.data, inert)) {
		/* printf -v NAME sets a variable like an assignment */
		for (k = i + 1; k + 1 < n && !strcmp(name.data, "printf"); k++)
			if (!strcmp(w[k].s, "-v")) {
				struct sc_buf a = SC_BUF_INIT;

				sc_buf_addf(&a, "%s=", w[k + 1].s);
				judge_assign(j, c, a.data);
				sc_buf_release(&a);
			}
		/* date -f FILE echoes each line it cannot parse: a read */
		for (k = i + 1; k < n && !strcmp(name.data, "date"); k++)
			if ((!strcmp(w[k].s, "-f") || !strcmp(w[k].s, "--file")) &&
			    k + 1 < n) {
				judge_arg_path(j, c, &w[++k], 0, object.data);
			} else if (!strncmp(w[k].s, "--file=", 7)) {
				struct sc_sw_word t = w[k];

				t.s += 7;
				t.len -= 7;
				judge_arg_path(j, c, &t, 0, object.data);
			}
		note(j, R_READ_COMMAND, object.data);
	} else if (judge_file_command(j, c, name.data, w, n, i, object.data)) {
		/* judged */
	} else if (is_network_tool(name.data)) {
		scan_privilege(j, w, n, i, object.data);
		note(j, R_NETWORK_TOOL, object.data);
	} else if (is_interpreter(name.data) && inline_code(w, n, i)) {
		note(j, R_INLINE_CODE, object.data);
	} else {
		scan_privilege(j, w, n, i, object.data);
		note(j, R_UNLISTED, object.data);
	}
out:
	sc_buf_release(&object);
	sc_buf_release(&name);
}

static int is_device(const char *s)
{
	static const char *const ok[] = { "/dev/null", "/dev/stdout",
		"/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero",
		"/dev/fd/0", "/dev/fd/1", "/dev/fd/2", NULL };

	return in_list(s, ok);
}

static int is_number(const char *s)
{
	if (!*s)
		return 0;
	if (!strcmp(s, "-"))
		return 1;
	for (; *s; s++)
		if ((*s < '0' || *s > '9') && !(s[1] == '\0' && *s == '-'))
			return 0;
	return 1;
}

static void judge_redirs(struct judge *j, struct ctx *c,
			 const struct sc_sw_cmd *cmd, const char *object)
{
	size_t k;

	for (k = 0; k < cmd->nr_redirs; k++) {
		const struct sc_sw_redir *rd = &cmd->redirs[k];
		const struct sc_sw_word *t = &rd->target;
		int write;

		if (rd->op == SC_RD_HEREDOC || rd->op == SC_RD_HERESTR)
			continue;
		if ((rd->op == SC_RD_DUP_OUT || rd->op == SC_RD_DUP_IN) &&
		    is_number(t->s))
			continue;
		if (rd->op == SC_RD_DUP_IN) {
			note(j, R_SHELL_SYNTAX, object);
			continue;
		}
		write = rd->op != SC_RD_IN;
		if (t->flags & SC_SW_CTRL)
			note(j, R_SHELL_UNUSUAL, object);
		if (!(t->flags & SC_SW_UNRESOLVED) && is_device(t->s))
			continue;
		if (!t->len) {
			note(j, R_SHELL_SYNTAX, object);
			continue;
		}
		judge_arg_path(j, c, t, write, object);
		if (write)
			note(j, R_FILE_COMMAND, object);
	}
}

static void judge_cmd(struct judge *j, struct ctx *c,
		      const struct sc_sw_cmd *cmd, const char *line,
		      size_t len)
{
	struct sc_buf object = SC_BUF_INIT;
	const char *stdin_text;
	size_t k;

	if (cmd->nr_words)
		cmd_object(j, c, cmd->words, cmd->nr_words, 0, &object);
	else
		line_object(c, line, len, &object);
	for (k = 0; k < cmd->nr_assigns; k++) {
		if (cmd->assigns[k].flags & SC_SW_CTRL)
			note(j, R_SHELL_UNUSUAL, object.data);
		judge_assign(j, c, cmd->assigns[k].s);
	}
	judge_redirs(j, c, cmd, object.data);
	if (cmd->flags & SC_SWC_HEREDOC_EXPAND)
		note(j, R_OPAQUE, object.data);
	/* what a shell reads on stdin: heredocs and here-strings */
	stdin_text = cmd->heredoc;
	for (k = 0; k < cmd->nr_redirs; k++) {
		if (cmd->redirs[k].op == SC_RD_HERESTR)
			stdin_text = cmd->redirs[k].target.s;
		if (cmd->redirs[k].op == SC_RD_IN ||
		    cmd->redirs[k].op == SC_RD_RDWR ||
		    cmd->redirs[k].op == SC_RD_HEREDOC ||
		    cmd->redirs[k].op == SC_RD_HERESTR ||
		    cmd->redirs[k].op == SC_RD_DUP_IN)
			c->feed = NULL;   /* stdin is not the pipe */
	}
	judge_argv(j, cmd->words, cmd->nr_words, c, stdin_text);
	c->feed = NULL;
	if (!cmd->nr_words && (cmd->nr_assigns || cmd->nr_redirs))
		note(j, R_BUILTIN, object.data);
	sc_buf_release(&object);
}

static void judge_line(struct judge *j, const char *line, size_t len,
		       struct ctx *c)
{
	struct sc_sw_line l;
	struct sc_buf object = SC_BUF_INIT;
	size_t k;
	int ret;

	line_object(c, line, len, &object);
	if (c->depth > MAX_DEPTH) {
		note(j, R_SHELL_DEPTH, object.data);
		sc_buf_release(&object);
		return;
	}
	sc_sw_line_init(&l);
	ret = sc_sw_parse(line, len, &l);
	if (l.flags & (SC_SWL_OPAQUE | SC_SWL_SUBST))
		note(j, R_OPAQUE, object.data);
	for (k = 0; k < l.nr_cmds; k++) {
		c->feed = k && (l.cmds[k - 1].flags & SC_SWC_PIPE) ?
			  &l.cmds[k - 1] : NULL;
		judge_cmd(j, c, &l.cmds[k], line, len);
	}
	for (k = 0; k < l.nr_subs; k++)
		judge_nested(j, l.subs[k], strlen(l.subs[k]), c);
	if (ret < 0)
		note(j, R_SHELL_SYNTAX, object.data);
	if (!l.nr_cmds && ret == 0)
		note(j, R_BUILTIN, object.data);   /* empty or only comments */
	sc_sw_line_release(&l);
	sc_buf_release(&object);
}

/* ---- calls --------------------------------------------------------- */

/* The value of a field that must be there once, hold no NUL, be set. */
static const char *single(const struct sc_record *call, const char *name,
			  int *bad)
{
	const struct sc_field *f = NULL;
	size_t i;

	for (i = 0; i < call->nr; i++)
		if (!strcmp(call->fields[i].name, name)) {
			if (f)
				*bad = 1;
			f = &call->fields[i];
		}
	if (!f)
		return NULL;
	if (memchr(f->value, '\0', f->value_len))
		*bad = 1;
	return f->value;
}

static int source_may_mutate(const struct judge *j, const char *source)
{
	/* executor: an external agent the configuration names, whose
	 * requests sc-acp reports; the model never sets a source itself. */
	static const char *const ok[] = { "model", "speccoder", "verifier",
		"worktree", "executor", NULL };

	if (!source || in_list(source, ok))
		return 1;
	return !strncmp(source, "mcp:", 4) &&
	       sc_config_has_server(&j->p->cfg, source + 4);
}

static void word_flags(struct sc_sw_word *w)
{
	size_t i;

	w->flags = 0;
	for (i = 0; i < w->len; i++) {
		unsigned char ch = (unsigned char)w->s[i];

		if ((ch < 0x20 && ch != '\t' && ch != '\n') || ch == 0x7f)
			w->flags |= SC_SW_CTRL;
		else if (ch >= 0x80)
			w->flags |= SC_SW_NONASCII;
	}
}

static void judge_run(struct judge *j, const struct sc_record *call)
{
	struct ctx c;
	struct sc_sw_word *w = NULL;
	size_t i, n = 0, alloc = 0;
	int bad = 0, st;
	const char *shell = single(call, "shell", &bad);
	const char *cwd = single(call, "cwd", &bad);
	struct sc_path res;

	memset(&c, 0, sizeof(c));
	sc_buf_adds(&c.cwd, "");
	for (i = 0; i < call->nr; i++) {
		const struct sc_field *f = &call->fields[i];

		if (strcmp(f->name, "argv"))
			continue;
		SC_ALLOC_GROW(w, n + 1, alloc);
		w[n].s = (char *)f->value;
		w[n].len = f->value_len;
		word_flags(&w[n]);
		if (memchr(f->value, '\0', f->value_len))
			bad = 1;
		n++;
	}
	if (bad || (shell && n) || (!shell && !n) || (cwd && !*cwd)) {
		note(j, R_MALFORMED, "");
		goto out;
	}
	if (cwd) {
		sc_path_init(&res);
		st = sc_path_resolve(&j->p->root, "", cwd, strlen(cwd), 0, &res);
		if (st != SC_PATH_OK)
			note(j, status_rule(st), show_rel(res.lexical ?
							  res.lexical : ""));
		else if (!res.exists || !S_ISDIR(res.st.st_mode))
			note(j, R_MALFORMED, show_rel(res.rel));
		else {
			judge_path(j, "", cwd, strlen(cwd), 0);
			sc_buf_adds(&c.cwd, res.rel);
		}
		sc_path_release(&res);
		if (j->have && j->decision == SC_DENY)
			goto out;
	}
	if (shell)
		judge_line(j, shell, strlen(shell), &c);
	else
		judge_argv(j, w, n, &c, NULL);
out:
	free(w);
	sc_buf_release(&c.cwd);
}

static void judge_mcp(struct judge *j, const struct sc_record *call)
{
	const struct sc_config *cfg = &j->p->cfg;
	int bad = 0, named = 0, pinned_ok = 0;
	const char *server = single(call, "server", &bad);
	const char *name = single(call, "name", &bad);
	const char *digest = single(call, "digest", &bad);
	struct sc_buf o = SC_BUF_INIT;
	size_t i;

	if (bad || !server || !name || !*server || !*name) {
		note(j, R_MALFORMED, "");
		return;
	}
	sc_buf_adds(&o, "server=");
	sc_sw_quote(&o, server, strlen(server));
	sc_buf_adds(&o, " tool=");
	sc_sw_quote(&o, name, strlen(name));
	sc_buf_adds(&o, " digest=");
	sc_sw_quote(&o, digest ? digest : "", digest ? strlen(digest) : 0);
	for (i = 0; i < cfg->nr_mcp; i++) {
		const struct sc_mcp_allow *m = &cfg->mcp[i];

		if (strcmp(m->server, server) || strcmp(m->tool, name))
			continue;
		named = 1;
		if (!m->digest || (digest && !strcmp(m->digest, digest)))
			pinned_ok = 1;
	}
	if (pinned_ok)
		note(j, R_MCP_ALLOW, o.data);
	else
		note(j, named ? R_MCP_DIGEST : R_MCP, o.data);
	sc_buf_release(&o);
}

static const char *tool_class(const char *tool)
{
	if (!strcmp(tool, "read") || !strcmp(tool, "list"))
		return "read";
	if (!strcmp(tool, "write") || !strcmp(tool, "delete"))
		return "write";
	if (!strcmp(tool, "run"))
		return "command";
	if (!strcmp(tool, "network"))
		return "network";
	if (!strcmp(tool, "mcp"))
		return "mcp";
	return NULL;
}

static void judge_tool(struct judge *j, const struct sc_record *call,
		       const char *tool)
{
	int bad = 0;
	const char *path, *url;

	if (!strcmp(tool, "run")) {
		judge_run(j, call);
	} else if (!strcmp(tool, "mcp")) {
		judge_mcp(j, call);
	} else if (!strcmp(tool, "network")) {
		url = single(call, "url", &bad);
		if (bad || !url || !*url)
			note(j, R_MALFORMED, "");
		else
			note(j, R_NETWORK, url);
	} else {
		const struct sc_field *f = sc_record_get(call, "path");

		path = single(call, "path", &bad);
		if (bad || !path)
			note(j, R_MALFORMED, "");
		else
			judge_path(j, "", path, f->value_len,
				   !strcmp(tool, "write") || !strcmp(tool, "delete"));
	}
}

void sc_policy_judge(const struct sc_policy *p, const struct sc_record *call,
		     struct sc_verdict *v)
{
	struct judge j;
	int bad = 0;
	const char *tool, *source, *class;

	memset(&j, 0, sizeof(j));
	j.p = p;
	j.v = v;
	clear_parts(v);
	v->nr_hosts = 0;
	tool = single(call, "tool", &bad);
	source = single(call, "source", &bad);
	class = tool ? tool_class(tool) : NULL;
	if (bad || !class) {
		note(&j, R_MALFORMED, "");
	} else {
		if (strcmp(class, "read") && !source_may_mutate(&j, source))
			note(&j, R_SOURCE, source);
		judge_tool(&j, call, tool);
	}
	if (!j.have)
		note(&j, R_MALFORMED, "");
	if (j.decision != SC_ASK)
		clear_parts(v);
	v->decision = j.decision;
	v->rule = rules[j.rule].id;
	v->reason = rules[j.rule].reason;
	v->class = class ? class : "command";
	v->no_prompt = 0;
	v->net = j.rule == R_NET_HOSTS ? j.net : NULL;
	/* A call the grants allowed runs with the hosts they named; any
	 * other gets none of them (a line with an ungranted part asks). */
	if (j.decision != SC_ALLOW || j.rule != R_GRANT)
		v->nr_hosts = 0;
	if (v->decision == SC_ASK && p->no_prompt) {
		v->decision = SC_DENY;
		v->no_prompt = 1;
	}
	sc_buf_reset(&v->object);
	sc_buf_add(&v->object, j.object.data ? j.object.data : "", j.object.len);
	sc_buf_release(&j.object);
}

/* ---- set-up -------------------------------------------------------- */

int sc_policy_parse_mode(const char *text, enum sc_mode *mode)
{
	static const char *const names[] = { "worktree", "in-place", "spec",
		"explore", NULL };
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(text, names[i])) {
			*mode = (enum sc_mode)i;
			return 0;
		}
	return -1;
}

int sc_policy_init(struct sc_policy *p, const char *root, enum sc_mode mode,
		   int no_prompt, struct sc_config *cfg)
{
	const char *path = getenv("PATH");

	memset(p, 0, sizeof(*p));
	if (sc_root_init(&p->root, root) < 0)
		return -1;
	p->mode = mode;
	p->no_prompt = no_prompt;
	if (cfg) {
		p->cfg = *cfg;
		sc_config_init(cfg);
	}
	p->path_env = sc_xstrdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
	p->exes = sc_xcalloc(1, sizeof(*p->exes));
	return 0;
}

void sc_policy_release(struct sc_policy *p)
{
	sc_root_release(&p->root);
	sc_config_release(&p->cfg);
	sc_strset_release(&p->grants);
	for (size_t i = 0; i < p->nr_host_grants; i++) {
		for (size_t k = 0; k < p->host_grants[i].nr; k++)
			free(p->host_grants[i].hosts[k]);
		free(p->host_grants[i].hosts);
		free(p->host_grants[i].object);
	}
	free(p->host_grants);
	sc_strset_release(&p->ignored);
	sc_strset_release(&p->included);
	sc_strset_release(&p->frozen);
	free(p->path_env);
	free(p->feature);
	if (p->exes) {
		size_t i;

		for (i = 0; i < p->exes->nr; i++) {
			free(p->exes->name[i]);
			free(p->exes->path[i]);
		}
		free(p->exes);
	}
	memset(p, 0, sizeof(*p));
}

/*
 * The host= fields of grant REC of OBJECT, kept with it: 0 (none is 0
 * too), or -1 when one is no host --allow-host takes, and the grant is
 * dropped whole: fail closed, never a wider network.
 */
static int add_host_grant(struct sc_policy *p, const struct sc_record *rec,
			  const char *object)
{
	struct sc_host_grant g = { NULL, NULL, 0 };
	size_t k, alloc = 0;
	const char *why;

	for (k = 0; k < rec->nr; k++) {
		const struct sc_field *f = &rec->fields[k];

		if (strcmp(f->name, "host"))
			continue;
		if (memchr(f->value, '\0', f->value_len) ||
		    sc_host_entry_check(f->value, &why) < 0) {
			while (g.nr)
				free(g.hosts[--g.nr]);
			free(g.hosts);
			return -1;
		}
		SC_ALLOC_GROW(g.hosts, g.nr + 1, alloc);
		g.hosts[g.nr++] = sc_xstrdup(f->value);
	}
	if (!g.nr)
		return 0;
	g.object = sc_xstrdup(object);
	SC_ALLOC_GROW(p->host_grants, p->nr_host_grants + 1,
		      p->alloc_host_grants);
	p->host_grants[p->nr_host_grants++] = g;
	return 0;
}

int sc_policy_load_grants(struct sc_policy *p, int fd, int *exit_code)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record rec;
	int st;

	sc_input_init_fd(&in, fd);
	sc_reader_init(&rd, &in);
	sc_record_init(&rec);
	while ((st = sc_reader_next(&rd, &rec)) == SC_READ_RECORD) {
		const struct sc_field *o = sc_record_get(&rec, "object");
		const char *type = sc_record_type(&rec);

		if (!type || strcmp(type, "grant") || !o)
			continue;
		if (memchr(o->value, '\0', o->value_len))
			continue;   /* no verdict prints such an object */
		if (add_host_grant(p, &rec, o->value) < 0)
			continue;   /* a host no answer can name: no grant */
		sc_strset_add(&p->grants, o->value, o->value_len);
	}
	if (st < 0)
		*exit_code = sc_reader_report(&rd, st);
	sc_record_release(&rec);
	sc_strset_sort(&p->grants);
	return st < 0 ? st : 0;
}

void sc_policy_load_paths(struct sc_policy *p, struct sc_strset *which,
			  const char *data, size_t len)
{
	struct sc_buf norm = SC_BUF_INIT, f = SC_BUF_INIT;
	char sep = memchr(data, '\0', len) ? '\0' : '\n';
	size_t i = 0;

	(void)p;
	while (i < len) {
		const char *e = memchr(data + i, sep, len - i);
		size_t n = e ? (size_t)(e - data - i) : len - i;

		if (n && sc_path_normalize(data + i, n, &norm) == 0 && norm.len) {
			sc_path_fold_rel(norm.data, &f);
			sc_strset_add(which, f.data, f.len);
		}
		i += n + 1;
	}
	sc_strset_sort(which);
	sc_buf_release(&norm);
	sc_buf_release(&f);
}

void sc_verdict_init(struct sc_verdict *v)
{
	memset(v, 0, sizeof(*v));
}

void sc_verdict_release(struct sc_verdict *v)
{
	clear_parts(v);
	free(v->parts);
	free(v->hosts);
	sc_buf_release(&v->object);
	memset(v, 0, sizeof(*v));
}

void sc_verdict_record(const struct sc_verdict *v, const char *id,
		       struct sc_record *out)
{
	static const char *const names[] = { "allow", "ask", "deny" };
	struct sc_buf reason = SC_BUF_INIT;
	size_t k;

	sc_record_reset(out);
	sc_record_adds(out, "type", "verdict");
	if (id)
		sc_record_adds(out, "id", id);
	sc_record_adds(out, "decision", names[v->decision]);
	sc_record_adds(out, "rule", v->rule);
	if (v->no_prompt)
		sc_buf_adds(&reason, "No person can be asked, so this is "
			    "denied: ");
	sc_buf_adds(&reason, v->reason);
	sc_record_adds(out, "reason", reason.data);
	sc_record_adds(out, "class", v->class);
	sc_record_add(out, "object", v->object.data ? v->object.data : "",
		      v->object.len);
	for (size_t i = 0; v->net && i < v->net->nr_hosts; i++)
		sc_record_adds(out, "host", v->net->hosts[i]);
	for (size_t i = 0; i < v->nr_hosts; i++)
		sc_record_adds(out, "host", v->hosts[i]);
	for (k = 0; k < v->nr_parts; k++) {
		sc_record_adds(out, "part-rule", v->parts[k].rule);
		sc_record_adds(out, "part-object", v->parts[k].object);
	}
	sc_buf_release(&reason);
}

void sc_policy_set_feature(struct sc_policy *p, const char *name)
{
	struct sc_buf folded = SC_BUF_INIT;

	sc_path_fold(name, strlen(name), &folded);
	free(p->feature);
	p->feature = sc_buf_detach(&folded, NULL);
}
