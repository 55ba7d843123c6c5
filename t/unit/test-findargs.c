#include "../lib/tap.h"

#include <string.h>
#include <sys/stat.h>

#include "findargs.h"

struct hits {
	int n[4];
};

static void count(size_t action, void *arg)
{
	struct hits *h = arg;

	if (action < 4)
		h->n[action]++;
}

/* Parse the NULL-terminated words; the number of words, or -1. */
static int parse(struct sc_find *f, const char *const *argv)
{
	size_t n = 0;

	while (argv[n])
		n++;
	return sc_find_parse(f, argv, n) < 0 ? -1 : (int)n;
}

static struct hits eval(const struct sc_find *f, const char *const *argv,
			const char *name, const char *shown, mode_t mode,
			size_t depth, int *pruned)
{
	struct sc_find_file file = { name, shown, mode, depth };
	struct hits h;
	int p;

	memset(&h, 0, sizeof(h));
	p = sc_find_eval(f, argv, &file, count, &h);
	if (pruned)
		*pruned = p & SC_FIND_PRUNED;
	return h;
}

static void test_actions_and_starts(void **state)
{
	static const char *const argv[] = { "find", "-L", "src", "docs",
		"-name", "*.c", "-exec", "rm", "{}", "+", "-o", "-execdir",
		"cat", "{}/x", ";", "-delete", "-fprint", "out", NULL };
	struct sc_find f = { .top = -1 };

	(void)state;
	assert_int_equal(parse(&f, argv), 18);
	assert_int_equal(f.start_from, 2);
	assert_int_equal(f.start_to, 4);
	assert_true(f.follow);
	assert_true(f.no_prune);
	assert_int_equal(f.nr_actions, 3);
	assert_int_equal(f.actions[0].kind, SC_FIND_EXEC);
	assert_true(f.actions[0].plus);
	assert_int_equal(f.actions[0].from, 7);
	assert_int_equal(f.actions[0].to, 9);
	assert_int_equal(f.actions[1].kind, SC_FIND_EXECDIR);
	assert_false(f.actions[1].plus);
	assert_true(f.actions[1].braces);
	assert_int_equal(f.actions[2].kind, SC_FIND_DELETE);
	assert_int_equal(f.nr_writes, 1);
	assert_string_equal(argv[f.writes[0]], "out");
	sc_find_release(&f);
}

static void test_name_tests_bound_actions(void **state)
{
	static const char *const argv[] = { "find", ".", "-name", "config",
		"-exec", "rm", "{}", "+", NULL };
	static const char *const neg[] = { "find", ".", "!", "-name", "*.c",
		"-exec", "cat", "{}", ";", NULL };
	static const char *const unknown[] = { "find", ".", "-size", "+1k",
		"-exec", "cat", "{}", ";", NULL };
	struct sc_find f = { .top = -1 };
	struct hits h;

	(void)state;
	assert_true(parse(&f, argv) > 0);
	h = eval(&f, argv, "config", "./.git/config", S_IFREG, 2, NULL);
	assert_int_equal(h.n[0], 1);
	h = eval(&f, argv, "main.c", "./src/main.c", S_IFREG, 2, NULL);
	assert_int_equal(h.n[0], 0);
	assert_true(parse(&f, neg) > 0);
	h = eval(&f, neg, ".env", "./.env", S_IFREG, 1, NULL);
	assert_int_equal(h.n[0], 1);
	h = eval(&f, neg, "a.c", "./a.c", S_IFREG, 1, NULL);
	assert_int_equal(h.n[0], 0);
	/* a test the policy cannot decide may be true */
	assert_true(parse(&f, unknown) > 0);
	h = eval(&f, unknown, ".env", "./.env", S_IFREG, 1, NULL);
	assert_int_equal(h.n[0], 1);
	sc_find_release(&f);
}

static void test_prune_and_or(void **state)
{
	static const char *const argv[] = { "find", ".", "-path", "./.git",
		"-prune", "-o", "-type", "f", "-exec", "cat", "{}", "+", NULL };
	static const char *const depth[] = { "find", ".", "-depth", "-path",
		"./.git", "-prune", "-o", "-exec", "cat", "{}", "+", NULL };
	struct sc_find f = { .top = -1 };
	struct hits h;
	int pruned;

	(void)state;
	assert_true(parse(&f, argv) > 0);
	h = eval(&f, argv, ".git", "./.git", S_IFDIR, 1, &pruned);
	assert_int_equal(h.n[0], 0);
	assert_true(pruned);
	h = eval(&f, argv, "a", "./a", S_IFREG, 1, &pruned);
	assert_int_equal(h.n[0], 1);
	assert_false(pruned);
	h = eval(&f, argv, "d", "./d", S_IFDIR, 1, &pruned);
	assert_int_equal(h.n[0], 0);   /* -type f */
	/* -depth makes -prune void */
	assert_true(parse(&f, depth) > 0);
	eval(&f, depth, ".git", "./.git", S_IFDIR, 1, &pruned);
	assert_false(pruned);
	sc_find_release(&f);
}

static void test_depths(void **state)
{
	static const char *const argv[] = { "find", ".", "-mindepth", "2",
		"-maxdepth", "3", "-delete", NULL };
	struct sc_find f = { .top = -1 };
	struct hits h;

	(void)state;
	assert_true(parse(&f, argv) > 0);
	assert_int_equal(f.maxdepth, 3);
	h = eval(&f, argv, "a", "./a", S_IFREG, 1, NULL);
	assert_int_equal(h.n[0], 0);
	h = eval(&f, argv, "b", "./a/b", S_IFREG, 2, NULL);
	assert_int_equal(h.n[0], 1);
	sc_find_release(&f);
}

static void test_bad_lines(void **state)
{
	static const char *const bad[][8] = {
		{ "find", ".", "-exec", "rm", "{}", NULL },
		{ "find", ".", "-exec", ";", NULL },
		{ "find", ".", "(", "-name", "x", NULL },
		{ "find", ".", "-name", "x", ")", NULL },
		{ "find", ".", "-frobnicate", NULL },
		{ "find", ".", "-name", NULL },
		{ "find", ".", "-maxdepth", "-1", NULL },
		{ "find", ".", "-o", "-name", "x", NULL },
		{ "find", ".", "-ok", "rm", "{}", "+", NULL },
	};
	struct sc_find f = { .top = -1 };
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(bad) / sizeof(*bad); k++) {
		assert_int_equal(parse(&f, bad[k]), -1);
		assert_non_null(f.error);
		sc_find_release(&f);
	}
}

static void test_fd(void **state)
{
	static const char *const argv[] = { "fd", "-H", "-e", "c", "main",
		"src", "-x", "wc", "-l", NULL };
	static const char *const bad[] = { "fd", "--frobnicate", NULL };
	struct sc_fd fd;
	struct sc_find_file main_c = { "main.c", "src/main.c", S_IFREG, 1 };
	struct sc_find_file env = { ".env", "src/.env", S_IFREG, 1 };
	struct sc_find_file other = { "other.c", "src/other.c", S_IFREG, 1 };

	(void)state;
	sc_fd_init(&fd);
	assert_int_equal(sc_fd_parse(&fd, argv, 9), 0);
	assert_int_equal(fd.pattern, 4);
	assert_int_equal(fd.nr_paths, 1);
	assert_int_equal(fd.paths[0], 5);
	assert_true(fd.has_action);
	assert_int_equal(fd.action.from, 7);
	assert_int_equal(fd.action.to, 9);
	assert_int_equal(sc_fd_match(&fd, argv, &main_c), SC_FD_MAY_MATCH);
	assert_int_equal(sc_fd_match(&fd, argv, &env), 0);
	assert_int_equal(sc_fd_match(&fd, argv, &other), 0);
	/* without -H a hidden file is neither listed nor entered */
	fd.hidden = 0;
	assert_int_equal(sc_fd_match(&fd, argv, &env), SC_FD_PRUNE);
	assert_int_equal(sc_fd_parse(&fd, bad, 2), -1);
	assert_non_null(fd.error);
	sc_fd_release(&fd);
}

static void test_prints(void **state)
{
	static const char *const dflt[] = { "find", ".", "-name", "*.c", NULL };
	static const char *const print[] = { "find", ".", "-name", ".git",
		"-prune", "-o", "-name", "*.c", "-print0", NULL };
	static const char *const bare[] = { "find", "src", NULL };
	struct sc_find f = { .top = -1 };
	struct sc_find_file c = { "a.c", "./a.c", S_IFREG, 1 };
	struct sc_find_file env = { ".env", "./.env", S_IFREG, 1 };
	struct sc_find_file git = { ".git", "./.git", S_IFDIR, 1 };
	struct hits h;

	(void)state;
	memset(&h, 0, sizeof(h));
	assert_true(parse(&f, dflt) > 0);
	assert_int_equal(sc_find_eval(&f, dflt, &c, count, &h), SC_FIND_PRINTS);
	assert_int_equal(sc_find_eval(&f, dflt, &env, count, &h), 0);
	assert_true(parse(&f, print) > 0);
	assert_int_equal(sc_find_eval(&f, print, &c, count, &h), SC_FIND_PRINTS);
	assert_int_equal(sc_find_eval(&f, print, &git, count, &h), SC_FIND_PRUNED);
	assert_int_equal(parse(&f, bare), 2);
	assert_int_equal(sc_find_eval(&f, bare, &env, count, &h), SC_FIND_PRINTS);
	sc_find_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_actions_and_starts),
		cmocka_unit_test(test_name_tests_bound_actions),
		cmocka_unit_test(test_prune_and_or),
		cmocka_unit_test(test_depths),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_fd),
		cmocka_unit_test(test_prints),
	};

	return SC_RUN_TESTS(tests);
}
