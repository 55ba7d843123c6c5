/*
 * The credentials every sandbox hides under a home (sc_protected_home) and
 * the secrets the policy denies are one list: every path the sandbox hides
 * is deny.secret-file to sc-classify where a model names it in the root
 * (a project may hold a .vault-token or a .config/gh of its own), every
 * exact secret name the policy knows is hidden under the home, and
 * sc-sandbox-exec(1) and the Seatbelt profile name each one.
 */
#include "../lib/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "config.h"
#include "io.h"
#include "paths.h"
#include "policy.h"
#include "protected.h"
#include "record.h"
#include "seatbelt.h"
#include "seccomp-filter.h"

/* Each entry is a path relative to a home: no "/", "~" or "..". */
static void test_relative(void **state)
{
	const char *h;
	size_t i;

	(void)state;
	assert_non_null(sc_protected_home(0));
	for (i = 0; (h = sc_protected_home(i)); i++) {
		assert_true(*h && *h != '/' && *h != '~');
		assert_null(strstr(h, ".."));
		assert_int_not_equal(h[strlen(h) - 1], '/');
	}
}

/* NAME as scdoc spells it after OPEN and before CLOSE ("_~/" "_"). */
static void scdoc_name(struct sc_buf *out, const char *open, const char *name,
		       const char *close)
{
	sc_buf_reset(out);
	sc_buf_adds(out, open);
	for (; *name; name++) {
		if (*name == '_' || *name == '*')
			sc_buf_addch(out, '\\');
		sc_buf_addch(out, *name);
	}
	sc_buf_adds(out, close);
}

/*
 * The text of PAGE from START to STOP names every home credential between
 * OPEN and CLOSE, and nothing more: as many OPENs as names.
 */
static void check_page(const char *page_path, const char *start,
		       const char *stop, const char *open, const char *close)
{
	struct sc_buf page = SC_BUF_INIT, want = SC_BUF_INIT;
	const char *h, *para, *end, *p;
	size_t i, n = 0;
	int missing = 0;

	assert_int_equal(sc_read_file_max(page_path, 1 << 20, &page), 0);
	para = strstr(page.data, start);
	assert_non_null(para);
	end = strstr(para, stop);
	assert_non_null(end);
	page.data[end - page.data] = '\0';
	for (i = 0; (h = sc_protected_home(i)); i++) {
		scdoc_name(&want, open, h, close);
		if (!strstr(para, want.data)) {
			print_message("# %s does not name %s\n", page_path,
				      want.data);
			missing++;
		}
	}
	for (p = para; (p = strstr(p, open)); p += strlen(open))
		n++;
	sc_buf_release(&page);
	sc_buf_release(&want);
	assert_int_equal(missing, 0);
	assert_int_equal(n, i);
}

/* sc-sandbox-exec(1) and sc-classify(1) name the list, and only it. */
static void test_documented(void **state)
{
	(void)state;
	check_page("Documentation/sc-sandbox-exec.1.scd", "Hidden by default",
		   "\n\n", "_~/", "_");
	check_page("Documentation/sc-classify.1.scd", "(a directory with all "
		   "beneath it)", "; read or written", " *", "*");
}

/* The macOS profile denies the same list under HOME. */
static void test_seatbelt(void **state)
{
	struct sc_seatbelt sb = { 0, 0, 0, SC_NET_NONE, 0, 0, 0 };
	struct sc_buf out = SC_BUF_INIT, want = SC_BUF_INIT;
	const char *h;
	size_t i;

	(void)state;
	sc_seatbelt_generate(&sb, &out);
	for (i = 0; (h = sc_protected_home(i)); i++) {
		sc_buf_reset(&want);
		sc_buf_addf(&want, "(param \"HOME\") \"/%s\")", h);
		assert_non_null(strstr(out.data, want.data));
	}
	sc_buf_release(&out);
	sc_buf_release(&want);
}

/* The rule sc-classify gives a read of root-relative PATH. */
static const char *rule_of_read(const struct sc_policy *p, const char *path)
{
	struct sc_record call;
	struct sc_verdict v;
	const char *rule;

	sc_record_init(&call);
	sc_record_adds(&call, "type", "call");
	sc_record_adds(&call, "tool", "read");
	sc_record_adds(&call, "path", path);
	sc_verdict_init(&v);
	sc_policy_judge(p, &call, &v);
	rule = v.rule;
	sc_verdict_release(&v);
	sc_record_release(&call);
	return rule;
}

static void policy_at_tmp(struct sc_policy *p, char *dir)
{
	struct sc_config cfg;

	assert_non_null(mkdtemp(dir));
	sc_config_init(&cfg);
	assert_int_equal(sc_policy_init(p, dir, SC_MODE_WORKTREE, 0, &cfg), 0);
}

/* Every home credential the sandbox hides is a secret to the policy. */
static void test_hidden_are_secret(void **state)
{
	char dir[] = "/tmp/sc-cred-XXXXXX";
	struct sc_policy p;
	static const char *const examples[] = { ".config/gh/hosts.yml",
		".vault-token", ".pgpass", "app/.CONFIG/GCloud/adc.json",
		".cargo/credentials.toml", "Library/Keychains/login.keychain-db",
		NULL };
	struct sc_buf below = SC_BUF_INIT;
	const char *h;
	size_t i, k;
	int bad = 0;

	(void)state;
	policy_at_tmp(&p, dir);
	for (i = 0; (h = sc_protected_home(i)); i++) {
		const char *r = rule_of_read(&p, h);

		if (strcmp(r, "deny.secret-file")) {
			print_message("# the sandbox hides ~/%s; sc-classify "
				      "gives a read of it %s\n", h, r);
			bad++;
		}
		/* and deeper in the tree, in another letter case */
		sc_buf_reset(&below);
		sc_buf_addf(&below, "sub/%s", h);
		for (k = 0; k < below.len; k++)
			if (below.data[k] >= 'a' && below.data[k] <= 'z')
				below.data[k] -= 'a' - 'A';
		r = rule_of_read(&p, below.data);
		if (strcmp(r, "deny.secret-file")) {
			print_message("# %s: %s\n", below.data, r);
			bad++;
		}
	}
	for (i = 0; examples[i]; i++)
		if (strcmp(rule_of_read(&p, examples[i]), "deny.secret-file")) {
			print_message("# %s is read\n", examples[i]);
			bad++;
		}
	sc_buf_release(&below);
	sc_policy_release(&p);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(bad, 0);
}

/* Every exact secret name of the policy is hidden under a home. */
static void test_secret_names_hidden(void **state)
{
	struct sc_buf f = SC_BUF_INIT;
	const char *name, *h;
	size_t i, k;
	int bad = 0;

	(void)state;
	for (i = 0; (name = sc_protected_name(SC_PROT_SECRET, i)); i++) {
		for (k = 0; (h = sc_protected_home(k)); k++) {
			sc_path_fold_rel(h, &f);
			if (!strcmp(f.data, name))
				break;
		}
		if (!h) {
			print_message("# the policy denies %s; the sandbox "
				      "leaves ~/%s readable\n", name, name);
			bad++;
		}
	}
	sc_buf_release(&f);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relative),
		cmocka_unit_test(test_documented),
		cmocka_unit_test(test_seatbelt),
		cmocka_unit_test(test_hidden_are_secret),
		cmocka_unit_test(test_secret_names_hidden),
	};

	return SC_RUN_TESTS(tests);
}
