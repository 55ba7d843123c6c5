#include "../lib/tap.h"

#include <string.h>

#include "pattern.h"

struct wm_case {
	const char *pattern, *text;
	int pathname, want;
};

/* Cases after git's t/t3070-wildmatch.sh. */
static const struct wm_case wm_cases[] = {
	{ "foo", "foo", 1, 1 },
	{ "bar", "foo", 1, 0 },
	{ "", "", 1, 1 },
	{ "???", "foo", 1, 1 },
	{ "??", "foo", 1, 0 },
	{ "*", "foo", 1, 1 },
	{ "f*", "foo", 1, 1 },
	{ "*f", "foo", 1, 0 },
	{ "*foo*", "foo", 1, 1 },
	{ "*ob*a*r*", "foobar", 1, 1 },
	{ "\\*", "*", 1, 1 },
	{ "\\*", "x", 1, 0 },
	{ "foo/*", "foo/bar", 1, 1 },
	{ "foo/*", "foo/bar/baz", 1, 0 },
	{ "foo/*", "foo/bar/baz", 0, 1 },
	{ "foo/**", "foo/bar/baz", 1, 1 },
	{ "foo/**/baz", "foo/baz", 1, 1 },
	{ "foo/**/baz", "foo/a/b/baz", 1, 1 },
	{ "**/foo", "foo", 1, 1 },
	{ "**/foo", "a/b/foo", 1, 1 },
	{ "**/foo", "a/b/foox", 1, 0 },
	{ "foo**bar", "foo/bar", 1, 0 },
	{ "foo**bar", "fooxbar", 1, 1 },
	{ "*/foo", "bar/foo", 1, 1 },
	{ "*/foo", "a/bar/foo", 1, 0 },
	{ "?", "/", 1, 0 },
	{ "?", "/", 0, 1 },
	{ "[ab]", "a", 1, 1 },
	{ "[!ab]", "a", 1, 0 },
	{ "[^ab]", "c", 1, 1 },
	{ "[a-c]x", "bx", 1, 1 },
	{ "[a-c]x", "dx", 1, 0 },
	{ "[]]", "]", 1, 1 },
	{ "[[:digit:]]", "7", 1, 1 },
	{ "[[:digit:]]", "x", 1, 0 },
	{ "[[:upper:][:digit:]]x", "Ax", 1, 1 },
	{ "a[/]b", "a/b", 1, 0 },
	{ "refs/heads/speccoder/*", "refs/heads/speccoder/feat", 1, 1 },
	{ "refs/heads/speccoder/*", "refs/heads/speccoderx", 1, 0 },
	{ "refs/heads/speccoder/*", "refs/heads/speccoder/a/b", 1, 0 },
	{ "refs/heads/speccoder/**", "refs/heads/speccoder/a/b", 1, 1 },
	{ "[abc", "a", 1, 0 },
	{ "-*-*-*-*-*-*-12-*-*-*-m-*-*-*",
	  "-adobe-courier-bold-o-normal--12-120-75-75-/-70-iso8859-1", 1, 0 },
	{ "**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", 1, 0 },
};

static void test_wildmatch(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(wm_cases) / sizeof(wm_cases[0]); i++) {
		const struct wm_case *c = &wm_cases[i];
		int got = sc_wildmatch(c->pattern, c->text, c->pathname);

		if (got != c->want)
			fail_msg("'%s' vs '%s' (pathname %d): got %d", c->pattern,
				 c->text, c->pathname, got);
	}
}

static void test_glob_check(void **state)
{
	const char *what = NULL;

	(void)state;
	assert_int_equal(sc_glob_check("a[bc]d/**", &what), 0);
	assert_int_equal(sc_glob_check("a[bc", &what), -1);
	assert_int_equal(sc_glob_check("a\\", &what), -1);
	assert_int_equal(sc_glob_check("[[:nosuch:]]", &what), -1);
	assert_int_equal(sc_glob_check("\\[", &what), 0);
}

static int parse(struct sc_patterns *p, const char *text,
		 struct sc_pattern_error *err)
{
	return sc_patterns_parse(p, text, strlen(text), err);
}

static void test_parse_and_match(void **state)
{
	struct sc_patterns p;
	struct sc_pattern_error err = { 0, NULL };

	(void)state;
	sc_patterns_init(&p);
	assert_int_equal(parse(&p,
			       "# comment\n"
			       "\n"
			       "specs/\n"
			       "!specs/scratch.md\n"
			       "speccoder.conf\n"
			       "/top.txt\n"
			       "\\#hash\n"
			       "trail\\ \n"
			       "spaces   \n"
			       ".claude/**/*.json\n",
			       &err), 0);
	assert_int_equal(p.nr, 8);
	assert_true(sc_patterns_match(&p, "specs/001/spec.md", 0));
	assert_false(sc_patterns_match(&p, "specs/scratch.md", 0));
	assert_false(sc_patterns_match(&p, "specsx/a", 0));
	assert_true(sc_patterns_match(&p, "a/b/speccoder.conf", 0));
	assert_true(sc_patterns_match(&p, "top.txt", 0));
	assert_false(sc_patterns_match(&p, "sub/top.txt", 0));
	assert_true(sc_patterns_match(&p, "#hash", 0));
	assert_true(sc_patterns_match(&p, "trail ", 0));
	assert_true(sc_patterns_match(&p, "spaces", 0));
	assert_true(sc_patterns_match(&p, ".claude/settings.json", 0));
	assert_true(sc_patterns_match(&p, ".claude/a/b.json", 0));
	assert_false(sc_patterns_match(&p, "src/main.c", 0));
	/* dir-only: "specs" as a file is not the directory */
	assert_false(sc_patterns_match(&p, "specs", 0));
	assert_int_equal(sc_patterns_decide(&p, "src/main.c", 0), -1);
	sc_patterns_release(&p);
}

static void test_parse_errors(void **state)
{
	static const char *const bad[] = { "!\n", "/\n", "a[b\n", "ab\\\n",
					   "[[:x:]]\n" };
	struct sc_pattern_error err = { 0, NULL };
	struct sc_patterns p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sc_patterns_init(&p);
		assert_int_equal(parse(&p, bad[i], &err), -1);
		assert_int_equal(err.line, 1);
		assert_non_null(err.what);
		sc_patterns_release(&p);
	}
	sc_patterns_init(&p);
	assert_int_equal(sc_patterns_parse(&p, "ok\nb\0d\n", 7, &err), -1);
	assert_int_equal(err.line, 2);
	sc_patterns_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wildmatch),
		cmocka_unit_test(test_glob_check),
		cmocka_unit_test(test_parse_and_match),
		cmocka_unit_test(test_parse_errors),
	};

	return SC_RUN_TESTS(tests);
}
