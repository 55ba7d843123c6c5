#include "../lib/tap.h"

#include <string.h>

#include "sigv4.h"

/*
 * AWS's published SigV4 test suite (aws-sig-v4-test-suite): the example
 * key, date and scope every one of its cases uses.
 */
#define SUITE_PREFIX "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/" \
	"us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, " \
	"Signature="

static const struct sc_sigv4_header suite_headers[] = {
	{ "host", "example.amazonaws.com" },
	{ "x-amz-date", "20150830T123600Z" },
};

static void sign_suite(const char *method, const char *query,
		       const char *want)
{
	struct sc_sigv4_request r = {
		method, "/", query, suite_headers, 2, NULL, 0, "us-east-1",
		"service", "20150830T123600Z", "AKIDEXAMPLE",
		"wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
	};
	struct sc_buf out = SC_BUF_INIT;

	assert_int_equal(sc_sigv4_authorization(&r, &out), 0);
	assert_string_equal(out.data, want);
	/* The secret never reaches the header. */
	assert_null(strstr(out.data, "wJalrX"));
	sc_buf_release(&out);
}

static void test_suite_get_vanilla(void **state)
{
	(void)state;
	sign_suite("GET", "", SUITE_PREFIX
		   "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

static void test_suite_get_vanilla_query_order_key_case(void **state)
{
	(void)state;
	/* The caller gives the canonical (sorted) query. */
	sign_suite("GET", "Param1=value1&Param2=value2", SUITE_PREFIX
		   "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
}

static void test_suite_post_vanilla(void **state)
{
	(void)state;
	sign_suite("POST", "", SUITE_PREFIX
		   "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
}

/* Bedrock's model ids: ':' is sent as %3A and signed as %253A. */
static void test_path_is_encoded_again(void **state)
{
	struct sc_sigv4_request r = {
		"POST", "/model/anthropic.claude-v2%3A1/invoke", "",
		suite_headers, 2, "{}", 2, "us-east-1", "bedrock",
		"20150830T123600Z", "AKIDEXAMPLE", "secret",
	};
	struct sc_buf out = SC_BUF_INIT;

	(void)state;
	sc_sigv4_canonical(&r, &out);
	assert_non_null(strstr(out.data,
			       "POST\n/model/anthropic.claude-v2%253A1/invoke\n\n"
			       "host:example.amazonaws.com\n"));
	/* sha256("{}") */
	assert_non_null(strstr(out.data, "\nhost;x-amz-date\n44136fa355b3678a"
			       "1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"));
	sc_buf_release(&out);
}

static void test_date_and_encoding(void **state)
{
	struct sc_buf out = SC_BUF_INIT;
	char d[17];

	(void)state;
	sc_sigv4_date(1440938160LL, d);
	assert_string_equal(d, "20150830T123600Z");
	sc_sigv4_encode(&out, "a b/c:d~\xe1\x88\xb4", 11, 0);
	assert_string_equal(out.data, "a%20b%2Fc%3Ad~%E1%88%B4");
	sc_buf_release(&out);
}

static void test_bad_date_is_refused(void **state)
{
	struct sc_sigv4_request r = {
		"GET", "/", "", suite_headers, 2, NULL, 0, "us-east-1",
		"service", "20150830", "AKIDEXAMPLE", "s",
	};
	struct sc_buf out = SC_BUF_INIT;

	(void)state;
	assert_int_equal(sc_sigv4_authorization(&r, &out), -1);
	assert_int_equal(out.len, 0);
	sc_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suite_get_vanilla),
		cmocka_unit_test(test_suite_get_vanilla_query_order_key_case),
		cmocka_unit_test(test_suite_post_vanilla),
		cmocka_unit_test(test_path_is_encoded_again),
		cmocka_unit_test(test_date_and_encoding),
		cmocka_unit_test(test_bad_date_is_refused),
	};

	return SC_RUN_TESTS(tests);
}
