/*
 * The canonical digest of sc-pin: a golden vector computed by another
 * implementation (Python's hashlib over the framing of speccoder-lock(5)),
 * and each change to a tree that must change it, or must not.
 */
#include "../lib/tap.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "pin.h"

/* SHA-256 of "sc-pin-tree-v1\n" alone. */
#define EMPTY "sha256:5490ba6e318e7dec25c01feb1f8d696cabe7ae0b1245f6c70c04f1cf66b65aef"
/* a.txt "hello\n" 0644 and a/b "x" 0755: byte order puts a.txt first
 * ('.' < '/'), where a walk sorted per directory would put a/b first. */
#define GOLDEN "sha256:f2f5641fd71d3f2db08de25e11314029380f797352aa8e10cafc3bc75b7c4b59"

struct fixture {
	char dir[64];
};

static void put(const struct fixture *f, const char *rel, const char *text,
		mode_t mode)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", f->dir, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	assert_int_equal(close(fd), 0);
}

static void sub(const struct fixture *f, const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", f->dir, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

/* The digest of the fixture's tree, or "" when it is refused. */
static const char *digest(const struct fixture *f)
{
	static char out[SC_PIN_DIGEST_LEN + 1];
	struct sc_pin_tree t;

	sc_pin_tree_init(&t);
	if (sc_pin_tree_load(&t, f->dir, NULL) < 0)
		out[0] = '\0';
	else
		assert_int_equal(sc_pin_tree_digest(&t, out), 0);
	sc_pin_tree_release(&t);
	return out;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	sc_diag_init("test-pin");
	strcpy(f->dir, "/tmp/test-pin.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static void golden(struct fixture *f)
{
	sub(f, "a");
	put(f, "a.txt", "hello\n", 0644);
	put(f, "a/b", "x", 0755);
}

static void test_empty(void **state)
{
	assert_string_equal(digest(*state), EMPTY);
}

static void test_golden_vector(void **state)
{
	golden(*state);
	assert_string_equal(digest(*state), GOLDEN);
}

static void test_empty_dir_changes_nothing(void **state)
{
	golden(*state);
	sub(*state, "empty");
	assert_string_equal(digest(*state), GOLDEN);
}

static void test_exec_bit_counts(void **state)
{
	golden(*state);
	put(*state, "a.txt", "hello\n", 0755);
	assert_string_not_equal(digest(*state), GOLDEN);
	/* Only the owner's bit: group and other bits change nothing. */
	put(*state, "a.txt", "hello\n", 0654);
	assert_string_equal(digest(*state), GOLDEN);
}

static void test_rename_content_and_add_count(void **state)
{
	struct fixture *f = *state;
	char from[128], to[128];

	golden(f);
	snprintf(from, sizeof(from), "%s/a.txt", f->dir);
	snprintf(to, sizeof(to), "%s/a.txu", f->dir);
	assert_int_equal(rename(from, to), 0);
	assert_string_not_equal(digest(f), GOLDEN);
	assert_int_equal(rename(to, from), 0);
	assert_string_equal(digest(f), GOLDEN);
	put(f, "a.txt", "hellO\n", 0644);
	assert_string_not_equal(digest(f), GOLDEN);
	put(f, "a.txt", "hello\n", 0644);
	put(f, "new", "", 0644);
	assert_string_not_equal(digest(f), GOLDEN);
}

/* Moving bytes between a name and a content never gives the same digest:
 * every part is framed by its length. */
static void test_framing(void **state)
{
	struct fixture *f = *state;
	char one[SC_PIN_DIGEST_LEN + 1];

	put(f, "ab", "c", 0644);
	strcpy(one, digest(f));
	put(f, "a", "bc", 0644);
	assert_string_not_equal(digest(f), one);
}

static void test_symlink_refused(void **state)
{
	struct fixture *f = *state;
	char link[128];

	golden(f);
	snprintf(link, sizeof(link), "%s/a/l", f->dir);
	assert_int_equal(symlink("/etc/hostname", link), 0);
	assert_string_equal(digest(f), "");
}

static void test_split(void **state)
{
	struct sc_buf id = SC_BUF_INIT, v = SC_BUF_INIT;

	(void)state;
	assert_int_equal(sc_pin_split("pdf@1.2.0+b1", &id, &v), 0);
	assert_string_equal(id.data, "pdf");
	assert_string_equal(v.data, "1.2.0+b1");
	assert_int_equal(sc_pin_split(".claude/skills/x@repo", &id, &v), 0);
	assert_int_equal(sc_pin_split("a@1@2", &id, &v), -1);
	assert_int_equal(sc_pin_split("a@", &id, &v), -1);
	assert_int_equal(sc_pin_split("@1", &id, &v), -1);
	assert_int_equal(sc_pin_split("a/../b@1", &id, &v), -1);
	assert_int_equal(sc_pin_split("/a@1", &id, &v), -1);
	assert_int_equal(sc_pin_split("a b@1", &id, &v), -1);
	assert_int_equal(sc_pin_split("a\"]@1", &id, &v), -1);
	sc_buf_release(&id);
	sc_buf_release(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_golden_vector, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_empty_dir_changes_nothing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_exec_bit_counts, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_rename_content_and_add_count, setup, teardown),
		cmocka_unit_test_setup_teardown(test_framing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_refused, setup,
						teardown),
		cmocka_unit_test(test_split),
	};

	return SC_RUN_TESTS(tests);
}
