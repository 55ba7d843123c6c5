#include "../lib/tap.h"

#include <string.h>

#include "buf.h"
#include "shellwords.h"

static int parse(const char *s, struct sc_sw_line *l)
{
	sc_sw_line_init(l);
	return sc_sw_parse(s, strlen(s), l);
}

static void test_split_operators(void **state)
{
	struct sc_sw_line l;

	(void)state;
	assert_int_equal(parse("a 1;b&&c||d|e&f\ng", &l), 0);
	assert_int_equal(l.nr_cmds, 7);
	assert_string_equal(l.cmds[0].words[0].s, "a");
	assert_string_equal(l.cmds[0].words[1].s, "1");
	assert_string_equal(l.cmds[4].words[0].s, "e");
	assert_true(l.cmds[4].flags & SC_SWC_BACKGROUND);
	assert_string_equal(l.cmds[6].words[0].s, "g");
	sc_sw_line_release(&l);
}

static void test_quotes_removed(void **state)
{
	struct sc_sw_line l;

	(void)state;
	assert_int_equal(parse("gi''t 'pu'\"sh\" a\\ b $'\\x73udo' \"$'x'\"", &l), 0);
	assert_int_equal(l.cmds[0].nr_words, 5);
	assert_string_equal(l.cmds[0].words[0].s, "git");
	assert_string_equal(l.cmds[0].words[1].s, "push");
	assert_string_equal(l.cmds[0].words[2].s, "a b");
	assert_string_equal(l.cmds[0].words[3].s, "sudo");
	assert_string_equal(l.cmds[0].words[4].s, "$'x'");
	assert_false(l.cmds[0].words[0].flags & SC_SW_UNRESOLVED);
	sc_sw_line_release(&l);
}

static void test_substitutions_collected(void **state)
{
	struct sc_sw_line l;

	(void)state;
	assert_int_equal(parse("echo $(sudo id) `rm -rf x` <(cat .env) \"${a:-$(b)}\"", &l), 0);
	assert_int_equal(l.nr_subs, 4);
	assert_string_equal(l.subs[0], "sudo id");
	assert_string_equal(l.subs[1], "rm -rf x");
	assert_string_equal(l.subs[2], "cat .env");
	assert_string_equal(l.subs[3], "b");
	assert_true(l.cmds[0].words[1].flags & SC_SW_SUBST);
	assert_true(l.cmds[0].words[4].flags & SC_SW_EXPAND);
	sc_sw_line_release(&l);
}

static void test_assignments_and_redirections(void **state)
{
	struct sc_sw_line l;

	(void)state;
	assert_int_equal(parse("PATH=/tmp LD_PRELOAD=x make 2>&1 >out.txt 'A=b' <in", &l), 0);
	assert_int_equal(l.cmds[0].nr_assigns, 2);
	assert_string_equal(l.cmds[0].assigns[0].s, "PATH=/tmp");
	assert_int_equal(l.cmds[0].nr_words, 2);
	assert_string_equal(l.cmds[0].words[1].s, "A=b");
	assert_int_equal(l.cmds[0].nr_redirs, 3);
	assert_int_equal(l.cmds[0].redirs[0].op, SC_RD_DUP_OUT);
	assert_int_equal(l.cmds[0].redirs[0].fd, 2);
	assert_int_equal(l.cmds[0].redirs[1].op, SC_RD_OUT);
	assert_string_equal(l.cmds[0].redirs[1].target.s, "out.txt");
	assert_int_equal(l.cmds[0].redirs[2].op, SC_RD_IN);
	sc_sw_line_release(&l);
}

static void test_heredocs(void **state)
{
	struct sc_sw_line l;

	(void)state;
	assert_int_equal(parse("bash <<EOF\nsudo id $(x)\nEOF\ncat <<'E' >f\n$(y)\nE\necho", &l), 0);
	assert_int_equal(l.nr_cmds, 3);
	assert_string_equal(l.cmds[0].heredoc, "sudo id $(x)\n");
	assert_true(l.cmds[0].flags & SC_SWC_HEREDOC_EXPAND);
	assert_false(l.cmds[1].flags & SC_SWC_HEREDOC_EXPAND);
	assert_int_equal(l.nr_subs, 1);
	assert_string_equal(l.subs[0], "x");
	assert_string_equal(l.cmds[2].words[0].s, "echo");
	sc_sw_line_release(&l);
	assert_int_equal(parse("cat <<EOF\nno end", &l), -1);
	sc_sw_line_release(&l);
}

static void test_keywords_and_groups(void **state)
{
	struct sc_sw_line l;

	(void)state;
	assert_int_equal(parse("if true; then (sudo x); else { rm y; }; fi", &l), 0);
	assert_int_equal(l.nr_cmds, 3);
	assert_string_equal(l.cmds[1].words[0].s, "sudo");
	assert_string_equal(l.cmds[2].words[0].s, "rm");
	assert_false(l.flags & SC_SWL_OPAQUE);
	sc_sw_line_release(&l);
	assert_int_equal(parse("case a in a) sudo x;; esac", &l), 0);
	assert_true(l.flags & SC_SWL_OPAQUE);
	sc_sw_line_release(&l);
}

static void test_syntax_errors(void **state)
{
	static const char *const bad[] = {
		"echo 'x", "echo \"x", "echo $(x", "echo `x", "a &&", "| a",
		"(a", "a >", "a \\", "a && && b", NULL,
	};
	struct sc_sw_line l;
	size_t i;

	(void)state;
	for (i = 0; bad[i]; i++) {
		assert_int_equal(parse(bad[i], &l), -1);
		assert_non_null(l.error);
		sc_sw_line_release(&l);
	}
	sc_sw_line_init(&l);
	assert_int_equal(sc_sw_parse("a\0b", 3, &l), -1);
	sc_sw_line_release(&l);
}

static void test_flags(void **state)
{
	struct sc_sw_line l;

	(void)state;
	assert_int_equal(parse("git\r push ~/x *.c $HOME ｓudo", &l), 0);
	assert_true(l.cmds[0].words[0].flags & SC_SW_CTRL);
	assert_true(l.cmds[0].words[2].flags & SC_SW_TILDE);
	assert_true(l.cmds[0].words[3].flags & SC_SW_GLOB);
	assert_true(l.cmds[0].words[4].flags & SC_SW_EXPAND);
	assert_true(l.cmds[0].words[5].flags & SC_SW_NONASCII);
	sc_sw_line_release(&l);
}

static void test_split_config(void **state)
{
	char **w;
	size_t n;
	const char *err;

	(void)state;
	assert_int_equal(sc_sw_split("make  'a b' \"c\\\"d\" $HOME e\\ f", &w, &n, &err), 0);
	assert_int_equal(n, 5);
	assert_string_equal(w[1], "a b");
	assert_string_equal(w[2], "c\"d");
	assert_string_equal(w[3], "$HOME");
	assert_string_equal(w[4], "e f");
	assert_null(w[5]);
	sc_sw_split_free(w);
	assert_int_equal(sc_sw_split("make; rm", &w, &n, &err), -1);
	assert_non_null(err);
	assert_int_equal(sc_sw_split("'x", &w, &n, &err), -1);
}

static void test_quote_round_trip(void **state)
{
	static const char *const words[] = { "plain", "a b", "it's", "", "$x", NULL };
	struct sc_buf b = SC_BUF_INIT;
	char **w;
	size_t n, i;
	const char *err;

	(void)state;
	for (i = 0; words[i]; i++) {
		if (i)
			sc_buf_addch(&b, ' ');
		sc_sw_quote(&b, words[i], strlen(words[i]));
	}
	assert_int_equal(sc_sw_split(b.data, &w, &n, &err), 0);
	assert_int_equal(n, 5);
	for (i = 0; i < n; i++)
		assert_string_equal(w[i], words[i]);
	sc_sw_split_free(w);
	sc_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_operators),
		cmocka_unit_test(test_quotes_removed),
		cmocka_unit_test(test_substitutions_collected),
		cmocka_unit_test(test_assignments_and_redirections),
		cmocka_unit_test(test_heredocs),
		cmocka_unit_test(test_keywords_and_groups),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_split_config),
		cmocka_unit_test(test_quote_round_trip),
	};

	return SC_RUN_TESTS(tests);
}
