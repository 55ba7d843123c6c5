#include "../lib/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "buf.h"
#include "diag.h"
#include "profile.h"
#include "rootguard.h"

/*
 * The root's read-only defaults, computed on scratch trees: what a writable
 * root keeps, what a .git file may name, and what --writable lifts.
 */

static char *scratch(void)
{
	char tmpl[] = "/tmp/sc-rootguard.XXXXXX";
	char *d = mkdtemp(tmpl), *real;

	assert_non_null(d);
	real = realpath(d, NULL);
	assert_non_null(real);
	return real;
}

static void mk(const char *dir, const char *rel, int is_dir, const char *text)
{
	struct sc_buf p = SC_BUF_INIT;
	FILE *fp;

	sc_buf_addf(&p, "%s/%s", dir, rel);
	if (is_dir) {
		assert_int_equal(mkdir(p.data, 0700), 0);
	} else {
		fp = fopen(p.data, "w");
		assert_non_null(fp);
		fputs(text ? text : "", fp);
		fclose(fp);
	}
	sc_buf_release(&p);
}

static int has(const struct sc_strlist *l, const char *dir, const char *rel)
{
	struct sc_buf p = SC_BUF_INIT;
	size_t i;
	int found = 0;

	sc_buf_addf(&p, "%s/%s", dir, rel);
	for (i = 0; i < l->nr; i++)
		found |= !strcmp(l->v[i], p.data);
	sc_buf_release(&p);
	return found;
}

static void rm_rf(const char *dir)
{
	struct sc_buf cmd = SC_BUF_INIT;

	sc_buf_addf(&cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd.data), 0);
	sc_buf_release(&cmd);
}

static void test_names(void **state)
{
	char *d = scratch();
	struct sc_strlist out = { 0 };

	(void)state;
	mk(d, ".git", 1, NULL);
	mk(d, ".Claude", 1, NULL);       /* any letter case */
	mk(d, ".vscode", 1, NULL);
	mk(d, ".mcp.json", 0, "{}");
	mk(d, ".bashrc", 0, "");
	mk(d, ".zshenv", 0, "");
	mk(d, "src", 1, NULL);
	mk(d, "README.md", 0, "");
	mk(d, "Makefile", 0, "");         /* the policy's, not the sandbox's */
	assert_int_equal(sc_rootguard_paths(d, &out), 0);
	assert_true(has(&out, d, ".git"));
	assert_true(has(&out, d, ".Claude"));
	assert_true(has(&out, d, ".vscode"));
	assert_true(has(&out, d, ".mcp.json"));
	assert_true(has(&out, d, ".bashrc"));
	assert_true(has(&out, d, ".zshenv"));
	assert_false(has(&out, d, "src"));
	assert_false(has(&out, d, "README.md"));
	assert_false(has(&out, d, "Makefile"));
	assert_int_equal(out.nr, 6);
	sc_strlist_release(&out);
	rm_rf(d);
	free(d);
}

/* A linked worktree: .git names DIR/main/.git/worktrees/wt. */
static void test_linked_worktree(void **state)
{
	char *d = scratch();
	struct sc_strlist out = { 0 };
	struct sc_buf text = SC_BUF_INIT;

	(void)state;
	mk(d, "main", 1, NULL);
	mk(d, "main/.git", 1, NULL);
	mk(d, "main/.git/worktrees", 1, NULL);
	mk(d, "main/.git/worktrees/wt", 1, NULL);
	mk(d, "main/.git/worktrees/wt/commondir", 0, "../..\n");
	mk(d, "wt", 1, NULL);
	sc_buf_addf(&text, "gitdir: %s/main/.git/worktrees/wt\n", d);
	mk(d, "wt/.git", 0, text.data);
	sc_buf_reset(&text);
	sc_buf_addf(&text, "%s/wt", d);
	assert_int_equal(sc_rootguard_paths(text.data, &out), 0);
	assert_true(has(&out, d, "main/.git/worktrees/wt"));
	assert_true(has(&out, d, "main/.git"));
	assert_true(has(&out, d, "wt/.git"));      /* the pointer itself */
	sc_strlist_release(&out);
	sc_buf_release(&text);
	rm_rf(d);
	free(d);
}

static void test_bad_gitfile(void **state)
{
	static const char *const bad[] = {
		"gitdir: /nonexistent/sc-rootguard\n",   /* missing */
		"gitdir: ../elsewhere\n",                /* outside, not git's */
		"nothing to see\n",                      /* no pointer */
		"gitdir: \n",
	};
	char *d = scratch();
	struct sc_strlist out = { 0 };
	struct sc_buf root = SC_BUF_INIT;
	size_t i;

	(void)state;
	mk(d, "elsewhere", 1, NULL);
	mk(d, "root", 1, NULL);
	sc_buf_addf(&root, "%s/root", d);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		mk(d, "root/.git", 0, bad[i]);
		assert_int_equal(sc_rootguard_paths(root.data, &out), -1);
		sc_strlist_release(&out);
	}
	/* Inside the root, any directory will do. */
	mk(d, "root/.git", 0, "gitdir: inner\n");
	mk(d, "root/inner", 1, NULL);
	assert_int_equal(sc_rootguard_paths(root.data, &out), 0);
	assert_true(has(&out, d, "root/inner"));
	sc_strlist_release(&out);
	sc_buf_release(&root);
	rm_rf(d);
	free(d);
}

static void test_lift(void **state)
{
	char *d = scratch();
	struct sc_strlist w = { 0 }, keep = { 0 }, lifted = { 0 };
	struct sc_buf p = SC_BUF_INIT;

	(void)state;
	mk(d, ".git", 1, NULL);
	mk(d, ".git/hooks", 1, NULL);
	mk(d, ".claude", 1, NULL);
	sc_strlist_add(&w, d);                    /* the root: skipped */
	sc_buf_addf(&p, "%s/.claude", d);
	sc_strlist_add(&w, p.data);               /* lifts .claude */
	sc_buf_reset(&p);
	sc_buf_addf(&p, "%s/.git/hooks", d);
	sc_strlist_add(&w, p.data);               /* inside .git: kept */
	assert_int_equal(sc_rootguard_resolve(d, &w, &keep, &lifted), 0);
	assert_true(has(&keep, d, ".git"));
	assert_false(has(&keep, d, ".claude"));
	assert_true(has(&lifted, d, ".claude"));
	assert_int_equal(lifted.nr, 1);
	sc_strlist_release(&w);
	sc_strlist_release(&keep);
	sc_strlist_release(&lifted);
	sc_buf_release(&p);
	rm_rf(d);
	free(d);
}

static void test_check_root(void **state)
{
	char *d = scratch();
	struct sc_buf p = SC_BUF_INIT;

	(void)state;
	assert_int_equal(sc_rootguard_check_root(d), 0);
	assert_int_equal(sc_rootguard_check_root("/"), -1);
	assert_int_equal(sc_rootguard_check_root("///"), -1);
	mk(d, "file", 0, "");
	mk(d, "dir", 1, NULL);
	sc_buf_addf(&p, "%s/file", d);
	assert_int_equal(sc_rootguard_check_root(p.data), -1);
	sc_buf_reset(&p);
	sc_buf_addf(&p, "%s/link", d);
	assert_int_equal(symlink("dir", p.data), 0);
	assert_int_equal(sc_rootguard_check_root(p.data), -1);
	sc_buf_addch(&p, '/');
	assert_int_equal(sc_rootguard_check_root(p.data), -1);
	sc_buf_release(&p);
	rm_rf(d);
	free(d);
}

/*
 * --writable must lie inside the root: the root itself and paths beneath it
 * pass; a sibling whose name starts with the root's ("/r/rootx" for
 * "/r/root"), the parent and "/" do not.  The caller resolves first.
 */
static void test_check_writable(void **state)
{
	(void)state;
	assert_int_equal(sc_rootguard_check_writable("/r/root", "/r/root", "."), 0);
	assert_int_equal(sc_rootguard_check_writable("/r/root", "/r/root/a/b",
						     "a/b"), 0);
	assert_int_equal(sc_rootguard_check_writable("/r/root", "/r/rootx",
						     "../rootx"), -1);
	assert_int_equal(sc_rootguard_check_writable("/r/root", "/r", ".."), -1);
	assert_int_equal(sc_rootguard_check_writable("/r/root", "/", "/"), -1);
	assert_int_equal(sc_rootguard_check_writable("/r/root", "/home/u/.cache",
						     "~/.cache"), -1);
	/* The notice for --writable-outside says nothing, and fails nothing. */
	sc_rootguard_note_outside("/r/root", "/r/root/a");
	sc_rootguard_note_outside("/r/root", "/home/u/.cache");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_linked_worktree),
		cmocka_unit_test(test_bad_gitfile),
		cmocka_unit_test(test_lift),
		cmocka_unit_test(test_check_root),
		cmocka_unit_test(test_check_writable),
	};

	sc_diag_init("test-rootguard");
	return SC_RUN_TESTS(tests);
}
