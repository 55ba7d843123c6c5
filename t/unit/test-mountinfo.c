#include "../lib/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "buf.h"
#include "mountinfo.h"

/*
 * A fake mount table over a scratch directory: DIR/a shown again at
 * "DIR/b c" (a space, escaped as \040 as the kernel writes it) and, from
 * its subdirectory sub, at DIR/d.  The second names are hard links, so
 * they are the same inodes as a bind mount would show.
 */
struct scratch {
	char dir[64];
	struct sc_buf table, file;
};

static void path(struct sc_buf *b, const char *dir, const char *rest)
{
	sc_buf_reset(b);
	sc_buf_addf(b, "%s/%s", dir, rest);
}

static void touch_linked(const char *dir, const char *a, const char *b)
{
	struct sc_buf pa = SC_BUF_INIT, pb = SC_BUF_INIT;
	FILE *fp;

	path(&pa, dir, a);
	path(&pb, dir, b);
	fp = fopen(pa.data, "w");
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(link(pa.data, pb.data), 0);
	sc_buf_release(&pa);
	sc_buf_release(&pb);
}

static void scratch_init_types(struct scratch *s, const char *root_type,
			       const char *bind_type);

static void scratch_init(struct scratch *s)
{
	scratch_init_types(s, "ext4", "ext4");
}

/* The table names ROOT_TYPE for "/" and BIND_TYPE for the other two. */
static void scratch_init_types(struct scratch *s, const char *root_type,
			       const char *bind_type)
{
	static const char *const dirs[] = { "a", "a/sub", "b c", "b c/sub", "d", NULL };
	struct sc_buf p = SC_BUF_INIT;
	FILE *fp;
	size_t i;

	strcpy(s->dir, "/tmp/sc-mountinfo.XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	for (i = 0; dirs[i]; i++) {
		path(&p, s->dir, dirs[i]);
		assert_int_equal(mkdir(p.data, 0700), 0);
	}
	touch_linked(s->dir, "a/sub/key", "b c/sub/key");
	touch_linked(s->dir, "a/sub/other", "d/key");   /* a namesake, not the file */
	sc_buf_init(&s->table);
	sc_buf_addf(&s->table, "%s/mountinfo", s->dir);
	fp = fopen(s->table.data, "w");
	assert_non_null(fp);
	fprintf(fp, "1 0 8:1 / / rw shared:1 - %s /dev/x rw\n", root_type);
	fprintf(fp, "2 1 8:1 %s/a %s/b\\040c rw - %s /dev/x rw\n", s->dir,
		s->dir, bind_type);
	fprintf(fp, "3 1 8:1 %s/a/sub %s/d rw - %s /dev/x rw\n", s->dir, s->dir,
		bind_type);
	fprintf(fp, "garbage line\n");
	fclose(fp);
	sc_buf_init(&s->file);
	path(&s->file, s->dir, "a/sub/key");
	sc_buf_release(&p);
}

static void test_aliases(void **state)
{
	struct scratch s;
	struct sc_mount_table t = SC_MOUNT_TABLE_INIT;
	struct sc_strlist out = { NULL, 0, 0 };
	struct sc_buf want = SC_BUF_INIT;

	(void)state;
	scratch_init(&s);
	assert_int_equal(sc_mount_table_read(&t, s.table.data), 0);
	assert_int_equal(t.nr, 3);   /* the garbage line is skipped */
	sc_mount_aliases(&t, s.file.data, &out);
	sc_mount_table_release(&t);
	/* "b c/sub/key" is the file; "d/key" is a namesake, another inode. */
	assert_int_equal(out.nr, 1);
	path(&want, s.dir, "b c/sub/key");
	assert_string_equal(out.v[0], want.data);
	sc_strlist_release(&out);
	/* mkdtemp's name holds no quote: safe in the shell. */
	sc_buf_reset(&want);
	sc_buf_addf(&want, "rm -rf -- '%s'", s.dir);
	assert_int_equal(system(want.data), 0);
	sc_buf_release(&want);
	sc_buf_release(&s.table);
	sc_buf_release(&s.file);
}

/* The aliases of the scratch key with the table's types; their number. */
static size_t aliases_typed(const char *root_type, const char *bind_type,
			    int *pseudo)
{
	struct scratch s;
	struct sc_mount_table t = SC_MOUNT_TABLE_INIT;
	struct sc_strlist out = { NULL, 0, 0 };
	struct sc_buf rm = SC_BUF_INIT;
	size_t n;

	scratch_init_types(&s, root_type, bind_type);
	assert_int_equal(sc_mount_table_read(&t, s.table.data), 0);
	assert_int_equal(t.nr, 3);
	*pseudo = t.m[0].pseudo * 2 + t.m[1].pseudo;
	sc_mount_aliases(&t, s.file.data, &out);
	n = out.nr;
	sc_mount_table_release(&t);
	sc_strlist_release(&out);
	sc_buf_addf(&rm, "rm -rf -- '%s'", s.dir);
	assert_int_equal(system(rm.data), 0);
	sc_buf_release(&rm);
	sc_buf_release(&s.table);
	sc_buf_release(&s.file);
	return n;
}

static void test_kernel_filesystems(void **state)
{
	int pseudo;

	(void)state;
	/* Optional fields before " - " are read past; the type is known. */
	assert_int_equal(aliases_typed("ext4", "ext4", &pseudo), 1);
	assert_int_equal(pseudo, 0);
	/* A proc or sysfs mount shows no file of a disk's: not looked
	 * through (this table claims one does; a real one cannot). */
	assert_int_equal(aliases_typed("ext4", "sysfs", &pseudo), 0);
	assert_int_equal(pseudo, 1);
	/* A path on a kernel filesystem is looked for on the others. */
	assert_int_equal(aliases_typed("proc", "proc", &pseudo), 1);
	assert_int_equal(pseudo, 3);
	/* A type not known is looked through. */
	assert_int_equal(aliases_typed("ext4", "fuse.sshfs", &pseudo), 1);
	assert_int_equal(pseudo, 0);
}

static void test_unreadable_table(void **state)
{
	struct sc_mount_table t = SC_MOUNT_TABLE_INIT;
	struct sc_strlist out = { NULL, 0, 0 };

	(void)state;
	assert_int_equal(sc_mount_table_read(&t, "/nonexistent/mountinfo"), -1);
	assert_int_equal(sc_mount_table_read(&t, "/proc/self/mountinfo"), 0);
	sc_mount_aliases(&t, "/nonexistent/path", &out);
	assert_int_equal(out.nr, 0);
	sc_mount_table_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_kernel_filesystems),
		cmocka_unit_test(test_unreadable_table),
	};

	return SC_RUN_TESTS(tests);
}
