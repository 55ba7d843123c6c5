#include "../lib/tap.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "io.h"
#include "record.h"
#include "tree.h"

/* Build an audit stream: "c:ID:PATH[:REFUSE]" a change, "v:ID:DECISION" a
 * verdict, "e:N" the end. */
static void audit_add(struct sc_buf *b, const char *spec)
{
	struct sc_record r;
	char *copy = strdup(spec), *save = NULL;
	char *kind = strtok_r(copy, ":", &save);
	char *a = strtok_r(NULL, ":", &save), *c = strtok_r(NULL, ":", &save);
	char *d = strtok_r(NULL, ":", &save);

	sc_record_init(&r);
	if (*kind == 'c') {
		sc_record_adds(&r, "type", "change");
		sc_record_adds(&r, "id", a);
		sc_record_adds(&r, "path", c);
		sc_record_adds(&r, "change", "added");
		if (d)
			sc_record_adds(&r, "refuse", d);
	} else if (*kind == 'v') {
		sc_record_adds(&r, "type", "verdict");
		sc_record_adds(&r, "id", a);
		sc_record_adds(&r, "decision", c);
		sc_record_adds(&r, "rule", "rule.x");
	} else {
		sc_record_adds(&r, "type", "end");
		sc_record_adds(&r, "changes", a);
	}
	sc_record_encode(&r, b);
	sc_record_release(&r);
	free(copy);
}

/* Read and judge an audit made of SPECS; the read status, or the judge's
 * when it was read (the two never answer the same failure). */
static enum sc_tree_status judge(const char *const *specs)
{
	struct sc_tree_audit a;
	struct sc_input in;
	struct sc_output out;
	struct sc_buf b;
	int fd = open("/dev/null", O_WRONLY);
	enum sc_tree_status ret;

	sc_buf_init(&b);
	for (; *specs; specs++)
		audit_add(&b, *specs);
	sc_input_init_mem(&in, b.data, b.len);
	sc_output_init(&out, fd);
	ret = sc_tree_audit_read(&a, &in);
	if (ret == SC_TREE_OK)
		ret = sc_tree_audit_judge(&a, &out);
	sc_tree_audit_release(&a);
	sc_output_release(&out);
	sc_buf_release(&b);
	close(fd);
	return ret;
}

static void every_change_allowed(void **state)
{
	const char *const s[] = { "c:d1:a.c", "v:d1:allow", "c:d2:b.c",
				  "v:d2:allow", "e:2", NULL };
	(void)state;
	assert_int_equal(judge(s), SC_TREE_OK);
}

static void one_deny_refuses(void **state)
{
	const char *const s[] = { "c:d1:a.c", "v:d1:allow", "c:d2:.env",
				  "v:d2:deny", "e:2", NULL };
	(void)state;
	assert_int_equal(judge(s), SC_TREE_DENIED);
}

static void an_ask_refuses(void **state)
{
	const char *const s[] = { "c:d1:AGENTS.md", "v:d1:ask", "e:1", NULL };
	(void)state;
	assert_int_equal(judge(s), SC_TREE_DENIED);
}

static void a_change_without_verdict_refuses(void **state)
{
	const char *const s[] = { "c:d1:a.c", "v:d1:allow", "c:d2:b.c", "e:2",
				  NULL };
	(void)state;
	assert_int_equal(judge(s), SC_TREE_DENIED);
}

static void refused_whatever_the_policy_says(void **state)
{
	const char *const s[] = { "c:d1:link:symlink", "v:d1:allow", "e:1",
				  NULL };
	(void)state;
	assert_int_equal(judge(s), SC_TREE_DENIED);
}

static void a_cut_audit_is_malformed(void **state)
{
	const char *const none[] = { "c:d1:a.c", "v:d1:allow", NULL };
	const char *const fewer[] = { "c:d1:a.c", "v:d1:allow", "e:2", NULL };
	(void)state;
	assert_int_equal(judge(none), SC_TREE_MALFORMED);
	assert_int_equal(judge(fewer), SC_TREE_MALFORMED);
}

static void an_empty_diff_is_allowed(void **state)
{
	const char *const s[] = { "e:0", NULL };
	(void)state;
	assert_int_equal(judge(s), SC_TREE_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_change_allowed),
		cmocka_unit_test(one_deny_refuses),
		cmocka_unit_test(an_ask_refuses),
		cmocka_unit_test(a_change_without_verdict_refuses),
		cmocka_unit_test(refused_whatever_the_policy_says),
		cmocka_unit_test(a_cut_audit_is_malformed),
		cmocka_unit_test(an_empty_diff_is_allowed),
	};

	sc_diag_init("test-tree");
	return SC_RUN_TESTS(tests);
}
