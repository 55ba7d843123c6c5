#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "paths.h"
#include "pattern.h"
#include "protected.h"

/*
 * The printed patterns and the policy's predicates are one list: every
 * path the policy protects matches the patterns, and every path the
 * patterns match is protected or lies beneath a protected name.  Checked
 * over every path of one or two of the words below (protected names in
 * several letter cases, their near misses, ordinary names, planning
 * artifacts) and of three with the first two from dirs[], in each mode.
 */
static const char *const words[] = {
	"src", "a", "lib", "README.md", "main.c", "config", "config.toml",
	".git", ".GIT", "git", ".gitignore", ".gitattributes", ".gitmodules",
	".ssh", "id_rsa", "id_rsa.pub", "ID_RSA.old", "id_ed25519-cert",
	"id_rsaub", "id_rsa.pu", ".env", ".env.local", ".envrc", ".env.pub",
	"env", "server.pem", "x.key", "keys", "identity", ".npmrc",
	".yarnrc", ".yarnrc.yml", "credentials.json", ".config", "gh", "GH",
	".vault-token", ".pgpass",
	"specs", "Specs", "openspec", "changes", ".specify", "f1", "F1", "f2",
	"spec.md", "plan.md", "tasks.md", "contracts", "checklists",
	"proposal.md", "design.md",
	".github", "workflows", "ci.yml", "Makefile", "GNUmakefile",
	"makefile.am", ".cargo", "config.d", "jest.config.js", "jest.configx",
	".circleci", ".pre-commit-config.yaml", ".husky", "speccoder.conf",
	".claude", "settings.json", ".vscode", "tasks.json", ".mcp.json",
	"CLAUDE.md", "AGENTS.md", "claude.md.bak",
	"package.json", "requirements.txt", "requirements-dev.in",
	"requirements.py", "app.csproj", "Cargo.toml",
};
#define NWORDS (sizeof(words) / sizeof(words[0]))

/* The words that lead deeper paths: directories, and names of protected
 * files used as directories. */
static const char *const dirs[] = {
	"src", ".git", ".ssh", "specs", "Specs", "openspec", "changes",
	".specify", "f1", "F1", "contracts", ".github", ".cargo", ".claude",
	".vscode", "config.d", "id_rsa", "Makefile", ".env", "CLAUDE.md",
	".config", ".CONFIG", "gh",
};
#define NDIRS (sizeof(dirs) / sizeof(dirs[0]))

struct mode {
	int spec_mode;
	const char *feature;   /* folded */
	int watched_only;
};

static int protects(const struct mode *m, enum sc_prot_class c,
		    const char *f)
{
	if (m->watched_only && !sc_protected_watched(c))
		return 0;
	if (!sc_protected_is(c, f))
		return 0;
	return c != SC_PROT_SPEC || !m->spec_mode ||
	       !sc_protected_spec_artifact(f, m->feature);
}

static int policy_protects(const struct mode *m, const char *f)
{
	int c;

	for (c = 0; c < SC_PROT_NCLASSES; c++)
		if (protects(m, (enum sc_prot_class)c, f))
			return 1;
	return 0;
}

/* F or one of its ancestors is protected. */
static int closure(const struct mode *m, const char *f)
{
	char buf[512];
	char *slash;

	snprintf(buf, sizeof(buf), "%s", f);
	for (;;) {
		if (policy_protects(m, buf))
			return 1;
		slash = strrchr(buf, '/');
		if (!slash)
			return 0;
		*slash = '\0';
	}
}

struct collect {
	const struct mode *m;
	struct sc_buf text;
};

static int collect(const char *pattern, enum sc_prot_class c, void *ctx)
{
	struct collect *col = ctx;

	if (col->m->watched_only && !sc_protected_watched(c))
		return 0;
	sc_buf_addf(&col->text, "%s\n", pattern);
	return 0;
}

static void load(const struct mode *m, struct sc_patterns *p)
{
	struct collect col = { m, SC_BUF_INIT };
	struct sc_pattern_error err;

	sc_patterns_init(p);
	assert_int_equal(sc_protected_patterns(m->spec_mode, m->feature,
					       collect, &col), 0);
	assert_int_equal(sc_patterns_parse(p, col.text.data, col.text.len,
					   &err), 0);
	sc_buf_release(&col.text);
}

static unsigned check_path(const struct mode *m, const struct sc_patterns *p,
			   const char *rel)
{
	struct sc_buf f = SC_BUF_INIT;
	int want, got;
	unsigned bad = 0;

	sc_path_fold_rel(rel, &f);
	want = policy_protects(m, f.data);
	got = sc_patterns_match(p, f.data, 0);
	if ((want && !got) || (got && !closure(m, f.data))) {
		fprintf(stderr, "# mode spec=%d feature=%s watched=%d: %s: "
			"policy %d, patterns %d\n", m->spec_mode,
			m->feature ? m->feature : "-", m->watched_only, rel,
			want, got);
		bad = 1;
	}
	sc_buf_release(&f);
	return bad;
}

static void check_mode(const struct mode *m)
{
	struct sc_patterns p;
	char path[512];
	size_t i, j, k;
	unsigned bad = 0, n = 0;

	load(m, &p);
	for (i = 0; i < NWORDS; i++) {
		bad += check_path(m, &p, words[i]);
		for (j = 0; j < NWORDS; j++) {
			snprintf(path, sizeof(path), "%s/%s", words[i], words[j]);
			bad += check_path(m, &p, path);
			n++;
		}
	}
	for (i = 0; i < NDIRS; i++)
		for (j = 0; j < NDIRS; j++)
			for (k = 0; k < NWORDS; k++) {
				snprintf(path, sizeof(path), "%s/%s/%s",
					 dirs[i], dirs[j], words[k]);
				bad += check_path(m, &p, path);
				n++;
			}
	/* the deep artifacts of OpenSpec and spec-kit */
	bad += check_path(m, &p, "openspec/changes/f1/specs/auth/spec.md");
	bad += check_path(m, &p, "openspec/changes/f1/specs/spec.md");
	bad += check_path(m, &p, "openspec/changes/f1/specs/a/b/spec.md");
	bad += check_path(m, &p, "specs/f1/contracts/api/v1.yaml");
	bad += check_path(m, &p, ".specify/specs/f1/contracts/x/.github/y");
	bad += check_path(m, &p, "specs/f1/contracts/a/.env");
	bad += check_path(m, &p, "specs/f1/contracts/a/id_rsa");
	sc_patterns_release(&p);
	assert_true(n > 30000);
	assert_int_equal(bad, 0);
}

static void test_every_mode_agrees(void **state)
{
	static const struct mode modes[] = {
		{ 0, NULL, 0 }, { 0, NULL, 1 },
		{ 1, NULL, 0 }, { 1, NULL, 1 },
		{ 1, "f1", 0 }, { 1, "f1", 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		check_mode(&modes[i]);
}

/* The names of the attacks on the guard's old, shorter list. */
static void test_watched_names(void **state)
{
	static const char *const watched[] = {
		"GNUmakefile", ".vscode/tasks.json", ".gitattributes", ".envrc",
		".circleci/config.yml", ".pre-commit-config.yaml", "Makefile",
		"sub/.github/workflows/x.yml", ".Claude/settings.json",
		"CLAUDE.md", "specs/f1/spec.md", "SPECCODER.CONF",
		".cargo/config.toml", "x/.npmrc", ".yarnrc", NULL,
	};
	static const char *const unwatched[] = {
		"src/main.c", ".env", "id_rsa", "package.json", ".git/config",
		"docs/makefile.md", NULL,
	};
	const struct mode m = { 0, NULL, 1 };
	struct sc_patterns p;
	struct sc_buf f = SC_BUF_INIT;
	size_t i;

	(void)state;
	load(&m, &p);
	for (i = 0; watched[i]; i++) {
		sc_path_fold_rel(watched[i], &f);
		if (!sc_patterns_match(&p, f.data, 0))
			fprintf(stderr, "# not watched: %s\n", watched[i]);
		assert_true(sc_patterns_match(&p, f.data, 0));
	}
	for (i = 0; unwatched[i]; i++) {
		sc_path_fold_rel(unwatched[i], &f);
		if (sc_patterns_match(&p, f.data, 0))
			fprintf(stderr, "# watched: %s\n", unwatched[i]);
		assert_false(sc_patterns_match(&p, f.data, 0));
	}
	sc_buf_release(&f);
	sc_patterns_release(&p);
}

/* The spec tree is protected; planning's own artifacts only in spec mode. */
static void test_spec_artifacts(void **state)
{
	(void)state;
	assert_true(sc_protected_spec_artifact("specs/f1/spec.md", NULL));
	assert_true(sc_protected_spec_artifact("specs/f1/spec.md", "f1"));
	assert_false(sc_protected_spec_artifact("specs/f1/spec.md", "f2"));
	assert_true(sc_protected_spec_artifact(".specify/specs/f1/plan.md",
					       "f1"));
	assert_true(sc_protected_spec_artifact("specs/f1/contracts/a/b.yaml",
					       "f1"));
	assert_false(sc_protected_spec_artifact("specs/f1/contracts", "f1"));
	assert_false(sc_protected_spec_artifact("specs/f1/notes.md", "f1"));
	assert_true(sc_protected_spec_artifact(
		"openspec/changes/f1/specs/auth/spec.md", "f1"));
	assert_false(sc_protected_spec_artifact(
		"openspec/changes/f1/specs/spec.md", "f1"));
	assert_false(sc_protected_spec_artifact("src/spec.md", NULL));
	assert_true(sc_protected_is(SC_PROT_SPEC, "specs"));
	assert_false(sc_protected_is(SC_PROT_SPEC, "src/specs/x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_mode_agrees),
		cmocka_unit_test(test_watched_names),
		cmocka_unit_test(test_spec_artifacts),
	};

	return SC_RUN_TESTS(tests);
}
