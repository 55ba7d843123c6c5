/*
 * Unit tests for the task-verification predicate built from evidence
 * records (sc_intoto_task_predicate): what each record becomes, and every
 * refusal, under ASan too, so no path leaks.
 */
#include "../lib/tap.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "intoto.h"
#include "io.h"

/* The records a tick always has, as a C string of NUL-separated fields. */
#define BASE "type=feature\0name=f\0\0" \
	"type=task\0n=4\0line=9\0text=T012 x\0\0" \
	"type=host\0tier=full\0\0"

static struct sc_input in;   /* 64 KiB: off the stack */

/* Build from LEN bytes at DATA: the canonical JSON into OUT, or -1/-2. */
static int build(const char *data, size_t len, struct sc_buf *out)
{
	json_t *pred = (json_t *)1;
	int ret;

	sc_input_init_mem(&in, data, len);
	ret = sc_intoto_task_predicate(&in, &pred);
	if (ret) {
		assert_null(pred);
		return ret;
	}
	assert_int_equal(sc_canonical_json(pred, out), 0);
	json_decref(pred);
	return 0;
}

#define BUILD(lit, out) build(lit, sizeof(lit) - 1, out)

static void test_minimal(void **state)
{
	struct sc_buf out = SC_BUF_INIT;

	(void)state;
	assert_int_equal(BUILD(BASE, &out), 0);
	assert_string_equal(out.data,
		"{\"acceptance\":[],\"checks\":[],\"feature\":\"f\",\"heldOut\":"
		"{\"result\":\"NONE\"},\"sandbox\":{\"enforced\":[],\"tier\":"
		"\"full\"},\"task\":{\"id\":\"T012\",\"line\":\"9\"}}");
	sc_buf_release(&out);
}

static void test_evidence(void **state)
{
	struct sc_buf out = SC_BUF_INIT;

	(void)state;
	assert_int_equal(BUILD(BASE
		"type=evidence\0name=b\0argv=x\0status=1\0\0"
		"type=evidence\0kind=acceptance\0name=a\0argv=y\0argv=z\0status=2\0\0"
		"type=evidence\0kind=other\0name=c\0\0"
		"type=evidence\0kind=check\0name=a\0argv=w\0status=7\0\0"
		"type=evidence\0name=b\0argv=x\0status=0\0\0"
		"type=protection\0name=p\0tier=full\0enforced=yes\0\0"
		"type=protection\0name=q\0tier=landlock\0enforced=yes\0\0"
		"type=mutation-score\0killed=0\0total=0\0\0"
		"type=model\0provider=replay\0\0", &out), 0);
	assert_string_equal(out.data,
		"{\"acceptance\":[{\"argv\":[\"y\",\"z\"],\"exitStatus\":2,"
		"\"name\":\"a\"}],\"checks\":[{\"argv\":[\"w\"],\"exitStatus\":7,"
		"\"name\":\"a\"},{\"argv\":[\"x\"],\"exitStatus\":0,\"name\":\"b\"}],"
		"\"feature\":\"f\",\"heldOut\":{\"result\":\"NONE\"},"
		"\"model\":{\"provider\":\"replay\"},"
		"\"mutation-score\":{\"killed\":0,\"total\":0},"
		"\"sandbox\":{\"enforced\":[\"p\"],\"tier\":\"full\"},"
		"\"task\":{\"id\":\"T012\",\"line\":\"9\"}}");
	sc_buf_release(&out);
}

static void test_task_id(void **state)
{
	struct sc_buf out = SC_BUF_INIT;

	(void)state;
	/* "T" alone and "Tx" are no id: the number stands for the task. */
	assert_int_equal(BUILD("type=feature\0name=f\0\0type=host\0tier=x\0\0"
			       "type=task\0n=4\0line=9\0text=Tx\0\0", &out), 0);
	assert_non_null(strstr(out.data, "\"id\":\"4\""));
	assert_non_null(strstr(out.data, "\"tier\":\"degraded\""));
	sc_buf_release(&out);
	assert_int_equal(BUILD("type=feature\0name=f\0\0type=host\0tier=x\0\0"
			       "type=task\0line=9\0text=T\0\0", &out),
			 SC_EVIDENCE_MALFORMED);
	sc_buf_release(&out);
}

static void test_refused(void **state)
{
	static const struct { const char *data; size_t len; } bad[] = {
#define B(lit) { lit, sizeof(lit) - 1 }
		B("type=task\0n=1\0line=1\0\0type=host\0tier=full\0\0"),
		B("type=feature\0name=f\0\0type=host\0tier=full\0\0"),
		B("type=feature\0name=f\0\0type=task\0n=1\0line=1\0\0"),
		B("type=feature\0name=\377\0\0type=task\0n=1\0line=1\0\0"
		  "type=host\0tier=full\0\0"),
		B(BASE "type=evidence\0name=a\0argv=x\0status=\0\0"),
		B(BASE "type=evidence\0name=a\0argv=x\0status=1x\0\0"),
		B(BASE "type=evidence\0name=a\0argv=x\0status=-1\0\0"),
		B(BASE "type=evidence\0name=a\0argv=x\0status=01\0\0"),
		B(BASE "type=evidence\0name=a\0argv=x\0status:3=1\0002\0\0"),
		B(BASE "type=evidence\0name=a\0argv=x\0status=9007199254740993\0\0"),
		B(BASE "type=evidence\0name=a\0status=0\0\0"),
		B(BASE "type=evidence\0argv=x\0status=0\0\0"),
		B(BASE "type=evidence\0name:3=a\0b\0argv=x\0status=0\0\0"),
		B(BASE "type=evidence\0name=a\0name=a\0argv=x\0status=0\0\0"),
		B(BASE "type=evidence\0name=a\0argv=\300\0status=0\0\0"),
		B(BASE "type=protection\0name=p\0tier=full\0\0"),
		B(BASE "type=protection\0name=\377\0tier=full\0enforced=yes\0\0"),
		B(BASE "type=policy\0\0"),
		B(BASE "type=mutation-score\0killed=2\0total=1\0\0"),
		B(BASE "type=mutation-score\0killed=1\0total=2\0minimum=101\0\0"),
		B(BASE "type=mutation-score\0total=2\0\0"),
		B(BASE "type=held-out\0\0"),
		B(BASE "type=task\0n=1\0\0"),
		B(BASE "type=evidence\0name"),
#undef B
	};
	struct sc_buf out = SC_BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		int st = build(bad[i].data, bad[i].len, &out);

		if (st != SC_EVIDENCE_MALFORMED)
			fail_msg("case %zu: %d", i, st);
	}
	sc_buf_release(&out);
}

/* The limits keep memory bounded. */
static void test_limits(void **state)
{
	struct sc_buf data = SC_BUF_INIT, out = SC_BUF_INIT;
	int i;

	(void)state;
	sc_buf_add(&data, BASE, sizeof(BASE) - 1);
	for (i = 0; i < SC_EVIDENCE_NAMES; i++) {
		sc_buf_addf(&data, "type=evidence%cname=%d%cargv=x%cstatus=0%c%c",
			    0, i, 0, 0, 0, 0);
		/* The same name again is no new name. */
		sc_buf_addf(&data, "type=evidence%cname=%d%cargv=x%cstatus=0%c%c",
			    0, i, 0, 0, 0, 0);
	}
	assert_int_equal(build(data.data, data.len, &out), 0);
	sc_buf_addf(&data, "type=evidence%cname=new%cargv=x%cstatus=0%c%c",
		    0, 0, 0, 0, 0);
	assert_int_equal(build(data.data, data.len, &out),
			 SC_EVIDENCE_MALFORMED);
	sc_buf_reset(&data);
	sc_buf_add(&data, BASE, sizeof(BASE) - 1);
	for (i = 0; i <= SC_EVIDENCE_PROTECTIONS; i++)
		sc_buf_addf(&data, "type=protection%cname=p%ctier=t%cenforced=yes%c%c",
			    0, 0, 0, 0, 0);
	assert_int_equal(build(data.data, data.len, &out),
			 SC_EVIDENCE_MALFORMED);
	sc_buf_release(&data);
	sc_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimal),
		cmocka_unit_test(test_evidence),
		cmocka_unit_test(test_task_id),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_limits),
	};

	sc_diag_init("test-intoto-evidence");
	return SC_RUN_TESTS(tests);
}
