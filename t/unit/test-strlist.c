#include "../lib/tap.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strlist.h"

static char root[] = "/tmp/sc-test-strlist.XXXXXX";
static int rootfd = -1;

static int setup(void **state)
{
	static const char *const names[] = { "b", "a", ".hidden", "c", NULL };

	(void)state;
	if (!mkdtemp(root))
		return -1;
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (size_t i = 0; rootfd >= 0 && names[i]; i++) {
		int fd = openat(rootfd, names[i], O_WRONLY | O_CREAT | O_EXCL |
				O_CLOEXEC, 0600);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return rootfd < 0 || mkdirat(rootfd, "d", 0700) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	static const char *const names[] = { "b", "a", ".hidden", "c", NULL };

	(void)state;
	for (size_t i = 0; names[i]; i++)
		unlinkat(rootfd, names[i], 0);
	unlinkat(rootfd, "d", AT_REMOVEDIR);
	close(rootfd);
	return rmdir(root);
}

/* NULL-terminated for execve, a set once sorted; addn takes no NUL. */
static void test_list_and_set(void **state)
{
	struct sc_strlist l = { 0 };

	(void)state;
	sc_strlist_add(&l, "pear");
	sc_strlist_addn(&l, "applesauce", 5);
	sc_strlist_add(&l, "fig");
	assert_int_equal(l.nr, 3);
	assert_null(l.v[3]);
	assert_string_equal(l.v[1], "apple");
	sc_strlist_sort(&l);
	assert_string_equal(l.v[0], "apple");
	assert_string_equal(l.v[2], "pear");
	assert_true(sc_strlist_has(&l, "fig"));
	assert_false(sc_strlist_has(&l, "applesauce"));
	sc_strlist_release(&l);
	assert_null(l.v);
	assert_int_equal(l.nr, 0);
	assert_false(sc_strlist_has(&l, "fig"));
}

/* Sorted whatever the file system returns, dot entries left out. */
/* A NULL-ended table, unsorted: whole strings only, the empty table. */
static void test_str_in_list(void **state)
{
	static const char *const t[] = { "sh", "bash", "", NULL };
	static const char *const none[] = { NULL };

	(void)state;
	assert_true(sc_str_in_list("bash", t));
	assert_true(sc_str_in_list("sh", t));
	assert_true(sc_str_in_list("", t));
	assert_false(sc_str_in_list("bas", t));
	assert_false(sc_str_in_list("bash ", t));
	assert_false(sc_str_in_list("sh", none));
}

static void test_dir_list_sorted(void **state)
{
	static const char *const want[] = { ".hidden", "a", "b", "c", "d" };
	struct sc_strlist l = { 0 };

	(void)state;
	/* A descriptor already read to its end is listed from the start. */
	assert_int_equal(sc_dir_list(rootfd, SIZE_MAX, &l), 0);
	sc_strlist_release(&l);
	assert_int_equal(sc_dir_list(rootfd, SIZE_MAX, &l), 0);
	assert_int_equal(l.nr, 5);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(l.v[i], want[i]);
	sc_strlist_release(&l);
}

/* At most MAX names; 1 says more were left; MAX 0 asks "empty?". */
static void test_dir_list_bound(void **state)
{
	struct sc_strlist l = { 0 };

	(void)state;
	assert_int_equal(sc_dir_list(rootfd, 2, &l), 1);
	assert_int_equal(l.nr, 2);
	sc_strlist_release(&l);
	assert_int_equal(sc_dir_list(rootfd, 5, &l), 0);
	sc_strlist_release(&l);
	assert_int_equal(sc_dir_list(rootfd, 0, &l), 1);
	assert_int_equal(l.nr, 0);
	assert_int_equal(sc_dir_list(-1, SIZE_MAX, &l), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_and_set),
		cmocka_unit_test(test_str_in_list),
		cmocka_unit_test(test_dir_list_sorted),
		cmocka_unit_test(test_dir_list_bound),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, setup, teardown);
}
