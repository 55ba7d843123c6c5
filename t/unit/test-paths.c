#include "../lib/tap.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "paths.h"

struct fixture {
	char dir[64];
	char outside[80];
	struct sc_root root;
};

static void touch(const char *dir, const char *rel)
{
	char p[256];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	close(fd);
}

static void at(const char *dir, const char *rel, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", dir, rel);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char a[256], b[256];

	strcpy(f->dir, "/tmp/sc-paths.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->outside, sizeof(f->outside), "%s-out", f->dir);
	assert_int_equal(mkdir(f->outside, 0755), 0);
	at(f->dir, "src", a, sizeof(a));
	assert_int_equal(mkdir(a, 0755), 0);
	at(f->dir, ".git", a, sizeof(a));
	assert_int_equal(mkdir(a, 0755), 0);
	touch(f->dir, ".git/config");
	touch(f->dir, "src/main.c");
	touch(f->dir, "Makefile");
	touch(f->outside, "secret");
	at(f->dir, "out", a, sizeof(a));
	assert_int_equal(symlink(f->outside, a), 0);
	at(f->dir, "srclink", a, sizeof(a));
	assert_int_equal(symlink("src", a), 0);
	at(f->dir, "mk", a, sizeof(a));
	assert_int_equal(symlink("Makefile", a), 0);
	at(f->dir, "Makefile", a, sizeof(a));
	at(f->dir, "src/innocent", b, sizeof(b));
	assert_int_equal(link(a, b), 0);
	at(f->outside, "secret", a, sizeof(a));
	at(f->dir, "src/stolen", b, sizeof(b));
	assert_int_equal(link(a, b), 0);
	assert_int_equal(sc_root_init(&f->root, f->dir), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", f->dir, f->outside);
	assert_int_equal(system(cmd), 0);
	sc_root_release(&f->root);
	free(f);
	return 0;
}

static int resolve(struct fixture *f, const char *p, unsigned flags,
		   struct sc_path *out)
{
	sc_path_init(out);
	return sc_path_resolve(&f->root, "", p, strlen(p), flags, out);
}

static void test_lexical(void **state)
{
	struct fixture *f = *state;
	struct sc_path p;
	char abs[256];

	assert_int_equal(resolve(f, "src/./x/../main.c", 0, &p), SC_PATH_OK);
	assert_string_equal(p.rel, "src/main.c");
	assert_true(p.exists);
	sc_path_release(&p);
	assert_int_equal(resolve(f, "../x", 0, &p), SC_PATH_OUTSIDE);
	sc_path_release(&p);
	assert_int_equal(resolve(f, "src/../../x", 0, &p), SC_PATH_OUTSIDE);
	sc_path_release(&p);
	assert_int_equal(resolve(f, "/etc/passwd", 0, &p), SC_PATH_OUTSIDE);
	sc_path_release(&p);
	assert_int_equal(resolve(f, "", 0, &p), SC_PATH_INVALID);
	sc_path_release(&p);
	sc_path_init(&p);
	assert_int_equal(sc_path_resolve(&f->root, "", "a\0b", 3, 0, &p),
			 SC_PATH_INVALID);
	sc_path_release(&p);
	at(f->dir, "src/new.c", abs, sizeof(abs));
	assert_int_equal(resolve(f, abs, SC_PATH_WRITE, &p), SC_PATH_OK);
	assert_string_equal(p.rel, "src/new.c");
	assert_false(p.exists);
	sc_path_release(&p);
}

static void test_symlinks(void **state)
{
	struct fixture *f = *state;
	struct sc_path p;

	assert_int_equal(resolve(f, "out/secret", 0, &p), SC_PATH_ESCAPE);
	sc_path_release(&p);
	assert_int_equal(resolve(f, "out/new", SC_PATH_WRITE, &p), SC_PATH_ESCAPE);
	sc_path_release(&p);
	assert_int_equal(resolve(f, "srclink/main.c", 0, &p), SC_PATH_OK);
	assert_string_equal(p.rel, "src/main.c");
	sc_path_release(&p);
	/* a write through a symlinked directory names another file */
	assert_int_equal(resolve(f, "srclink/main.c", SC_PATH_WRITE, &p),
			 SC_PATH_SPELLING);
	sc_path_release(&p);
	/* the target of a write is never a symlink */
	assert_int_equal(resolve(f, "mk", SC_PATH_WRITE, &p),
			 SC_PATH_TARGET_SYMLINK);
	sc_path_release(&p);
	/* reads follow it and see the protected file */
	assert_int_equal(resolve(f, "mk", 0, &p), SC_PATH_OK);
	assert_string_equal(p.rel, "Makefile");
	sc_path_release(&p);
}

static void test_hard_links(void **state)
{
	struct fixture *f = *state;
	struct sc_path p;

	assert_int_equal(resolve(f, "src/innocent", SC_PATH_WRITE, &p), SC_PATH_OK);
	assert_int_equal(p.nr_aliases, 1);
	assert_string_equal(p.aliases[0], "Makefile");
	sc_path_release(&p);
	assert_int_equal(resolve(f, "src/stolen", 0, &p), SC_PATH_HARDLINK);
	sc_path_release(&p);
}

static void test_case_spelling(void **state)
{
	struct fixture *f = *state;
	struct sc_path p;

	/* on a case-sensitive volume SRC is another, missing directory */
	assert_int_equal(resolve(f, "SRC/main.c", SC_PATH_WRITE, &p), SC_PATH_OK);
	assert_false(p.exists);
	sc_path_release(&p);
}

static void fold(const char *in, const char *want)
{
	struct sc_buf b = SC_BUF_INIT;

	sc_path_fold(in, strlen(in), &b);
	assert_string_equal(b.data, want);
	sc_buf_release(&b);
}

static void test_fold(void **state)
{
	(void)state;
	fold(".GIT", ".git");
	fold(".git.", ".git");
	fold(".git ", ".git");
	fold("GIT~1", ".git");
	fold(".g\xe2\x80\x8cit", ".git");          /* zero-width non-joiner */
	fold("\xef\xbc\x8e\x65nv", ".env");        /* fullwidth full stop */
	fold("id_rsa", "id_rsa");
	fold(".gitignore", ".gitignore");
	fold("\xe2\x84\xaa" "ey", "key");           /* Kelvin sign */
}

/* The security property: a sibling sharing a prefix is never beneath. */
static void test_beneath(void **state)
{
	(void)state;
	assert_true(sc_path_is_beneath("/a/b/c", "/a/b"));
	assert_true(sc_path_is_beneath("/a/b", "/a/b"));        /* equal */
	assert_false(sc_path_is_beneath("/a/bc", "/a/b"));      /* sibling */
	assert_false(sc_path_is_beneath("/a/bc/d", "/a/b"));
	assert_false(sc_path_is_beneath("/a", "/a/b"));         /* above */
	assert_false(sc_path_is_beneath("/a/c", "/a/b"));
	assert_true(sc_path_is_beneath("/a/b/c", "/a/b/"));     /* trailing */
	assert_true(sc_path_is_beneath("/a/b", "/a/b/"));
	assert_true(sc_path_is_beneath("/a/b/", "/a/b"));
	assert_false(sc_path_is_beneath("/a/bc", "/a/b/"));
	assert_true(sc_path_is_beneath("/", "/"));              /* the root */
	assert_true(sc_path_is_beneath("/etc/passwd", "/"));
	assert_true(sc_path_is_beneath("/etc", "//"));
	assert_false(sc_path_is_beneath("etc", "/"));           /* relative */

	assert_string_equal(sc_path_below("/a/b/c/d", "/a/b"), "c/d");
	assert_string_equal(sc_path_below("/a/b//c", "/a/b/"), "c");
	assert_string_equal(sc_path_below("/a/b", "/a/b/"), "");
	assert_string_equal(sc_path_below("/etc/x", "/"), "etc/x");
	assert_null(sc_path_below("/a/bc", "/a/b"));
}

#define PLAIN(s) sc_path_plain(s, sizeof(s) - 1)

static void test_plain(void **state)
{
	(void)state;
	assert_true(PLAIN("a"));
	assert_true(PLAIN("a/b.c/..d/.e"));
	assert_false(PLAIN(""));
	assert_false(PLAIN("/a"));          /* absolute */
	assert_false(PLAIN("a/"));          /* an empty last component */
	assert_false(PLAIN("a//b"));
	assert_false(PLAIN("./a"));
	assert_false(PLAIN("a/./b"));
	assert_false(PLAIN("a/.."));
	assert_false(PLAIN("../a"));
	/* only LEN bytes count: "a/.." cut before its last component */
	assert_true(sc_path_plain("a/..", 1));
	assert_false(sc_path_plain("a/..", 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lexical, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlinks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hard_links, setup, teardown),
		cmocka_unit_test_setup_teardown(test_case_spelling, setup, teardown),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_beneath),
		cmocka_unit_test(test_plain),
	};

	return SC_RUN_TESTS(tests);
}
