#include "../lib/tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "io.h"
#include "process.h"

/* Close our end of its stdin, read its stdout whole, reap it. */
static int finish(struct sc_piped *p, struct sc_buf *out)
{
	int truncated = 0;

	close(p->to);
	assert_int_equal(sc_read_fd_capped(p->from, 4096, out, &truncated), 0);
	sc_buf_adds(out, "");
	close(p->from);
	return sc_wait(p->pid);
}

/* The pipes carry its stdin and stdout; it leads a session of its own. */
static void test_pipes_and_session(void **state)
{
	struct sc_piped p;
	struct sc_buf out = SC_BUF_INIT;
	char *const argv[] = { "cat", NULL };

	(void)state;
	assert_int_equal(sc_spawn_piped(argv, NULL, NULL, -1, &p), SC_SPAWN_OK);
	assert_true(p.pid > 0);
	assert_int_equal(getsid(p.pid), p.pid);
	assert_int_equal(sc_write_all(p.to, "hi\n", 3), 0);
	assert_int_equal(finish(&p, &out), 0);
	assert_string_equal(out.data, "hi\n");
	sc_buf_release(&out);
}

/* ENV and DIR are the child's; a descriptor we leaked does not reach it. */
static void test_env_dir_and_no_leak(void **state)
{
	struct sc_piped p;
	struct sc_buf out = SC_BUF_INIT;
	int leak = open("/dev/null", O_RDONLY);   /* no O_CLOEXEC: a leak */
	char script[160];
	char *const env[] = { "X=from-env", "PATH=/usr/bin:/bin", NULL };
	char *const argv[] = { "sh", "-c", script, NULL };

	(void)state;
	assert_true(leak > 2);
	snprintf(script, sizeof(script), "printf '%%s %%s ' \"$X\" \"$PWD\"; "
		 "if [ -e /proc/self/fd/%d ]; then echo leaked; "
		 "else echo closed; fi", leak);
	assert_int_equal(sc_spawn_piped(argv, env, "/", -1, &p), SC_SPAWN_OK);
	assert_int_equal(finish(&p, &out), 0);
	assert_string_equal(out.data, "from-env / closed\n");
	close(leak);
	sc_buf_release(&out);
}

/* A program that cannot run, or a directory that cannot be entered, is
 * told by the exec's errno; the child is the caller's to reap. */
static void test_exec_failure(void **state)
{
	struct sc_piped p;
	struct sc_buf out = SC_BUF_INIT;
	char *const missing[] = { "/nonexistent/sc-test-program", NULL };
	char *const cat[] = { "cat", NULL };

	(void)state;
	errno = 0;
	assert_int_equal(sc_spawn_piped(missing, NULL, NULL, -1, &p),
			 SC_SPAWN_EXEC);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(finish(&p, &out), 127);
	errno = 0;
	assert_int_equal(sc_spawn_piped(cat, NULL, "/nonexistent-dir", -1, &p),
			 SC_SPAWN_EXEC);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(finish(&p, &out), 127);
	sc_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipes_and_session),
		cmocka_unit_test(test_env_dir_and_no_leak),
		cmocka_unit_test(test_exec_failure),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
