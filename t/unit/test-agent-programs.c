#include "../lib/tap.h"

#include <string.h>

#include "agent-programs.h"
#include "diag.h"
#include "record.h"

/* A record TYPE with the argv= fields ARGS (NULL-terminated) onto OUT. */
static void add(struct sc_buf *out, const char *type, const char *const *args)
{
	struct sc_record r;

	sc_record_init(&r);
	sc_record_adds(&r, "type", type);
	for (size_t i = 0; args && args[i]; i++)
		sc_record_adds(&r, "argv", args[i]);
	sc_record_encode(&r, out);
	sc_record_release(&r);
}

static int parse(const struct sc_buf *b, struct sc_agent_programs *p)
{
	struct sc_input in;

	memset(p, 0, sizeof(*p));
	sc_input_init_mem(&in, b->data ? b->data : "", b->len);
	return sc_agent_programs_read(&in, p);
}

static const char *const classify[] = { "sc-classify", "--root", ".", NULL };
static const char *const sandbox[] = { "sc-sandbox-exec", NULL };
static const char *const mask[] = { "sc-mask", "--env", NULL };

/* The three every file needs. */
static void base(struct sc_buf *b)
{
	add(b, "classify", classify);
	add(b, "sandbox", sandbox);
	add(b, "mask", mask);
}

static void test_whole_file(void **state)
{
	static const char *const model[] = { "sc-model", "--x", "", NULL };
	static const char *const mcp1[] = { "sc-mcp", "one", NULL };
	static const char *const mcp2[] = { "sc-mcp", "two", NULL };
	struct sc_buf b = SC_BUF_INIT;
	struct sc_agent_programs p;

	(void)state;
	base(&b);
	add(&b, "model", model);
	add(&b, "mcp", mcp1);
	add(&b, "other", mcp1);    /* a type it does not know: ignored */
	add(&b, "mcp", mcp2);
	assert_int_equal(parse(&b, &p), 0);
	assert_string_equal(p.classify[0], "sc-classify");
	assert_string_equal(p.classify[2], ".");
	assert_null(p.classify[3]);
	assert_string_equal(p.mask[1], "--env");
	assert_string_equal(p.model[2], "");   /* an empty argument stays */
	assert_null(p.model[3]);
	assert_null(p.guard);
	assert_null(p.executor);
	assert_int_equal(p.nr_mcp, 2);
	assert_string_equal(p.mcp[0][1], "one");
	assert_string_equal(p.mcp[1][1], "two");
	sc_agent_programs_release(&p);
	assert_int_equal(p.nr_mcp, 0);
	sc_buf_release(&b);
}

static void test_last_record_wins(void **state)
{
	static const char *const first[] = { "first", NULL };
	static const char *const second[] = { "second", NULL };
	struct sc_buf b = SC_BUF_INIT;
	struct sc_agent_programs p;

	(void)state;
	base(&b);
	add(&b, "executor", first);
	add(&b, "executor", second);
	/* An executor without a model is a whole file. */
	assert_int_equal(parse(&b, &p), 0);
	assert_string_equal(p.executor[0], "second");
	assert_null(p.model);
	sc_agent_programs_release(&p);
	sc_buf_release(&b);
}

static void test_refused(void **state)
{
	static const char *const model[] = { "sc-model", NULL };
	struct sc_buf b = SC_BUF_INIT;
	struct sc_agent_programs p;
	struct sc_record r;

	(void)state;
	/* No model and no executor. */
	base(&b);
	assert_int_equal(parse(&b, &p), -1);
	sc_agent_programs_release(&p);
	/* No mask. */
	sc_buf_reset(&b);
	add(&b, "classify", classify);
	add(&b, "sandbox", sandbox);
	add(&b, "model", model);
	assert_int_equal(parse(&b, &p), -1);
	sc_agent_programs_release(&p);
	/* A record without argv, and an mcp one. */
	sc_buf_reset(&b);
	base(&b);
	add(&b, "model", NULL);
	assert_int_equal(parse(&b, &p), -1);
	sc_agent_programs_release(&p);
	sc_buf_reset(&b);
	base(&b);
	add(&b, "model", model);
	add(&b, "mcp", NULL);
	assert_int_equal(parse(&b, &p), -1);
	sc_agent_programs_release(&p);
	/* An argument with a NUL in it could not reach execve whole. */
	sc_buf_reset(&b);
	base(&b);
	sc_record_init(&r);
	sc_record_adds(&r, "type", "model");
	sc_record_adds(&r, "argv", "sc-model");
	sc_record_add(&r, "argv", "a\0b", 3);
	sc_record_encode(&r, &b);
	sc_record_release(&r);
	assert_int_equal(parse(&b, &p), -1);
	assert_null(p.model);
	sc_agent_programs_release(&p);
	/* Bytes that are not records. */
	sc_buf_reset(&b);
	base(&b);
	sc_buf_adds(&b, "type=model argv=x\n");
	assert_int_equal(parse(&b, &p), -1);
	sc_agent_programs_release(&p);
	/* Nothing at all. */
	sc_buf_reset(&b);
	assert_int_equal(parse(&b, &p), -1);
	sc_agent_programs_release(&p);
	sc_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_file),
		cmocka_unit_test(test_last_record_wins),
		cmocka_unit_test(test_refused),
	};

	sc_diag_init("test-agent-programs");
	return SC_RUN_TESTS(tests);
}
