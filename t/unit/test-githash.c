#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "githash.h"
#include "record.h"

/* Build a record stream from "name=value" strings; NULL ends a record,
 * two NULLs end the stream. */
static void build(struct sc_buf *out, const char *const *f)
{
	struct sc_record r;

	sc_record_init(&r);
	while (*f) {
		sc_record_reset(&r);
		for (; *f; f++) {
			const char *eq = strchr(*f, '=');
			char name[64];

			snprintf(name, sizeof(name), "%.*s", (int)(eq - *f), *f);
			sc_record_adds(&r, name, eq + 1);
		}
		sc_record_encode(&r, out);
		f++;
	}
	sc_record_release(&r);
}

static int read_manifest(const char *const *f, struct sc_githash_manifest *m)
{
	struct sc_buf buf = SC_BUF_INIT;
	struct sc_input in;
	struct sc_reader rd;
	int ret;

	build(&buf, f);
	sc_input_init_mem(&in, buf.data ? buf.data : "", buf.len);
	sc_reader_init(&rd, &in);
	ret = sc_githash_read(&rd, m);
	sc_buf_release(&buf);
	return ret;
}

#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define OID "0123456789abcdef0123456789abcdef01234567"

static const char *const good[] = {
	"type=manifest", "version=1", NULL,
	"type=item", "kind=ref", "ref=refs/heads/main", "oid=" OID, NULL,
	"type=note", "text=skipped", NULL,
	"type=item", "kind=config", "path=config", "mode=file", "sha256=" SHA,
	"future=ignored", NULL,
	"type=item", "kind=status", "sha256=" SHA, "clean=yes", NULL,
	"type=end", "items=3", NULL, NULL,
};

static void test_read_sorts(void **state)
{
	struct sc_githash_manifest m;

	(void)state;
	sc_githash_manifest_init(&m);
	assert_int_equal(read_manifest(good, &m), 0);
	assert_int_equal(m.nr, 3);
	assert_int_equal(m.v[0].kind, SC_GITHASH_CONFIG);
	assert_int_equal(m.v[1].kind, SC_GITHASH_REF);
	assert_string_equal(m.v[2].name, "status");
	assert_string_equal(m.v[2].clean, "yes");
	sc_githash_manifest_release(&m);
}

static void test_read_refuses(void **state)
{
	static const char *const no_end[] = {
		"type=manifest", "version=1", NULL,
		"type=item", "kind=config", "path=config", NULL, NULL,
	};
	static const char *const bad_count[] = {
		"type=manifest", "version=1", NULL,
		"type=end", "items=1", NULL, NULL,
	};
	static const char *const twice[] = {
		"type=manifest", "version=1", NULL,
		"type=item", "kind=hook", "path=hooks/a", NULL,
		"type=item", "kind=hook", "path=hooks/a", NULL,
		"type=end", "items=2", NULL, NULL,
	};
	static const char *const bad_digest[] = {
		"type=manifest", "version=1", NULL,
		"type=item", "kind=hook", "path=hooks/a", "sha256=ABC", NULL,
		"type=end", "items=1", NULL, NULL,
	};
	static const char *const bad_kind[] = {
		"type=manifest", "version=1", NULL,
		"type=item", "kind=nope", "path=x", NULL,
		"type=end", "items=1", NULL, NULL,
	};
	static const char *const no_header[] = {
		"type=item", "kind=hook", "path=hooks/a", NULL,
		"type=end", "items=1", NULL, NULL,
	};
	static const char *const version2[] = {
		"type=manifest", "version=2", NULL,
		"type=end", "items=0", NULL, NULL,
	};
	const char *const *cases[] = { no_end, bad_count, twice, bad_digest,
				       bad_kind, no_header, version2 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sc_githash_manifest m;

		sc_githash_manifest_init(&m);
		assert_int_equal(read_manifest(cases[i], &m), SC_GITHASH_MALFORMED);
		sc_githash_manifest_release(&m);
	}
}

static void test_compare(void **state)
{
	static const char *const now_f[] = {
		"type=manifest", "version=1", NULL,
		"type=item", "kind=config", "path=config", "mode=exec", "sha256=" SHA, NULL,
		"type=item", "kind=protected", "path=spec.md", "sha256=" SHA, NULL,
		"type=item", "kind=status", "sha256=" SHA, "clean=yes", NULL,
		"type=end", "items=3", NULL, NULL,
	};
	struct sc_githash_manifest old, now;
	struct sc_output out;
	size_t n = 0;
	int fds[2];
	char buf[4096];
	ssize_t got;

	(void)state;
	sc_githash_manifest_init(&old);
	sc_githash_manifest_init(&now);
	assert_int_equal(read_manifest(good, &old), 0);
	assert_int_equal(read_manifest(now_f, &now), 0);
	assert_int_equal(pipe(fds), 0);
	sc_output_init(&out, fds[1]);
	assert_int_equal(sc_githash_compare(&old, &now, &out, &n), 0);
	assert_int_equal(sc_output_flush(&out), 0);
	close(fds[1]);
	assert_int_equal(n, 3);
	got = read(fds[0], buf, sizeof(buf) - 1);
	assert_true(got > 0);
	buf[got] = '\0';
	/* config modified (mode), ref removed, protected added; status same */
	assert_non_null(memmem(buf, (size_t)got, "item=config\0change=modified", 27));
	assert_non_null(memmem(buf, (size_t)got, "item=refs/heads/main\0change=removed", 35));
	assert_non_null(memmem(buf, (size_t)got, "code=INTEGRITY\0path=spec.md\0change=added", 40));
	close(fds[0]);
	sc_output_release(&out);
	sc_githash_manifest_release(&old);
	sc_githash_manifest_release(&now);
}

static int setup_diag(void **state)
{
	(void)state;
	sc_diag_init("test-githash");
	/* the refusals print diagnostics by design; keep the TAP clean */
	return freopen("/dev/null", "w", stderr) ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_sorts),
		cmocka_unit_test(test_read_refuses),
		cmocka_unit_test(test_compare),
	};

	return (cmocka_set_message_output(CM_OUTPUT_TAP),
		cmocka_run_group_tests(tests, setup_diag, NULL));
}
