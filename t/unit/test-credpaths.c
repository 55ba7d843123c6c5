#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "credpaths.h"
#include "io.h"
#include "seatbelt.h"
#include "seccomp-filter.h"

/* Each entry is a path relative to a home: no "/", "~" or "..". */
static void test_relative(void **state)
{
	const char *const *h;

	(void)state;
	assert_non_null(sc_home_credentials[0]);
	for (h = sc_home_credentials; *h; h++) {
		assert_true(**h && **h != '/' && **h != '~');
		assert_null(strstr(*h, ".."));
		assert_int_not_equal((*h)[strlen(*h) - 1], '/');
	}
}

/* sc-sandbox-exec(1) names every path the sandbox hides. */
static void test_documented(void **state)
{
	struct sc_buf page = SC_BUF_INIT, want = SC_BUF_INIT;
	const char *const *h;

	(void)state;
	assert_int_equal(sc_read_file_max("Documentation/sc-sandbox-exec.1.scd",
					  1 << 20, &page), 0);
	for (h = sc_home_credentials; *h; h++) {
		sc_buf_reset(&want);
		sc_buf_addf(&want, "_~/%s_", *h);
		if (!strstr(page.data, want.data))
			fail_msg("sc-sandbox-exec(1) does not name %s", want.data);
	}
	sc_buf_release(&page);
	sc_buf_release(&want);
}

/* The macOS profile denies the same list under HOME. */
static void test_seatbelt(void **state)
{
	struct sc_seatbelt sb = { 0, 0, 0, SC_NET_NONE, 0, 0, 0 };
	struct sc_buf out = SC_BUF_INIT, want = SC_BUF_INIT;
	const char *const *h;

	(void)state;
	sc_seatbelt_generate(&sb, &out);
	for (h = sc_home_credentials; *h; h++) {
		sc_buf_reset(&want);
		sc_buf_addf(&want, "(param \"HOME\") \"/%s\")", *h);
		assert_non_null(strstr(out.data, want.data));
	}
	sc_buf_release(&out);
	sc_buf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relative),
		cmocka_unit_test(test_documented),
		cmocka_unit_test(test_seatbelt),
	};

	return SC_RUN_TESTS(tests);
}
