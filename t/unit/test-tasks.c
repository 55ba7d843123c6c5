#include "../lib/tap.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "tasks.h"

static int parse(const char *text, struct sc_tasklist *l)
{
	return sc_tasks_parse(text, strlen(text), "t.md", l);
}

static void assert_text(const char *data, const struct sc_task *t,
			const char *want)
{
	assert_int_equal(t->text_len, strlen(want));
	assert_memory_equal(data + t->text, want, t->text_len);
}

static void test_items_and_prose(void **state)
{
	static const char text[] =
		"# Tasks\n"
		"\n"
		"- [ ] T001 first\n"
		"\t  * [x] T002 nested, done  \r\n"
		"- [X]\tT003 tab after the box\n"
		"- [link](url) is prose\n"
		"- [x]y is prose\n"
		"-[ ] no space after the bullet is prose\n"
		"+ [ ] another bullet is prose\n"
		"- [ ] last, no newline";
	struct sc_tasklist l;

	(void)state;
	sc_tasklist_init(&l);
	assert_int_equal(parse(text, &l), SC_TASKS_OK);
	assert_int_equal(l.nr, 4);
	assert_int_equal(l.v[0].n, 1);
	assert_int_equal(l.v[0].line, 3);
	assert_false(l.v[0].done);
	assert_text(text, &l.v[0], "T001 first");
	assert_int_equal(text[l.v[0].mark], ' ');
	assert_true(l.v[1].done);
	assert_int_equal(l.v[1].line, 4);
	assert_text(text, &l.v[1], "T002 nested, done");
	assert_int_equal(text[l.v[1].mark], 'x');
	assert_true(l.v[2].done);
	assert_text(text, &l.v[2], "T003 tab after the box");
	assert_int_equal(l.v[3].n, 4);
	assert_int_equal(l.v[3].line, 10);
	assert_text(text, &l.v[3], "last, no newline");
	sc_tasklist_release(&l);
}

static void test_bom_and_empty(void **state)
{
	struct sc_tasklist l;

	(void)state;
	sc_tasklist_init(&l);
	assert_int_equal(parse("\xef\xbb\xbf- [ ] after a BOM\n", &l), SC_TASKS_OK);
	assert_int_equal(l.nr, 1);
	assert_int_equal(parse("", &l), SC_TASKS_OK);
	assert_int_equal(l.nr, 0);
	assert_int_equal(parse("just prose\n", &l), SC_TASKS_OK);
	assert_int_equal(l.nr, 0);
	sc_tasklist_release(&l);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"- [?] unknown mark\n",
		"- [-] cancelled\n",
		"- [\xe2\x9c\x93] a check mark\n",
		"- [] empty box\n",
		"- [ ]\n",
		"- [ ]   \n",
		"- [x] \r\n",
		"- [ ] not utf-8 \xff\n",
		"- [ ] overlong \xc0\xaf\n",
		"- [ ] surrogate \xed\xa0\x80\n",
		"- [ ] escape \x1b[2J\n",
		"- [ ] C1 \xc2\x9b\n",
		"- [ ] bidi \xe2\x80\xae reversed\n",
		"- [ ] isolate \xe2\x81\xa6 x\n",
		"- [ ] CR \r inside\n",
		"prose with a bell \a\n",
	};
	static const char nul[] = "ok\n- [ ] nul \0 inside\n";
	struct sc_tasklist l;
	size_t i;

	(void)state;
	sc_tasklist_init(&l);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse(bad[i], &l), SC_TASKS_MALFORMED);
	assert_int_equal(sc_tasks_parse(nul, sizeof(nul) - 1, "t.md", &l),
			 SC_TASKS_MALFORMED);
	sc_tasklist_release(&l);
}

static void test_limits(void **state)
{
	size_t n = SC_TASKS_MAX_LINE + 16;
	char *big = malloc(SC_TASKS_MAX_FILE + 2);
	struct sc_tasklist l;

	(void)state;
	assert_non_null(big);
	sc_tasklist_init(&l);
	/* A line of exactly the cap passes; one byte more does not. */
	memcpy(big, "- [ ] ", 6);
	memset(big + 6, 'a', SC_TASKS_MAX_LINE - 6);
	assert_int_equal(sc_tasks_parse(big, SC_TASKS_MAX_LINE, "t.md", &l),
			 SC_TASKS_OK);
	assert_int_equal(l.nr, 1);
	memset(big + 6, 'a', n - 6);
	assert_int_equal(sc_tasks_parse(big, SC_TASKS_MAX_LINE + 1, "t.md", &l),
			 SC_TASKS_MALFORMED);
	memset(big, '\n', SC_TASKS_MAX_FILE + 1);
	assert_int_equal(sc_tasks_parse(big, SC_TASKS_MAX_FILE, "t.md", &l),
			 SC_TASKS_OK);
	assert_int_equal(sc_tasks_parse(big, SC_TASKS_MAX_FILE + 1, "t.md", &l),
			 SC_TASKS_MALFORMED);
	sc_tasklist_release(&l);
	free(big);
}

static void test_feature_names(void **state)
{
	static const char *const good[] = { "a", "001-login", "Feat.v2",
		"x_y", "a..b", NULL };
	static const char *const bad[] = { "", ".hidden", "-x", "a/b", "..",
		"a b", "a\nb", "caf\xc3\xa9", "a*", NULL };
	char longname[300];
	size_t i;

	(void)state;
	for (i = 0; good[i]; i++)
		assert_true(sc_tasks_feature_valid(good[i]));
	for (i = 0; bad[i]; i++)
		assert_false(sc_tasks_feature_valid(bad[i]));
	memset(longname, 'a', 255);
	longname[255] = '\0';
	assert_true(sc_tasks_feature_valid(longname));
	memset(longname, 'a', 256);
	longname[256] = '\0';
	assert_false(sc_tasks_feature_valid(longname));
}

/* A tick changes one byte and keeps the mode; a wrong text changes none. */
static void test_tick_file(void **state)
{
	static const char before[] = "# T\n- [x] one\n- [ ] two\n";
	char dir[] = "/tmp/test-tasks.XXXXXX", path[64], got[64];
	struct sc_taskfile tf;
	struct sc_task t;
	struct stat st;
	int fd;
	ssize_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/tasks.md", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0640);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, before, strlen(before)), (ssize_t)strlen(before));
	assert_int_equal(fchmod(fd, 0640), 0);
	close(fd);

	sc_taskfile_init(&tf);
	assert_int_equal(sc_tasks_tick(dir, "tasks.md", 2, "two ", &tf, &t),
			 SC_TASKS_CHANGED);
	sc_taskfile_release(&tf);
	sc_taskfile_init(&tf);
	assert_int_equal(sc_tasks_tick(dir, "tasks.md", 1, "one", &tf, &t),
			 SC_TASKS_CHANGED);
	sc_taskfile_release(&tf);
	sc_taskfile_init(&tf);
	assert_int_equal(sc_tasks_tick(NULL, path, 2, "two", &tf, &t),
			 SC_TASKS_OK);
	assert_true(t.done);
	assert_int_equal(t.n, 2);
	sc_taskfile_release(&tf);

	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, got, sizeof(got));
	close(fd);
	assert_int_equal(n, (ssize_t)strlen(before));
	assert_memory_equal(got, "# T\n- [x] one\n- [x] two\n", (size_t)n);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_items_and_prose),
		cmocka_unit_test(test_bom_and_empty),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_feature_names),
		cmocka_unit_test(test_tick_file),
	};

	sc_diag_init("test-tasks");
	return SC_RUN_TESTS(tests);
}
