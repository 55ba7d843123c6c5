#include "../lib/tap.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "filetool.h"

/* A root with a secret beside it, and symlinks inside that lead to it. */
struct fixture {
	char top[64];
	char root[96];
	int rootfd;
	struct sc_buf out, why;
};

static void put(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char p[256];

	strcpy(f->top, "/tmp/sc-filetool.XXXXXX");
	assert_non_null(mkdtemp(f->top));
	snprintf(f->root, sizeof(f->root), "%s/root", f->top);
	assert_int_equal(mkdir(f->root, 0755), 0);
	snprintf(p, sizeof(p), "%s/secret", f->top);
	put(p, "outside-secret\n", 0600);
	snprintf(p, sizeof(p), "%s/src", f->root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/src/a.c", f->root);
	put(p, "int a;\n", 0755);
	snprintf(p, sizeof(p), "%s/link-file", f->root);
	assert_int_equal(symlink("../secret", p), 0);
	snprintf(p, sizeof(p), "%s/link-dir", f->root);
	assert_int_equal(symlink("..", p), 0);
	f->rootfd = open(f->root, O_PATH | O_DIRECTORY);
	assert_true(f->rootfd >= 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	close(f->rootfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->top);
	assert_int_equal(system(cmd), 0);
	sc_buf_release(&f->out);
	sc_buf_release(&f->why);
	free(f);
	return 0;
}

static void read_inside(void **state)
{
	struct fixture *f = *state;
	int trunc;

	assert_int_equal(sc_file_read(f->rootfd, "src/a.c", 1024, &f->out,
				      &trunc, &f->why), 0);
	assert_string_equal(f->out.data, "int a;\n");
	assert_int_equal(trunc, 0);
}

static void read_is_capped(void **state)
{
	struct fixture *f = *state;
	int trunc;

	assert_int_equal(sc_file_read(f->rootfd, "src/a.c", 3, &f->out,
				      &trunc, &f->why), 0);
	assert_int_equal(f->out.len, 3);
	assert_int_equal(trunc, 1);
}

/* Each spelling reaches the secret outside: none may be read. */
static void read_never_leaves_the_root(void **state)
{
	static const char *const escapes[] = { "link-file", "link-dir/secret",
		"../secret", "src/../../secret", "/etc/passwd", NULL };
	struct fixture *f = *state;
	int trunc;

	for (size_t i = 0; escapes[i]; i++) {
		sc_buf_reset(&f->out);
		assert_int_equal(sc_file_read(f->rootfd, escapes[i], 1024,
					      &f->out, &trunc, &f->why), -1);
		assert_null(f->out.data ? strstr(f->out.data, "outside") : NULL);
	}
}

static void write_makes_dirs_and_mode(void **state)
{
	struct fixture *f = *state;
	char p[256];
	struct stat st;
	int trunc;

	assert_int_equal(sc_file_write(f->rootfd, "new/dir/b.c", "x", 1,
				       &f->why), 0);
	snprintf(p, sizeof(p), "%s/new/dir/b.c", f->root);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	/* An existing file keeps its mode (the executable bit here). */
	assert_int_equal(sc_file_write(f->rootfd, "src/a.c", "int b;\n", 7,
				       &f->why), 0);
	snprintf(p, sizeof(p), "%s/src/a.c", f->root);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_int_equal(sc_file_read(f->rootfd, "src/a.c", 64, &f->out,
				      &trunc, &f->why), 0);
	assert_string_equal(f->out.data, "int b;\n");
}

/*
 * A set-id bit a command put on a file is not carried onto the model's new
 * content: run as root, that would make a set-uid-root program of it.
 */
static void write_drops_set_id_bits(void **state)
{
	struct fixture *f = *state;
	char p[256];
	struct stat st;

	snprintf(p, sizeof(p), "%s/src/a.c", f->root);
	assert_int_equal(chmod(p, 06755), 0);
	assert_int_equal(sc_file_write(f->rootfd, "src/a.c", "int c;\n", 7,
				       &f->why), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
}

static void write_never_through_a_symlink(void **state)
{
	struct fixture *f = *state;
	char p[256], buf[64] = "";
	int fd;

	assert_int_equal(sc_file_write(f->rootfd, "link-file", "pwned", 5,
				       &f->why), -1);
	assert_int_equal(sc_file_write(f->rootfd, "link-dir/secret", "pwned",
				       5, &f->why), -1);
	assert_int_equal(sc_file_write(f->rootfd, "link-dir/planted", "x", 1,
				       &f->why), -1);
	snprintf(p, sizeof(p), "%s/secret", f->top);
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	assert_true(read(fd, buf, sizeof(buf) - 1) > 0);
	close(fd);
	assert_string_equal(buf, "outside-secret\n");
	snprintf(p, sizeof(p), "%s/planted", f->top);
	assert_int_equal(access(p, F_OK), -1);
}

static void delete_files_only(void **state)
{
	struct fixture *f = *state;
	char p[256];

	assert_int_equal(sc_file_delete(f->rootfd, "src", &f->why), -1);
	assert_int_equal(sc_file_delete(f->rootfd, "link-dir/secret",
					&f->why), -1);
	assert_int_equal(sc_file_delete(f->rootfd, "src/a.c", &f->why), 0);
	snprintf(p, sizeof(p), "%s/secret", f->top);
	assert_int_equal(access(p, F_OK), 0);
}

static void read_refuses_a_fifo(void **state)
{
	struct fixture *f = *state;
	char p[256];
	int trunc;

	snprintf(p, sizeof(p), "%s/fifo", f->root);
	assert_int_equal(mkfifo(p, 0600), 0);
	/* It must not hang waiting for a writer, and must not be read. */
	assert_int_equal(sc_file_read(f->rootfd, "fifo", 64, &f->out, &trunc,
				      &f->why), -1);
}

static void list_sorted_with_dirs_marked(void **state)
{
	struct fixture *f = *state;
	int trunc;

	assert_int_equal(sc_file_list(f->rootfd, "", 1024, &f->out, &trunc,
				      &f->why), 0);
	assert_string_equal(f->out.data, "link-dir\nlink-file\nsrc/\n");
}

static void list_is_bounded(void **state)
{
	struct fixture *f = *state;
	char p[256];
	int trunc;

	/* More names than a listing reads: cut, marked, a sorted prefix. */
	snprintf(p, sizeof(p), "%s/many", f->root);
	assert_int_equal(mkdir(p, 0755), 0);
	for (int i = 0; i < 65536 + 10; i++) {
		snprintf(p, sizeof(p), "%s/many/f%06d", f->root, i);
		put(p, "", 0644);
	}
	assert_int_equal(sc_file_list(f->rootfd, "many", (size_t)64 << 20,
				      &f->out, &trunc, &f->why), 0);
	assert_int_equal(trunc, 1);
	assert_true(f->out.len <= (size_t)65536 * 8);
	/* A small byte cap cuts at a whole name. */
	sc_buf_reset(&f->out);
	assert_int_equal(sc_file_list(f->rootfd, "", 13, &f->out, &trunc,
				      &f->why), 0);
	assert_string_equal(f->out.data, "link-dir\n");
	assert_int_equal(trunc, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(read_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(read_is_capped, setup, teardown),
		cmocka_unit_test_setup_teardown(read_never_leaves_the_root, setup, teardown),
		cmocka_unit_test_setup_teardown(write_makes_dirs_and_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(write_drops_set_id_bits, setup, teardown),
		cmocka_unit_test_setup_teardown(write_never_through_a_symlink, setup, teardown),
		cmocka_unit_test_setup_teardown(delete_files_only, setup, teardown),
		cmocka_unit_test_setup_teardown(read_refuses_a_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(list_sorted_with_dirs_marked, setup, teardown),
		cmocka_unit_test_setup_teardown(list_is_bounded, setup, teardown),
	};

	return SC_RUN_TESTS(tests);
}
