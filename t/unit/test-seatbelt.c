#include "../lib/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "seatbelt.h"
#include "seccomp-filter.h"

/*
 * Golden tests: the generated Seatbelt text for three policies equals the
 * reviewed files in t/data/seatbelt/.  SC_SEATBELT_WRITE=1 rewrites them
 * (review the diff before committing).
 */
static void check_golden(const struct sc_seatbelt *sb, const char *name)
{
	struct sc_buf got = SC_BUF_INIT, want = SC_BUF_INIT;
	char path[256], chunk[4096];
	size_t n;
	FILE *fp;

	sc_seatbelt_generate(sb, &got);
	snprintf(path, sizeof(path), "t/data/seatbelt/%s.sb", name);
	if (getenv("SC_SEATBELT_WRITE")) {
		fp = fopen(path, "w");
		assert_non_null(fp);
		fwrite(got.data, 1, got.len, fp);
		fclose(fp);
	}
	fp = fopen(path, "r");
	assert_non_null(fp);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		sc_buf_add(&want, chunk, n);
	fclose(fp);
	assert_string_equal(got.data, want.data);
	sc_buf_release(&got);
	sc_buf_release(&want);
}

static void test_default(void **state)
{
	struct sc_seatbelt sb = { 0, 0, 0, SC_NET_LOOPBACK, 0, 0, 0 };

	(void)state;
	check_golden(&sb, "default");
}

static void test_fetch(void **state)
{
	struct sc_seatbelt sb = { 2, 0, 0, SC_NET_FULL, 0, 0, 0 };

	(void)state;
	check_golden(&sb, "fetch");
}

static void test_readonly(void **state)
{
	struct sc_seatbelt sb = { 0, 1, 1, SC_NET_NONE, 1, 0, 0 };

	(void)state;
	check_golden(&sb, "readonly");
}

/*
 * The root's read-only defaults: the names denied whether or not they
 * exist, the ones found on disk as GUARD_n, --writable lifting LIFTED_n
 * after them (a later rule wins), explicit --read-only last.
 */
static void test_guard(void **state)
{
	struct sc_seatbelt sb = { 1, 1, 0, SC_NET_NONE, 0, 2, 1 };
	struct sc_buf out = SC_BUF_INIT;
	const char *deny, *lift, *ro;

	(void)state;
	check_golden(&sb, "guard");
	sc_seatbelt_generate(&sb, &out);
	deny = strstr(out.data, "(param \"ROOT\") \"/.git\")");
	lift = strstr(out.data, "(param \"LIFTED_0\")");
	ro = strstr(out.data, "(param \"READ_ONLY_0\")");
	assert_non_null(deny);
	assert_non_null(strstr(out.data, "\"/.claude\")"));
	assert_non_null(strstr(out.data, "\"/.vscode\")"));
	assert_non_null(strstr(out.data, "\"/.bashrc\")"));
	assert_non_null(strstr(out.data, "(param \"GUARD_1\")"));
	assert_non_null(lift);
	assert_non_null(ro);
	assert_true(deny < lift && lift < ro);
	sc_buf_release(&out);
	/* A read-only root has nothing to keep: everything is read-only. */
	sb.root_read_only = 1;
	sc_seatbelt_generate(&sb, &out);
	assert_null(strstr(out.data, "(param \"ROOT\") \"/.git\")"));
	sc_buf_release(&out);
}

/* No path ever enters the text: only parameters. */
static void test_no_paths_in_text(void **state)
{
	struct sc_seatbelt sb = { 3, 2, 2, SC_NET_NONE, 0, 0, 0 };
	struct sc_buf out = SC_BUF_INIT;

	(void)state;
	sc_seatbelt_generate(&sb, &out);
	assert_non_null(strstr(out.data, "(param \"WRITABLE_2\")"));
	assert_non_null(strstr(out.data, "(param \"READ_ONLY_1\")"));
	assert_non_null(strstr(out.data, "(param \"HIDE_1\")"));
	assert_null(strstr(out.data, "/Users/"));
	assert_null(strstr(out.data, "(allow network*)"));
	sc_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_fetch),
		cmocka_unit_test(test_readonly),
		cmocka_unit_test(test_guard),
		cmocka_unit_test(test_no_paths_in_text),
	};

	return SC_RUN_TESTS(tests);
}
