#include "../lib/tap.h"

#include <string.h>

#include "awssso.h"
#include "buf.h"
#include "statusline.h"
#include "record.h"

/* 2026-12-01T20:00:00Z */
#define NOW 1796155200LL

static void test_cache_name_is_the_cli_sha1(void **state)
{
	char name[46];

	(void)state;
	/* printf 'corp' | sha1sum */
	assert_int_equal(sc_aws_sso_cache_name("corp", name), 0);
	assert_string_equal(name, "ee0bfd2552fbd840c02cc48b6e823320543c450f.json");
	assert_int_equal(sc_aws_sso_cache_name("", name), 0);
	assert_string_equal(name, "da39a3ee5e6b4b0d3255bfef95601890afd80709.json");
}

static void test_cache_file(void **state)
{
	static const char ok[] = "{\"accessToken\":\"tok\",\"expiresAt\":"
		"\"2026-12-01T21:00:00Z\",\"refreshToken\":\"r\"}";
	static const char utc[] = "{\"accessToken\":\"tok\",\"expiresAt\":"
		"\"2026-12-01T21:00:00UTC\"}";
	static const char frac_off[] = "{\"accessToken\":\"tok\",\"expiresAt\":"
		"\"2026-12-01T21:30:00.123+01:00\"}";
	static const char crlf[] = "{\"accessToken\":\"t\\r\\nX: 1\",\"expiresAt\":"
		"\"2026-12-01T21:00:00Z\"}";
	static const char bad_date[] = "{\"accessToken\":\"tok\",\"expiresAt\":"
		"\"2026-12-01T21:00:00 tomorrow\"}";
	static const char nul[] = "{\"accessToken\":\"t\\u0000k\",\"expiresAt\":"
		"\"2026-12-01T21:00:00Z\"}";
	struct sc_buf tok = SC_BUF_INIT;
	const char *why = NULL;

	(void)state;
	assert_int_equal(sc_aws_sso_cache_parse(ok, strlen(ok), NOW, &tok, &why), 0);
	assert_string_equal(tok.data, "tok");
	assert_int_equal(sc_aws_sso_cache_parse(utc, strlen(utc), NOW, &tok, &why), 0);
	/* 21:30 at +01:00 is 20:30Z: half an hour left. */
	assert_int_equal(sc_aws_sso_cache_parse(frac_off, strlen(frac_off), NOW, &tok, &why), 0);
	assert_int_equal(sc_aws_sso_cache_parse(frac_off, strlen(frac_off), NOW + 1800, &tok, &why), 1);
	/* Expired: 1, and nothing taken. */
	sc_buf_wipe(&tok);
	assert_int_equal(sc_aws_sso_cache_parse(ok, strlen(ok), NOW + 3600, &tok, &why), 1);
	assert_int_equal(tok.len, 0);
	assert_int_equal(sc_aws_sso_cache_parse(crlf, strlen(crlf), NOW, &tok, &why), -1);
	assert_string_equal(why, "holds an accessToken a header cannot carry");
	/* jansson refuses \u0000 itself: a NUL never hides a token's end. */
	assert_int_equal(sc_aws_sso_cache_parse(nul, strlen(nul), NOW, &tok, &why), -1);
	assert_string_equal(why, "is not a JSON object");
	assert_int_equal(sc_aws_sso_cache_parse(bad_date, strlen(bad_date), NOW, &tok, &why), -1);
	assert_string_equal(why, "holds no expiresAt date");
	assert_int_equal(sc_aws_sso_cache_parse("[]", 2, NOW, &tok, &why), -1);
	assert_string_equal(why, "is not a JSON object");
	assert_int_equal(sc_aws_sso_cache_parse("{}", 2, NOW, &tok, &why), -1);
	assert_string_equal(why, "holds no accessToken");
	sc_buf_wipe(&tok);
}

static void test_role_credentials(void **state)
{
	static const char ok[] = "{\"roleCredentials\":{\"accessKeyId\":\"AKID\","
		"\"secretAccessKey\":\"s\",\"sessionToken\":\"t\","
		"\"expiration\":1796158800000}}";
	static const char no_token[] = "{\"roleCredentials\":{\"accessKeyId\":"
		"\"AKID\",\"secretAccessKey\":\"s\",\"expiration\":1796158800000}}";
	static const char as_string[] = "{\"roleCredentials\":{\"accessKeyId\":"
		"\"AKID\",\"secretAccessKey\":\"s\",\"sessionToken\":\"t\","
		"\"expiration\":\"1796158800000\"}}";
	struct sc_aws_creds cr;
	const char *why = NULL;

	(void)state;
	sc_aws_creds_init(&cr);
	assert_int_equal(sc_aws_sso_role_parse(ok, strlen(ok), NOW, &cr, &why), 0);
	assert_int_equal(cr.kind, SC_AWS_KEYS);
	assert_string_equal(cr.key_id.data, "AKID");
	assert_string_equal(cr.token.data, "t");
	assert_int_equal(sc_aws_sso_role_parse(ok, strlen(ok), NOW + 3600, &cr, &why), -1);
	assert_string_equal(why, "holds credentials that have expired");
	assert_int_equal(sc_aws_sso_role_parse(no_token, strlen(no_token), NOW, &cr, &why), -1);
	assert_string_equal(why, "holds no accessKeyId, secretAccessKey and sessionToken strings");
	assert_int_equal(sc_aws_sso_role_parse(as_string, strlen(as_string), NOW, &cr, &why), -1);
	assert_string_equal(why, "holds no expiration time");
	assert_int_equal(sc_aws_sso_role_parse("{}", 2, NOW, &cr, &why), -1);
	assert_string_equal(why, "holds no roleCredentials object");
	sc_aws_creds_release(&cr);
}

static void test_aws_times(void **state)
{
	long long t;

	(void)state;
	assert_int_equal(sc_aws_time_parse("2026-12-01T20:00:00Z", &t), 0);
	assert_true(t == NOW);
	assert_int_equal(sc_aws_time_parse("2026-12-01T20:00:00", &t), 0);
	assert_true(t == NOW);
	assert_int_equal(sc_aws_time_parse("2026-12-01T19:00:00-0100", &t), 0);
	assert_true(t == NOW);
	assert_int_equal(sc_aws_time_parse("2026-12-01T20:00:00.", &t), -1);
	assert_int_equal(sc_aws_time_parse("2026-12-01T20:00:00+1:00", &t), -1);
	assert_int_equal(sc_aws_time_parse("2026-12-01T20:00:00+01:00x", &t), -1);
	assert_int_equal(sc_aws_time_parse("2026-12-01T20:00:00+24:00", &t), -1);
	assert_int_equal(sc_aws_time_parse("tomorrow", &t), -1);
}

/* The status line (statusline.h): numbers only, or nothing. */
static void test_status_line(void **state)
{
	struct sc_record r;
	struct sc_buf out = SC_BUF_INIT;

	(void)state;
	sc_record_init(&r);
	sc_record_adds(&r, "type", "progress");
	sc_record_adds(&r, "elapsed-ms", "125999");
	sc_record_adds(&r, "estimated-tokens", "4321");
	assert_int_equal(sc_status_progress_line(&r, &out), 0);
	assert_string_equal(out.data, "\r\033[K  model: answering 2:05, about "
			    "4321 tokens so far.");
	sc_buf_reset(&out);
	sc_record_reset(&r);
	sc_record_adds(&r, "type", "progress");
	sc_record_adds(&r, "elapsed-ms", "-1");
	sc_record_adds(&r, "estimated-tokens", "1");
	assert_int_equal(sc_status_progress_line(&r, &out), -1);
	assert_int_equal(out.len, 0);
	sc_record_reset(&r);
	sc_record_adds(&r, "type", "usage");
	sc_record_adds(&r, "elapsed-ms", "1");
	sc_record_adds(&r, "estimated-tokens", "1");
	assert_int_equal(sc_status_progress_line(&r, &out), -1);
	sc_record_release(&r);
	sc_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_name_is_the_cli_sha1),
		cmocka_unit_test(test_cache_file),
		cmocka_unit_test(test_role_credentials),
		cmocka_unit_test(test_aws_times),
		cmocka_unit_test(test_status_line),
	};

	return SC_RUN_TESTS(tests);
}
