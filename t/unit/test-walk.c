#include "../lib/tap.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "walk.h"

static char root[] = "/tmp/sc-test-walk.XXXXXX";

static void make(const char *rel, int dir)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (dir) {
		assert_int_equal(mkdir(path, 0700), 0);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
}

static int setup(void **state)
{
	char path[4096];

	(void)state;
	if (!mkdtemp(root))
		return -1;
	make("b", 1);
	make("a", 0);
	make("b/z", 0);
	make("b/c", 1);
	make("b/c/d", 0);
	make("skip", 1);
	make("skip/hidden", 0);
	snprintf(path, sizeof(path), "%s/link", root);
	return symlink("/etc", path);
}

static int teardown(void **state)
{
	char cmd[4200];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

struct seen {
	struct sc_buf order;
	int stop_at_c;
};

static int visit(const struct sc_walk_entry *e, void *arg)
{
	struct seen *s = arg;

	sc_buf_addf(&s->order, "%s:%zu ", *e->rel ? e->rel : ".", e->depth);
	if (!strcmp(e->name, "skip"))
		return 1;   /* not entered */
	if (s->stop_at_c && !strcmp(e->name, "c"))
		return -1;
	return 0;
}

static void test_sorted_symlinks_not_followed(void **state)
{
	struct seen s = { SC_BUF_INIT, 0 };
	size_t budget = 100;

	(void)state;
	assert_int_equal(sc_walk(root, "", SIZE_MAX, &budget, visit, &s), 0);
	assert_string_equal(s.order.data,
			    ".:0 a:1 b:1 b/c:2 b/c/d:3 b/z:2 link:1 skip:1 ");
	assert_int_equal(budget, 100 - 8);
	sc_buf_release(&s.order);
}

static void test_start_depth_stop(void **state)
{
	struct seen s = { SC_BUF_INIT, 0 };
	size_t budget = 100;

	(void)state;
	assert_int_equal(sc_walk(root, "b", 1, &budget, visit, &s), 0);
	assert_string_equal(s.order.data, "b:0 b/c:1 b/z:1 ");
	sc_buf_reset(&s.order);
	s.stop_at_c = 1;
	assert_int_equal(sc_walk(root, "b", SIZE_MAX, &budget, visit, &s), 0);
	assert_string_equal(s.order.data, "b:0 b/c:1 ");
	sc_buf_reset(&s.order);
	assert_int_equal(sc_walk(root, "a", SIZE_MAX, &budget, visit, &s), 0);
	assert_string_equal(s.order.data, "a:0 ");
	assert_int_equal(sc_walk(root, "nothing", SIZE_MAX, &budget, visit, &s), -1);
	sc_buf_release(&s.order);
}

static void test_budget_runs_out(void **state)
{
	struct seen s = { SC_BUF_INIT, 0 };
	size_t budget = 3;

	(void)state;
	assert_int_equal(sc_walk(root, "", SIZE_MAX, &budget, visit, &s), 1);
	assert_int_equal(budget, 0);
	sc_buf_release(&s.order);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted_symlinks_not_followed),
		cmocka_unit_test(test_start_depth_stop),
		cmocka_unit_test(test_budget_runs_out),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, setup, teardown);
}
