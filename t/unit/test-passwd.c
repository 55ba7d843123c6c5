/* The /etc/passwd reader sc-sandbox-exec uses instead of getpwuid (NSS). */
#include "../lib/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "passwd.h"

/* The home TEXT gives UID, or "-" when none. */
static char *home_of(const char *text, uid_t uid)
{
	char *home = NULL;
	int r = sc_passwd_parse_home(text, strlen(text), uid, &home);

	if (r == SC_PASSWD_NOT_FOUND) {
		assert_null(home);
		return strdup("-");
	}
	assert_int_equal(r, SC_PASSWD_FOUND);
	return home;
}

static void expect(const char *text, uid_t uid, const char *want)
{
	char *got = home_of(text, uid);

	assert_string_equal(got, want);
	free(got);
}

static const char table[] =
	"root:x:0:0:root:/root:/bin/bash\n"
	"daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
	"alice:x:1000:1000:Alice A,,,:/home/alice:/bin/bash\r\n"
	"bob:x:1001:1001::/home/b:ob:/bin/sh\n"   /* eight fields: skipped */
	"bob:x:1001:1001::/home/bob:/bin/sh\n"
	"last:x:4294967294:1::/home/last:";        /* no newline at the end */

static void test_entries(void **state)
{
	(void)state;
	expect(table, 0, "/root");
	expect(table, 1, "/usr/sbin");
	expect(table, 1000, "/home/alice");     /* CRLF line */
	expect(table, 1001, "/home/bob");
	expect(table, 4294967294u, "/home/last");
	expect(table, 1002, "-");
	expect("", 0, "-");
}

static void test_first_entry_wins(void **state)
{
	(void)state;
	/* getpwuid's files source gives the first entry for a uid. */
	expect("a:x:5:5::/home/a:/bin/sh\nb:x:5:5::/home/b:/bin/sh\n", 5,
	       "/home/a");
	/* A first entry with no usable home is the answer: not found. */
	expect("a:x:5:5:::/bin/sh\nb:x:5:5::/home/b:/bin/sh\n", 5, "-");
	expect("a:x:5:5::rel/home:/bin/sh\nb:x:5:5::/home/b:/bin/sh\n", 5, "-");
}

static void test_not_entries(void **state)
{
	(void)state;
	/* NIS compat lines name no user: "+" with empty fields is no uid 0. */
	expect("+::::::\n-bad:x:0:0::/bad:\nroot:x:0:0::/root:\n", 0, "/root");
	expect("+:x:0:0::/plus:\n", 0, "-");
	expect("# root:x:0:0::/comment:\n", 0, "-");
	/* Uids: decimal only, no sign, no space, within uid_t but not -1. */
	expect("a:x:+7:7::/a:\n", 7, "-");
	expect("a:x: 7:7::/a:\n", 7, "-");
	expect("a:x:0x7:7::/a:\n", 7, "-");
	expect("a:x::7::/a:\n", 0, "-");
	expect("a:x:4294967295:7::/a:\n", 4294967295u, "-");
	expect("a:x:4294967296:7::/a:\n", 0, "-");
	expect("a:x:99999999999:7::/a:\n", 0, "-");
	/* Six or eight fields, or no name. */
	expect("a:x:7:7::/a\n", 7, "-");
	expect("a:x:7:7::/a::\n", 7, "-");
	expect(":x:7:7::/a:\n", 7, "-");
}

static void test_nul_in_line(void **state)
{
	static const char text[] = "a:x:7:7::/a\0b:\nc:x:7:7::/c:\n";
	char *home = NULL;

	(void)state;
	/* A NUL cannot be in a path: the line is not an entry. */
	assert_int_equal(sc_passwd_parse_home(text, sizeof(text) - 1, 7, &home),
			 SC_PASSWD_FOUND);
	assert_string_equal(home, "/c");
	free(home);
}

static void test_file(void **state)
{
	char path[] = "/tmp/sc-test-passwd.XXXXXX";
	int fd = mkstemp(path);
	char *home = NULL;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, table, sizeof(table) - 1),
			 (ssize_t)sizeof(table) - 1);
	close(fd);
	assert_int_equal(sc_passwd_home(path, 1000, &home), SC_PASSWD_FOUND);
	assert_string_equal(home, "/home/alice");
	free(home);
	assert_int_equal(sc_passwd_home(path, 77, &home), SC_PASSWD_NOT_FOUND);
	assert_null(home);
	unlink(path);
	assert_int_equal(sc_passwd_home(path, 0, &home), SC_PASSWD_UNREADABLE);
	assert_null(home);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_first_entry_wins),
		cmocka_unit_test(test_not_entries),
		cmocka_unit_test(test_nul_in_line),
		cmocka_unit_test(test_file),
	};

	return SC_RUN_TESTS(tests);
}
