#include "../lib/tap.h"

#include <string.h>

#include "awscred.h"

static const char ini[] =
	"# comment\n"
	"[default]\n"
	"region = us-east-1\n"
	"\n"
	"[profile dev]\r\n"
	"aws_access_key_id=AKIDFIRST\n"
	"s3 =\n"
	"  aws_access_key_id = NESTED\n"
	"  region = nested-1\n"
	"; another comment\n"
	"aws_access_key_id  =  AKIDLAST  \n"
	"credential_process = helper --a \"b c\"\n"
	"[profile devx]\n"
	"region = eu-west-1\n";

static void test_ini_sections_keys_and_sub_properties(void **state)
{
	struct sc_buf v = SC_BUF_INIT;

	(void)state;
	assert_int_equal(sc_aws_ini_get(ini, strlen(ini), "default", "region", &v), 1);
	assert_string_equal(v.data, "us-east-1");
	/* The last one wins; an indented sub-property is not the key. */
	assert_int_equal(sc_aws_ini_get(ini, strlen(ini), "profile dev",
					"aws_access_key_id", &v), 1);
	assert_string_equal(v.data, "AKIDLAST");
	assert_int_equal(sc_aws_ini_get(ini, strlen(ini), "profile dev", "region", &v), 0);
	assert_int_equal(sc_aws_ini_get(ini, strlen(ini), "profile dev",
					"credential_process", &v), 1);
	assert_string_equal(v.data, "helper --a \"b c\"");
	/* A section's name is matched whole, not as a prefix. */
	assert_int_equal(sc_aws_ini_get(ini, strlen(ini), "profile devx", "region", &v), 1);
	assert_string_equal(v.data, "eu-west-1");
	assert_int_equal(sc_aws_ini_get(ini, strlen(ini), "profile de", "region", &v), 0);
	sc_buf_release(&v);
}

static void test_process_output(void **state)
{
	static const char ok[] = "{\"Version\":1,\"AccessKeyId\":\"AKID\","
		"\"SecretAccessKey\":\"s\",\"SessionToken\":null,"
		"\"Expiration\":\"2026-12-01T21:00:00Z\"}";
	static const char cr_lf[] = "{\"Version\":1,\"AccessKeyId\":\"AKID\","
		"\"SecretAccessKey\":\"a\\r\\nX-Evil: 1\"}";
	struct sc_aws_creds cr;
	const char *why = NULL;

	(void)state;
	sc_aws_creds_init(&cr);
	/* 2026-12-01T20:00:00Z: an hour before it expires. */
	assert_int_equal(sc_aws_process_output(ok, strlen(ok), 1796155200LL, &cr, &why), 0);
	assert_int_equal(cr.kind, SC_AWS_KEYS);
	assert_string_equal(cr.key_id.data, "AKID");
	assert_int_equal(cr.token.len, 0);
	assert_int_equal(sc_aws_process_output(ok, strlen(ok), 1796158800LL, &cr, &why), -1);
	assert_string_equal(why, "printed credentials that have expired");
	assert_int_equal(sc_aws_process_output(cr_lf, strlen(cr_lf), 0, &cr, &why), -1);
	assert_string_equal(why, "printed credentials a header cannot carry");
	assert_int_equal(sc_aws_process_output("{}", 2, 0, &cr, &why), -1);
	assert_string_equal(why, "printed no \"Version\": 1");
	sc_aws_creds_release(&cr);
}

static void test_region_names(void **state)
{
	(void)state;
	assert_true(sc_aws_region_ok("us-east-1"));
	assert_false(sc_aws_region_ok(""));
	assert_false(sc_aws_region_ok("us-east-1.evil.example"));
	assert_false(sc_aws_region_ok("US-EAST-1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ini_sections_keys_and_sub_properties),
		cmocka_unit_test(test_process_output),
		cmocka_unit_test(test_region_names),
	};

	return SC_RUN_TESTS(tests);
}
