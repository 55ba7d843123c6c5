/*
 * The path rules of sc-classify(1): which paths are protected, secret,
 * the spec, the agent's own; and how a command's program is resolved and
 * shown.  Split from policy.c at its seams; shared state in policy-int.h.
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
static int path_in_set(const struct sc_strlist *set, const char *f)
{
	struct sc_buf b = SC_BUF_INIT;
	int found = 0;
	char *slash;

	if (!set->nr)
		return 0;
	sc_buf_adds(&b, f);
	while (!found) {
		found = sc_strlist_has(set, b.data);
		slash = strrchr(b.data, '/');
		if (!slash)
			break;
		sc_buf_setlen(&b, (size_t)(slash - b.data));
	}
	sc_buf_release(&b);
	return found;
}

/* The deny rules a path name meets, read or write; R_COUNT for none.  F
 * is the name folded, NAME as spelled. */
enum rule_id pol_protected_rule(const struct judge *j, const char *f,
				const char *name, int write)
{
	if (sc_protected_is(SC_PROT_GIT, f))
		return R_GIT_DIR;
	/* Before the secret names: an included .env.test is named by its
	 * own rule, whatever its name looks like.  Folded, the list also
	 * denies .ENV.test; but where names do not fold that is another
	 * file, not the person's, and a secret: it stays deny.secret-file,
	 * which the drivers hide from the sandbox and learn to mask. */
	if (path_in_set(&j->p->included, f))
		return is_secret(f) &&
		       !path_in_set(&j->p->included_exact, name) ?
		       R_SECRET : R_INCLUDED;
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

enum rule_id pol_ask_rule(const struct judge *j, const char *f)
{
	if (is_agent_context(f))
		return R_AGENT_CONTEXT;
	if (is_manifest(f))
		return R_MANIFEST;
	if (sc_strlist_has(&j->p->frozen, f))
		return R_FROZEN;
	if (j->p->mode == SC_MODE_SPEC && !is_own_artifact(j->p, f))
		return R_SPEC_MODE;
	return R_COUNT;
}

enum rule_id pol_status_rule(int status)
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

const char *pol_show_rel(const char *rel)
{
	return *rel ? rel : ".";
}

/*
 * Judge a read or a write of PATH from CWD.  Every name the file has (as
 * spelled, canonical, hard links) meets the protected-name rules.
 */
void pol_judge_path(struct judge *j, const char *cwd, const char *path,
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
		pol_note(j, pol_status_rule(st),
			 spelled.len ? spelled.data : ".");
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
		r = pol_protected_rule(j, f.data, name, write);
		if (r != R_COUNT)
			pol_note(j, r, pol_show_rel(res.rel));
		if (write && ask == R_COUNT)
			ask = pol_ask_rule(j, f.data);
	}
	if (st == SC_PATH_HARDLINK)
		pol_note(j, R_HARDLINK, pol_show_rel(res.rel));
	if (write && j->p->mode == SC_MODE_EXPLORE)
		pol_note(j, R_EXPLORE, pol_show_rel(res.rel));
	if (write && !*res.rel)
		pol_note(j, R_WRITE_ROOT, ".");
	if (ask != R_COUNT)
		pol_note(j, ask, pol_show_rel(res.rel));
	k = write ? (j->p->mode == SC_MODE_SPEC ? R_SPEC_ARTIFACT : R_WRITE)
		  : R_READ;
	pol_note(j, (enum rule_id)k, pol_show_rel(res.rel));
	sc_buf_release(&f);
	sc_path_release(&res);
}

/* ---- commands ------------------------------------------------------ */

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
void pol_cmd_object(const struct judge *j, const struct ctx *c,
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
void pol_line_object(const struct ctx *c, const char *line, size_t len,
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
void pol_cmd_name(const struct sc_sw_word *w, struct sc_buf *out)
{
	const char *s = w->s, *slash = strrchr(s, '/');

	sc_buf_reset(out);
	sc_buf_adds(out, "");
	if (slash)
		s = slash + 1;
	sc_path_fold(s, strlen(s), out);
}

/* A program named by path runs a file the lists cannot vouch for. */
int pol_system_program(const struct sc_sw_word *w)
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
