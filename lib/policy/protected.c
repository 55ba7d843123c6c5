/*
 * The protected names: one table, read by the policy, printed for the guard
 * and the sandbox (protected.h).
 */
#include <string.h>

#include "buf.h"
#include "paths.h"
#include "pattern.h"
#include "protected.h"
#include "record.h"

/* Where in a path an entry's glob is matched. */
enum scope {
	LAST,   /* the last component */
	ANY,    /* any component, or run of components ("a/b"): a literal */
	TOP,    /* the first component (a literal name) */
	CHILD,  /* "DIR/GLOB": the last component, below a directory DIR */
};

struct entry {
	unsigned char class;    /* enum sc_prot_class */
	unsigned char scope;    /* enum scope */
	const char *glob;       /* folded: lower case */
	const char *unless;     /* LAST only: a suffix that takes a name out */
	const char *spelled;    /* on disk, when not the glob itself */
};

#define E(c, s, g) { SC_PROT_##c, s, g, NULL, NULL }
/* id_rsa, id_rsa.old and id_rsa-cert are private; id_rsa.pub is public */
#define PRIVATE(g) { SC_PROT_SECRET, LAST, g "*", ".pub", NULL }
/* A secret whose name on disk has capitals: matched folded, hidden as is */
#define SECRET_AS(s, g, spelled) { SC_PROT_SECRET, s, g, NULL, spelled }

static const struct entry table[] = {
	E(GIT, ANY, ".git"),

	E(SECRET, ANY, ".ssh"), E(SECRET, ANY, ".aws"),
	E(SECRET, ANY, ".gnupg"), E(SECRET, ANY, ".azure"),
	E(SECRET, ANY, ".kube"), E(SECRET, ANY, ".docker"),
	E(SECRET, ANY, ".password-store"),
	/* every literal secret is also hidden in the home by the sandbox
	 * (sc_protected_home): a credential is added here, once */
	E(SECRET, ANY, ".config/gh"), E(SECRET, ANY, ".config/gcloud"),
	E(SECRET, ANY, ".config/git/credentials"),
	E(SECRET, ANY, ".cargo/credentials"),
	E(SECRET, ANY, ".cargo/credentials.toml"),
	E(SECRET, ANY, ".local/share/keyrings"),
	SECRET_AS(ANY, "library/keychains", "Library/Keychains"),
	E(SECRET, LAST, ".vault-token"),
	E(SECRET, LAST, ".netrc"), E(SECRET, LAST, "_netrc"),
	E(SECRET, LAST, ".npmrc"), E(SECRET, LAST, ".pypirc"),
	E(SECRET, LAST, ".git-credentials"), E(SECRET, LAST, ".pgpass"),
	E(SECRET, LAST, ".htpasswd"), E(SECRET, LAST, "identity"),
	E(SECRET, LAST, "credentials.json"), E(SECRET, LAST, ".yarnrc.yml"),
	PRIVATE(".env"), PRIVATE("id_rsa"), PRIVATE("id_dsa"),
	PRIVATE("id_ecdsa"), PRIVATE("id_ed25519"),
	E(SECRET, LAST, "*.pem"), E(SECRET, LAST, "*.key"),
	E(SECRET, LAST, "*.p12"), E(SECRET, LAST, "*.pfx"),
	E(SECRET, LAST, "*.jks"), E(SECRET, LAST, "*.keystore"),
	E(SECRET, LAST, "*.ppk"), E(SECRET, LAST, "*.asc"),
	E(SECRET, LAST, "*.gpg"), E(SECRET, LAST, "*.kdbx"),
	E(SECRET, LAST, "*.tfstate"),

	E(SPEC, TOP, ".specify"), E(SPEC, TOP, "specs"),
	E(SPEC, TOP, "openspec"),

	/* CI, hooks managers, dev containers */
	E(VERIFICATION, ANY, ".github"), E(VERIFICATION, ANY, ".gitlab"),
	E(VERIFICATION, ANY, ".circleci"), E(VERIFICATION, ANY, ".buildkite"),
	E(VERIFICATION, ANY, ".forgejo"), E(VERIFICATION, ANY, ".gitea"),
	E(VERIFICATION, ANY, ".woodpecker"), E(VERIFICATION, ANY, ".husky"),
	E(VERIFICATION, ANY, ".devcontainer"),
	E(VERIFICATION, LAST, ".gitlab-ci.yml"),
	E(VERIFICATION, LAST, ".travis.yml"),
	E(VERIFICATION, LAST, "azure-pipelines.yml"),
	E(VERIFICATION, LAST, "jenkinsfile"),
	E(VERIFICATION, LAST, "bitbucket-pipelines.yml"),
	E(VERIFICATION, LAST, ".woodpecker.yml"),
	E(VERIFICATION, LAST, ".pre-commit-config.yaml"),
	E(VERIFICATION, LAST, "lefthook.yml"),
	E(VERIFICATION, LAST, ".lefthook.yml"),
	/* speccoder's own */
	E(VERIFICATION, LAST, "speccoder.conf"),
	E(VERIFICATION, LAST, "skills.lock"),
	/* which of the person's files an attempt copies in (worktree.include) */
	E(VERIFICATION, LAST, ".worktreeinclude"),
	/* build and test runners, and what they load */
	E(VERIFICATION, LAST, "makefile"), E(VERIFICATION, LAST, "gnumakefile"),
	E(VERIFICATION, LAST, "justfile"), E(VERIFICATION, LAST, ".justfile"),
	E(VERIFICATION, LAST, "pytest.ini"), E(VERIFICATION, LAST, "tox.ini"),
	E(VERIFICATION, LAST, "setup.cfg"), E(VERIFICATION, LAST, "conftest.py"),
	E(VERIFICATION, LAST, "noxfile.py"), E(VERIFICATION, LAST, "deny.toml"),
	E(VERIFICATION, LAST, "nextest.toml"),
	E(VERIFICATION, LAST, ".nextest.toml"),
	E(VERIFICATION, CHILD, ".cargo/config*"),
	E(VERIFICATION, LAST, "jest.config.*"),
	E(VERIFICATION, LAST, "jest.setup.*"),
	E(VERIFICATION, LAST, "vitest.config.*"),
	E(VERIFICATION, LAST, "vitest.workspace.*"),
	E(VERIFICATION, LAST, ".vitest*"), E(VERIFICATION, LAST, ".mocharc*"),
	E(VERIFICATION, LAST, "karma.conf.*"),
	E(VERIFICATION, LAST, "playwright.config.*"),
	E(VERIFICATION, LAST, "cypress.config.*"),
	/* files git runs or obeys */
	E(VERIFICATION, LAST, ".gitmodules"),
	E(VERIFICATION, LAST, ".gitattributes"),
	/* files a tool runs when the person next uses it: direnv, npm's
	 * script-shell and node-options, yarn's yarnPath, pnpm's hooks, bun's
	 * preload (.npmrc and .yarnrc.yml are secrets too: that rule wins) */
	E(VERIFICATION, LAST, ".envrc"), E(VERIFICATION, LAST, ".npmrc"),
	E(VERIFICATION, LAST, ".yarnrc"), E(VERIFICATION, LAST, ".yarnrc.yml"),
	E(VERIFICATION, LAST, ".pnpmfile.cjs"),
	E(VERIFICATION, LAST, "bunfig.toml"),

	E(AGENT_CONFIG, ANY, ".claude"), E(AGENT_CONFIG, ANY, ".agents"),
	E(AGENT_CONFIG, ANY, ".agent"), E(AGENT_CONFIG, ANY, ".codex"),
	E(AGENT_CONFIG, ANY, ".gemini"), E(AGENT_CONFIG, ANY, ".opencode"),
	E(AGENT_CONFIG, ANY, ".cursor"), E(AGENT_CONFIG, ANY, ".kiro"),
	E(AGENT_CONFIG, ANY, ".windsurf"), E(AGENT_CONFIG, ANY, ".continue"),
	E(AGENT_CONFIG, ANY, ".roo"), E(AGENT_CONFIG, ANY, ".clinerules"),
	E(AGENT_CONFIG, ANY, ".aider"), E(AGENT_CONFIG, ANY, ".vscode"),
	E(AGENT_CONFIG, ANY, ".idea"), E(AGENT_CONFIG, ANY, ".zed"),
	E(AGENT_CONFIG, ANY, ".amazonq"), E(AGENT_CONFIG, ANY, ".junie"),
	E(AGENT_CONFIG, ANY, ".goose"), E(AGENT_CONFIG, ANY, ".specstory"),
	E(AGENT_CONFIG, ANY, ".qwen"), E(AGENT_CONFIG, ANY, ".crush"),
	E(AGENT_CONFIG, ANY, ".augment"), E(AGENT_CONFIG, ANY, ".trae"),
	E(AGENT_CONFIG, LAST, ".mcp.json"), E(AGENT_CONFIG, LAST, "mcp.json"),
	E(AGENT_CONFIG, LAST, "opencode.json"),
	E(AGENT_CONFIG, LAST, "opencode.jsonc"),
	E(AGENT_CONFIG, LAST, ".cursorrules"),
	E(AGENT_CONFIG, LAST, ".windsurfrules"),
	E(AGENT_CONFIG, LAST, ".aider.conf.yml"),
	E(AGENT_CONFIG, LAST, ".roomodes"),
	E(AGENT_CONFIG, LAST, ".aiderignore"),
	E(AGENT_CONFIG, LAST, ".cursorignore"),
	E(AGENT_CONFIG, LAST, ".codeiumignore"),
	E(AGENT_CONFIG, LAST, ".geminiignore"),

	E(AGENT_CONTEXT, LAST, "agents.md"), E(AGENT_CONTEXT, LAST, "claude.md"),
	E(AGENT_CONTEXT, LAST, "gemini.md"),
	E(AGENT_CONTEXT, LAST, "claude.local.md"),
	E(AGENT_CONTEXT, LAST, "agent.md"),
	E(AGENT_CONTEXT, LAST, "agents.override.md"),
	E(AGENT_CONTEXT, LAST, "copilot-instructions.md"),
	E(AGENT_CONTEXT, LAST, "conventions.md"),

	E(MANIFEST, LAST, "package.json"), E(MANIFEST, LAST, "package-lock.json"),
	E(MANIFEST, LAST, "npm-shrinkwrap.json"), E(MANIFEST, LAST, "yarn.lock"),
	E(MANIFEST, LAST, "pnpm-lock.yaml"),
	E(MANIFEST, LAST, "pnpm-workspace.yaml"), E(MANIFEST, LAST, "bun.lockb"),
	E(MANIFEST, LAST, "bun.lock"), E(MANIFEST, LAST, "deno.json"),
	E(MANIFEST, LAST, "deno.jsonc"), E(MANIFEST, LAST, "deno.lock"),
	E(MANIFEST, LAST, "cargo.toml"), E(MANIFEST, LAST, "cargo.lock"),
	E(MANIFEST, LAST, "go.mod"), E(MANIFEST, LAST, "go.sum"),
	E(MANIFEST, LAST, "go.work"), E(MANIFEST, LAST, "pyproject.toml"),
	E(MANIFEST, LAST, "pipfile"), E(MANIFEST, LAST, "pipfile.lock"),
	E(MANIFEST, LAST, "poetry.lock"), E(MANIFEST, LAST, "uv.lock"),
	E(MANIFEST, LAST, "setup.py"), E(MANIFEST, LAST, "environment.yml"),
	E(MANIFEST, LAST, "gemfile"), E(MANIFEST, LAST, "gemfile.lock"),
	E(MANIFEST, LAST, "composer.json"), E(MANIFEST, LAST, "composer.lock"),
	E(MANIFEST, LAST, "pom.xml"), E(MANIFEST, LAST, "build.gradle"),
	E(MANIFEST, LAST, "build.gradle.kts"),
	E(MANIFEST, LAST, "settings.gradle"),
	E(MANIFEST, LAST, "settings.gradle.kts"),
	E(MANIFEST, LAST, "gradle.properties"),
	E(MANIFEST, LAST, "packages.config"),
	E(MANIFEST, LAST, "directory.packages.props"),
	E(MANIFEST, LAST, "mix.exs"), E(MANIFEST, LAST, "mix.lock"),
	E(MANIFEST, LAST, "package.swift"), E(MANIFEST, LAST, "package.resolved"),
	E(MANIFEST, LAST, "podfile"), E(MANIFEST, LAST, "podfile.lock"),
	E(MANIFEST, LAST, "pubspec.yaml"), E(MANIFEST, LAST, "pubspec.lock"),
	E(MANIFEST, LAST, "vcpkg.json"), E(MANIFEST, LAST, "conanfile.txt"),
	E(MANIFEST, LAST, "conanfile.py"), E(MANIFEST, LAST, "flake.nix"),
	E(MANIFEST, LAST, "flake.lock"), E(MANIFEST, LAST, "rust-toolchain"),
	E(MANIFEST, LAST, "rust-toolchain.toml"), E(MANIFEST, LAST, ".nvmrc"),
	E(MANIFEST, LAST, ".node-version"), E(MANIFEST, LAST, ".python-version"),
	E(MANIFEST, LAST, ".tool-versions"), E(MANIFEST, LAST, "stack.yaml"),
	E(MANIFEST, LAST, "cabal.project"),
	E(MANIFEST, LAST, "requirements*.txt"),
	E(MANIFEST, LAST, "requirements*.in"),
	E(MANIFEST, LAST, "*.csproj"), E(MANIFEST, LAST, "*.fsproj"),
	E(MANIFEST, LAST, "*.vbproj"), E(MANIFEST, LAST, "*.cabal"),
	E(MANIFEST, LAST, "*.gemspec"), E(MANIFEST, LAST, "*.nuspec"),
};

#define TABLE_NR (sizeof(table) / sizeof(table[0]))

static const char *const class_names[SC_PROT_NCLASSES] = {
	"git", "secret", "spec", "verification", "agent-config",
	"agent-context", "manifest",
};

const char *sc_protected_class_name(enum sc_prot_class c)
{
	return (unsigned)c < SC_PROT_NCLASSES ? class_names[c] : "unknown";
}

int sc_protected_watched(enum sc_prot_class c)
{
	return c == SC_PROT_SPEC || c == SC_PROT_VERIFICATION ||
	       c == SC_PROT_AGENT_CONFIG || c == SC_PROT_AGENT_CONTEXT;
}

/* ---- matching ---------------------------------------------------------- */

static const char *last_comp(const char *f)
{
	const char *s = strrchr(f, '/');

	return s ? s + 1 : f;
}

/* The last two components of F ("dir/name"), or NULL for a single one. */
static const char *last_two(const char *f)
{
	const char *s = strrchr(f, '/');

	if (!s)
		return NULL;
	while (s > f && s[-1] != '/')
		s--;
	return s;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* 1 when the component of F starting at C (length N) is NAME; NAME is one
 * component. */
static int comp_is(const char *c, size_t n, const char *name)
{
	return strlen(name) == n && !memcmp(c, name, n);
}

/* 1 when NAME, one component or a run of them ("a/b"), is in F. */
static int any_comp_is(const char *f, const char *name)
{
	size_t m = strlen(name);

	while (*f) {
		if (!strncmp(f, name, m) && (f[m] == '/' || !f[m]))
			return 1;
		f += strcspn(f, "/");
		f += *f == '/';
	}
	return 0;
}

static int entry_matches(const struct entry *e, const char *f)
{
	const char *two;

	switch (e->scope) {
	case LAST:
		return sc_wildmatch(e->glob, last_comp(f), 1) &&
		       !(e->unless && ends_with(last_comp(f), e->unless));
	case ANY:
		return any_comp_is(f, e->glob);
	case TOP:
		return comp_is(f, strcspn(f, "/"), e->glob);
	case CHILD:
		two = last_two(f);
		return two && sc_wildmatch(e->glob, two, 1);
	}
	return 0;
}

/* 1 when entry E is a literal name: no glob, no exception. */
static int literal(const struct entry *e)
{
	return e->scope != CHILD && !e->unless && !strpbrk(e->glob, "*?[");
}

/* The I-th literal entry of class C, from 0; NULL past the last. */
static const struct entry *nth_literal(enum sc_prot_class c, size_t i)
{
	size_t k;

	for (k = 0; k < TABLE_NR; k++)
		if (table[k].class == c && literal(&table[k]) && !i--)
			return &table[k];
	return NULL;
}

const char *sc_protected_name(enum sc_prot_class c, size_t i)
{
	const struct entry *e = nth_literal(c, i);

	return e ? e->glob : NULL;
}

const char *sc_protected_home(size_t i)
{
	const struct entry *e = nth_literal(SC_PROT_SECRET, i);

	return !e ? NULL : e->spelled ? e->spelled : e->glob;
}

int sc_protected_is(enum sc_prot_class c, const char *f)
{
	size_t i;

	for (i = 0; i < TABLE_NR; i++)
		if (table[i].class == c && entry_matches(&table[i], f))
			return 1;
	return 0;
}

/* ---- planning artifacts ------------------------------------------------ */

static const char *const kit_names[] = { "spec.md", "plan.md", "tasks.md",
	"research.md", "data-model.md", "quickstart.md", NULL };
static const char *const kit_dirs[] = { "contracts", "checklists", NULL };
static const char *const openspec_names[] = { "proposal.md", "design.md",
	"tasks.md", NULL };

static int in_list(const char *s, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (comp_is(s, n, *list))
			return 1;
	return 0;
}

/* The I-th component (from 0) of F and its length in *N; NULL past the end. */
static const char *comp(const char *f, size_t i, size_t *n)
{
	while (i--) {
		f = strchr(f, '/');
		if (!f)
			return NULL;
		f++;
	}
	*n = strcspn(f, "/");
	return f;
}

static size_t nr_comps(const char *f)
{
	size_t n = *f ? 1 : 0;

	for (; *f; f++)
		n += *f == '/';
	return n;
}

/* 1 when component I of F is NAME. */
static int comp_at_is(const char *f, size_t i, const char *name)
{
	size_t n;
	const char *c = comp(f, i, &n);

	return c && comp_is(c, n, name);
}

/* 1 when component I of F is in LIST. */
static int comp_at_in(const char *f, size_t i, const char *const *list)
{
	size_t n;
	const char *c = comp(f, i, &n);

	return c && in_list(c, n, list);
}

int sc_protected_spec_artifact(const char *f, const char *feature)
{
	const char *last = last_comp(f), *name;
	size_t n = nr_comps(f), off = 0, at, len;
	int art;

	if (comp_at_is(f, 0, ".specify") && comp_at_is(f, 1, "specs"))
		off = 1;
	if (comp_at_is(f, 0, "specs") || off) {
		at = 1 + off;
		art = (n == 3 + off && in_list(last, strlen(last), kit_names)) ||
		      (n >= 4 + off && comp_at_in(f, 2 + off, kit_dirs));
	} else if (comp_at_is(f, 0, "openspec") &&
		   comp_at_is(f, 1, "changes") && n >= 4) {
		at = 2;
		art = (n == 4 && in_list(last, strlen(last), openspec_names)) ||
		      (n >= 6 && comp_at_is(f, 3, "specs") &&
		       !strcmp(last, "spec.md"));
	} else {
		return 0;
	}
	if (!art || !feature)
		return art;
	name = comp(f, at, &len);
	return name && comp_is(name, len, feature);
}

/* ---- the patterns ------------------------------------------------------ */

/* NAME with the glob's special characters escaped. */
static void add_literal(struct sc_buf *b, const char *name)
{
	for (; *name; name++) {
		if (strchr("*?[]\\!", *name))
			sc_buf_addch(b, '\\');
		sc_buf_addch(b, *name);
	}
}

struct emit {
	sc_protected_fn fn;
	void *ctx;
	struct sc_buf b;
	int ret;
};

static void emitf(struct emit *e, enum sc_prot_class c, const char *fmt,
		  const char *a, const char *feature, const char *b)
{
	if (e->ret)
		return;
	sc_buf_reset(&e->b);
	for (; *fmt; fmt++) {
		switch (*fmt) {
		case '%': sc_buf_adds(&e->b, a); break;
		case '@':
			if (feature)
				add_literal(&e->b, feature);
			else
				sc_buf_addch(&e->b, '*');
			break;
		case '&': sc_buf_adds(&e->b, b); break;
		default: sc_buf_addch(&e->b, *fmt);
		}
	}
	e->ret = e->fn(e->b.data, c, e->ctx);
}

/*
 * The spec tree, and in spec mode its artifacts taken back out.  These are
 * the only negations, and they come first: every later pattern adds, so no
 * negation can undo another class.
 */
static void emit_spec(struct emit *e, int spec_mode, const char *feature)
{
	const char *const *n;
	size_t i;

	for (i = 0; i < TABLE_NR; i++)
		if (table[i].class == SC_PROT_SPEC)
			emitf(e, SC_PROT_SPEC, "/%", table[i].glob, NULL, NULL);
	if (!spec_mode)
		return;
	for (n = kit_names; *n; n++) {
		emitf(e, SC_PROT_SPEC, "!/specs/@/%", *n, feature, NULL);
		emitf(e, SC_PROT_SPEC, "!/.specify/specs/@/%", *n, feature, NULL);
	}
	for (n = kit_dirs; *n; n++) {
		emitf(e, SC_PROT_SPEC, "!/specs/@/%/**", *n, feature, NULL);
		emitf(e, SC_PROT_SPEC, "!/.specify/specs/@/%/**", *n, feature,
		      NULL);
	}
	for (n = openspec_names; *n; n++)
		emitf(e, SC_PROT_SPEC, "!/openspec/changes/@/%", *n, feature,
		      NULL);
	emitf(e, SC_PROT_SPEC, "!/openspec/changes/@/specs/*/**/spec.md", "",
	      feature, NULL);
}

/*
 * GLOB except the names ending in UNLESS, without a negation: the names no
 * longer than GLOB's fixed part plus |UNLESS| - 1 characters, then for each
 * position of UNLESS's last |UNLESS| characters one pattern that differs
 * there.  ("id_rsa*" less ".pub": id_rsa, id_rsa?, id_rsa??, id_rsa???,
 * id_rsa*[!.]???, id_rsa*?[!p]??, id_rsa*??[!u]?, id_rsa*???[!b].)  Exact
 * when the fixed part cannot end a name in UNLESS, as for every entry.
 */
static void emit_unless(struct emit *e, const struct entry *t)
{
	size_t m = strlen(t->unless), k, i;
	size_t fixed = strlen(t->glob) - 1;   /* the glob is "PREFIX*" */
	struct sc_buf pre = SC_BUF_INIT, pat = SC_BUF_INIT;

	sc_buf_add(&pre, t->glob, fixed);
	for (k = 0; k < m; k++) {
		sc_buf_reset(&pat);
		sc_buf_adds(&pat, pre.data);
		for (i = 0; i < k; i++)
			sc_buf_addch(&pat, '?');
		emitf(e, t->class, "%", pat.data, NULL, NULL);
	}
	for (k = 0; k < m; k++) {
		sc_buf_reset(&pat);
		sc_buf_addf(&pat, "%s*", pre.data);
		for (i = 0; i < m; i++) {
			if (i == k)
				sc_buf_addf(&pat, "[!%c]", t->unless[i]);
			else
				sc_buf_addch(&pat, '?');
		}
		emitf(e, t->class, "%", pat.data, NULL, NULL);
	}
	sc_buf_release(&pre);
	sc_buf_release(&pat);
}

static void emit_entry(struct emit *e, const struct entry *t)
{
	switch (t->scope) {
	case LAST:
		if (t->unless)
			emit_unless(e, t);
		else
			emitf(e, t->class, "%", t->glob, NULL, NULL);
		break;
	case ANY:
		/* the name itself at any depth, and what is beneath it even
		 * where a spec negation matched; a name with a '/' would be
		 * anchored at the top, so it is led by any directories */
		emitf(e, t->class, strchr(t->glob, '/') ? "**/%" : "%",
		      t->glob, NULL, NULL);
		emitf(e, t->class, "**/%/**", t->glob, NULL, NULL);
		break;
	case CHILD:
		emitf(e, t->class, "**/%", t->glob, NULL, NULL);
		break;
	case TOP:
		break;          /* the spec tree: emit_spec */
	}
}

int sc_protected_patterns(int spec_mode, const char *feature,
			  sc_protected_fn fn, void *ctx)
{
	struct emit e = { fn, ctx, SC_BUF_INIT, 0 };
	size_t i;

	emit_spec(&e, spec_mode, feature);
	for (i = 0; i < TABLE_NR && !e.ret; i++)
		emit_entry(&e, &table[i]);
	sc_buf_release(&e.b);
	return e.ret;
}

struct printer {
	struct sc_record r;
	struct sc_output *out;
};

static int print_one(const char *pattern, enum sc_prot_class c, void *ctx)
{
	struct printer *pr = ctx;

	sc_record_reset(&pr->r);
	sc_record_adds(&pr->r, "type", "protected");
	sc_record_adds(&pr->r, "pattern", pattern);
	sc_record_adds(&pr->r, "class", sc_protected_class_name(c));
	sc_record_adds(&pr->r, "watch", sc_protected_watched(c) ? "yes" : "no");
	return sc_record_write(pr->out, &pr->r) < 0 ? -1 : 0;
}

int sc_protected_print(int spec_mode, const char *feature,
		       struct sc_output *out)
{
	struct printer pr;
	struct sc_buf folded = SC_BUF_INIT;
	int ret;

	sc_record_init(&pr.r);
	pr.out = out;
	if (feature)
		sc_path_fold(feature, strlen(feature), &folded);
	ret = sc_protected_patterns(spec_mode, feature ? folded.data : NULL,
				    print_one, &pr);
	sc_record_release(&pr.r);
	sc_buf_release(&folded);
	return ret;
}
