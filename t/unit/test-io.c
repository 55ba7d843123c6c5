#include "../lib/tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "io.h"

static char root[] = "/tmp/sc-test-io.XXXXXX";
static int rootfd = -1;

static void put(const char *name, const char *data, size_t len)
{
	int fd = openat(rootfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			0600);

	assert_true(fd >= 0);
	assert_int_equal(sc_write_all(fd, data, len), 0);
	close(fd);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return rootfd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	DIR *d = fdopendir(rootfd);
	struct dirent *de;

	(void)state;
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(rootfd, de->d_name,
				 de->d_type == DT_DIR ? AT_REMOVEDIR : 0);
	if (d)
		closedir(d);
	return rmdir(root);
}

/* The whole file, appended to what OUT held; exactly MAX bytes is whole. */
static void test_read_whole_and_at_limit(void **state)
{
	struct sc_buf b = SC_BUF_INIT;

	(void)state;
	put("five", "a\0cde", 5);
	sc_buf_adds(&b, "x");
	assert_int_equal(sc_read_file_at(rootfd, "five", 5, 0, &b), 0);
	assert_int_equal(b.len, 6);
	assert_memory_equal(b.data, "xa\0cde", 7);
	sc_buf_release(&b);
	put("empty", "", 0);
	assert_int_equal(sc_read_file_at(rootfd, "empty", 0, SC_OPEN_REGULAR,
					 &b), 0);
	assert_int_equal(b.len, 0);
	sc_buf_release(&b);
}

/* One byte more than MAX is -2, and OUT holds the first MAX. */
static void test_read_too_large_keeps_prefix(void **state)
{
	struct sc_buf b = SC_BUF_INIT;
	char big[200000];

	(void)state;
	memset(big, 'z', sizeof(big));
	big[4] = 'Q';
	put("big", big, sizeof(big));
	assert_int_equal(sc_read_file_at(rootfd, "big", 4, 0, &b), -2);
	assert_int_equal(b.len, 4);
	assert_string_equal(b.data, "zzzz");
	sc_buf_reset(&b);
	/* Larger than a read chunk and than the limit: still cut exactly. */
	assert_int_equal(sc_read_file_at(rootfd, "big", sizeof(big) - 1, 0,
					 &b), -2);
	assert_int_equal(b.len, sizeof(big) - 1);
	sc_buf_reset(&b);
	assert_int_equal(sc_read_file_at(rootfd, "big", sizeof(big), 0, &b), 0);
	assert_int_equal(b.len, sizeof(big));
	assert_memory_equal(b.data, big, sizeof(big));
	sc_buf_release(&b);
}

static void test_nofollow_refuses_symlink(void **state)
{
	struct sc_buf b = SC_BUF_INIT;

	(void)state;
	put("target", "secret", 6);
	assert_int_equal(symlinkat("target", rootfd, "link"), 0);
	errno = 0;
	assert_int_equal(sc_read_file_at(rootfd, "link", 100, SC_OPEN_NOFOLLOW,
					 &b), -1);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(b.len, 0);
	/* Without the flag the link is followed. */
	assert_int_equal(sc_read_file_at(rootfd, "link", 100, 0, &b), 0);
	assert_string_equal(b.data, "secret");
	sc_buf_release(&b);
}

/* A FIFO with no writer would block open(2) for ever: never waited for. */
static void test_regular_refuses_fifo_and_dir(void **state)
{
	struct sc_buf b = SC_BUF_INIT;

	(void)state;
	assert_int_equal(mkfifoat(rootfd, "fifo", 0600), 0);
	errno = 0;
	assert_int_equal(sc_read_file_at(rootfd, "fifo", 100, SC_OPEN_REGULAR,
					 &b), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mkdirat(rootfd, "dir", 0700), 0);
	errno = 0;
	assert_int_equal(sc_read_file_at(rootfd, "dir", 100, SC_OPEN_REGULAR,
					 &b), -1);
	assert_int_equal(errno, EISDIR);
	/* NONBLOCK alone reads a writerless FIFO as empty. */
	assert_int_equal(sc_read_file_at(rootfd, "fifo", 100, SC_OPEN_NONBLOCK,
					 &b), 0);
	assert_int_equal(b.len, 0);
	sc_buf_release(&b);
}

/* What sc_read_file_or_error(NAME, MAX) printed, into SAID. */
static int read_or_error(const char *name, size_t max, struct sc_buf *said)
{
	struct sc_buf b = SC_BUF_INIT;
	int saved = dup(STDERR_FILENO), fd, ret;
	char path[64];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	fd = openat(rootfd, "said", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0600);
	assert_true(saved >= 0 && fd >= 0);
	assert_true(dup2(fd, STDERR_FILENO) >= 0);
	ret = sc_read_file_or_error(path, max, "BIG", "GONE", &b);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	close(fd);
	sc_buf_reset(said);
	assert_int_equal(sc_read_file_at(rootfd, "said", 4096, 0, said), 0);
	sc_buf_adds(said, "");
	sc_buf_release(&b);
	return ret;
}

/* A file a person named: its failure said once, with the caller's codes. */
static void test_read_or_error(void **state)
{
	struct sc_buf said = SC_BUF_INIT;

	(void)state;
	put("five", "12345", 5);
	assert_int_equal(read_or_error("five", 5, &said), 0);
	assert_int_equal(said.len, 0);
	assert_int_equal(read_or_error("five", 4, &said), -1);
	assert_non_null(strstr(said.data, "error[BIG]: '"));
	assert_non_null(strstr(said.data, "/five' is larger than 4 bytes"));
	assert_int_equal(read_or_error("absent", 5, &said), -1);
	assert_non_null(strstr(said.data, "error[GONE]: cannot read '"));
	assert_null(strstr(said.data, "BIG"));
	sc_buf_release(&said);
}

/* A pipe is read until OUT holds MAX bytes in all. */
static void test_fd_capped_pipe(void **state)
{
	struct sc_buf b = SC_BUF_INIT;
	int p[2], truncated = 0;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(sc_write_all(p[1], "0123456789", 10), 0);
	close(p[1]);
	sc_buf_adds(&b, "ab");
	assert_int_equal(sc_read_fd_capped(p[0], 7, &b, &truncated), 0);
	assert_int_equal(truncated, 1);
	assert_string_equal(b.data, "ab01234");
	close(p[0]);
	sc_buf_release(&b);
}

/* A symlink at the name is replaced, never written through; MODE holds. */
static void test_replace_never_follows(void **state)
{
	struct sc_buf b = SC_BUF_INIT;
	enum sc_replace_step step;
	struct stat st;
	mode_t old = umask(077);

	(void)state;
	put("victim", "keep", 4);
	assert_int_equal(symlinkat("victim", rootfd, "name"), 0);
	assert_int_equal(sc_replace_file_at(rootfd, "name", "new", 3, 0644,
					    &step), 0);
	umask(old);
	assert_int_equal(fstatat(rootfd, "name", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(sc_read_file_at(rootfd, "name", 10, 0, &b), 0);
	assert_string_equal(b.data, "new");
	sc_buf_reset(&b);
	assert_int_equal(sc_read_file_at(rootfd, "victim", 10, 0, &b), 0);
	assert_string_equal(b.data, "keep");
	sc_buf_release(&b);
}

static int say_no(void *ctx)
{
	++*(int *)ctx;
	return 1;
}

/* A check that says no leaves NAME as it was and no temporary behind. */
static void test_replace_check_refuses(void **state)
{
	struct sc_buf b = SC_BUF_INIT;
	enum sc_replace_step step;
	int asked = 0;
	struct sc_replace_how how = { 0600, NULL, say_no, &asked };
	DIR *d;
	struct dirent *de;
	int dfd;

	(void)state;
	put("kept", "old", 3);
	assert_int_equal(sc_replace_file_how(rootfd, "kept", "new", 3, &how,
					     &step), -1);
	assert_int_equal(step, SC_REPLACE_CHECK);
	assert_int_equal(asked, 1);
	assert_int_equal(sc_read_file_at(rootfd, "kept", 10, 0, &b), 0);
	assert_string_equal(b.data, "old");
	sc_buf_release(&b);
	dfd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	d = fdopendir(dfd);
	assert_non_null(d);
	while ((de = readdir(d)))
		assert_null(strstr(de->d_name, ".sc-write-"));
	closedir(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_whole_and_at_limit),
		cmocka_unit_test(test_read_too_large_keeps_prefix),
		cmocka_unit_test(test_nofollow_refuses_symlink),
		cmocka_unit_test(test_regular_refuses_fifo_and_dir),
		cmocka_unit_test(test_fd_capped_pipe),
		cmocka_unit_test(test_read_or_error),
		cmocka_unit_test(test_replace_never_follows),
		cmocka_unit_test(test_replace_check_refuses),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, setup, teardown);
}
