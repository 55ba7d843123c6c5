/*
 * Unit tests for sshsig, allowed_signers, DSSE and in-toto statements.
 * Keys are the fuzz corpus seeds (throwaway keys made for the tests).
 */
#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>

#include "dsse.h"
#include "encode.h"
#include "intoto.h"
#include "signers.h"
#include "sshsig.h"

#define SEEDS "t/fuzz/corpus/fuzz-sshkey/"

static void load_seed(const char *name, struct sc_sshkey *k)
{
	struct sc_buf raw = SC_BUF_INIT, text = SC_BUF_INIT;
	char chunk[4096];
	const char *why = NULL;
	size_t n;
	FILE *f = fopen(name, "rb");

	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sc_buf_add(&raw, chunk, n);
	fclose(f);
	sc_buf_adds(&text, "-----BEGIN OPENSSH PRIVATE KEY-----\n");
	sc_base64_encode(&text, raw.data, raw.len, 0);
	sc_buf_adds(&text, "\n-----END OPENSSH PRIVATE KEY-----\n");
	assert_int_equal(sc_sshkey_parse_private(k, text.data, text.len, &why), 0);
	sc_buf_release(&raw);
	sc_buf_release(&text);
}

static void sign_verify(const char *seed, enum sc_key_type type,
			const char *fingerprint)
{
	struct sc_sshkey k, signer;
	struct sc_buf sig = SC_BUF_INIT, fpr = SC_BUF_INIT, arm = SC_BUF_INIT,
		      back = SC_BUF_INIT;
	const char *why = NULL;

	load_seed(seed, &k);
	assert_int_equal(k.type, type);
	sc_sshkey_fingerprint(&k, &fpr);
	assert_string_equal(fpr.data, fingerprint);
	assert_int_equal(sc_sshsig_sign(&k, "in-toto", "message", 7, &sig), 0);
	assert_int_equal(sc_sshsig_verify(sig.data, sig.len, "in-toto", "message",
					  7, &signer, &why), SC_SSHSIG_OK);
	assert_true(sc_sshkey_equal(&k, &signer));
	sc_sshkey_release(&signer);
	/* Another message, another namespace, a cut signature. */
	assert_int_equal(sc_sshsig_verify(sig.data, sig.len, "in-toto", "messagE",
					  7, &signer, &why), SC_SSHSIG_BAD);
	assert_int_equal(sc_sshsig_verify(sig.data, sig.len, "git", "message", 7,
					  &signer, &why), SC_SSHSIG_BAD);
	assert_int_equal(sc_sshsig_verify(sig.data, sig.len - 1, "in-toto",
					  "message", 7, &signer, &why),
			 SC_SSHSIG_MALFORMED);
	/* Armour round trip. */
	sc_sshsig_armor(sig.data, sig.len, &arm);
	assert_int_equal(sc_sshsig_dearmor(arm.data, arm.len, &back), 0);
	assert_int_equal(back.len, sig.len);
	assert_memory_equal(back.data, sig.data, sig.len);
	sc_sshkey_release(&k);
	sc_buf_release(&sig);
	sc_buf_release(&fpr);
	sc_buf_release(&arm);
	sc_buf_release(&back);
}

static void test_ed25519(void **state)
{
	(void)state;
	sign_verify(SEEDS "private-ed25519", SC_KEY_ED25519,
		    "SHA256:cmBNmjwGHyyHGbiOCTxP2kfTapROGS2hSoU9wFEhIXE");
}

static void test_ecdsa(void **state)
{
	(void)state;
	sign_verify(SEEDS "private-ecdsa", SC_KEY_ECDSA_P256,
		    "SHA256:a/86K2vX//iC0AkrtBaYjltsPMLTansB1EzJIdhbwkM");
}

static void test_rsa(void **state)
{
	(void)state;
	sign_verify(SEEDS "private-rsa", SC_KEY_RSA,
		    "SHA256:9lUVddnjh/sNNuOuxk+iBWKQUVsj7nwxahn0RL0a+IQ");
}

static void put_string(struct sc_buf *b, const char *s)
{
	unsigned char n[4] = { 0, 0, 0, (unsigned char)strlen(s) };

	sc_buf_add(b, n, 4);
	sc_buf_adds(b, s);
}

static void test_encrypted_key(void **state)
{
	struct sc_buf raw = SC_BUF_INIT, text = SC_BUF_INIT;
	struct sc_sshkey k;
	const char *why = NULL;

	(void)state;
	sc_buf_add(&raw, "openssh-key-v1", 15);
	put_string(&raw, "aes256-ctr");
	put_string(&raw, "bcrypt");
	put_string(&raw, "");
	sc_buf_adds(&text, "-----BEGIN OPENSSH PRIVATE KEY-----\n");
	sc_base64_encode(&text, raw.data, raw.len, 0);
	sc_buf_adds(&text, "\n-----END OPENSSH PRIVATE KEY-----\n");
	assert_int_equal(sc_sshkey_parse_private(&k, text.data, text.len, &why),
			 SC_SSHKEY_ERR_ENCRYPTED);
	assert_int_equal(sc_sshkey_parse_private(&k, "junk", 4, &why),
			 SC_SSHKEY_ERR_FORMAT);
	sc_buf_release(&raw);
	sc_buf_release(&text);
}

static const char ed_pub[] =
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJvIEKb/DK4X8tV8k8u6b0jvks4fnsBD0pkgPHTXaytn";

static int parse(struct sc_signers *s, const char *text,
		 struct sc_signers_error *err)
{
	sc_signers_init(s);
	return sc_signers_parse(s, text, strlen(text), err);
}

static void test_signers(void **state)
{
	struct sc_signers s;
	struct sc_signers_error err;
	struct sc_sshkey k;
	const struct sc_signer *who = NULL;
	char line[512];

	(void)state;
	load_seed(SEEDS "private-ed25519", &k);
	snprintf(line, sizeof(line),
		 "# c\n\n  a@x,b@x namespaces=\"git,in-*\",valid-before=\"20300101Z\" %s c\n",
		 ed_pub);
	assert_int_equal(parse(&s, line, &err), 0);
	assert_int_equal(s.nr, 1);
	assert_string_equal(s.v[0].principals, "a@x,b@x");
	assert_int_equal(s.v[0].line, 3);
	assert_int_equal(sc_signers_find(&s, &k, "in-toto", 1800000000, &who),
			 SC_SIGNER_OK);
	assert_ptr_equal(who, &s.v[0]);
	assert_int_equal(sc_signers_find(&s, &k, "file", 1800000000, &who),
			 SC_SIGNER_NAMESPACE);
	assert_int_equal(sc_signers_find(&s, &k, "in-toto", 1900000000, &who),
			 SC_SIGNER_EXPIRED);
	sc_signers_release(&s);

	snprintf(line, sizeof(line), "a\n\"b c\" cert-authority %s\n", ed_pub);
	assert_int_equal(parse(&s, line, &err), -1);
	assert_int_equal(err.line, 1);
	sc_signers_release(&s);
	snprintf(line, sizeof(line), "\"b c\" cert-authority %s\n", ed_pub);
	assert_int_equal(parse(&s, line, &err), -1);
	assert_non_null(strstr(err.why, "cert-authority"));
	sc_signers_release(&s);
	sc_sshkey_release(&k);
}

static void test_patterns(void **state)
{
	(void)state;
	assert_int_equal(sc_match_pattern_list("in-toto", "in-toto"), 1);
	assert_int_equal(sc_match_pattern_list("in-toto", "git,*"), 1);
	assert_int_equal(sc_match_pattern_list("in-toto", "i?-t*o"), 1);
	assert_int_equal(sc_match_pattern_list("in-toto", "*,!in-toto"), -1);
	assert_int_equal(sc_match_pattern_list("in-toto", "git,file"), 0);
	assert_int_equal(sc_match_pattern_list("in-toto", ""), 0);
	assert_int_equal(sc_match_pattern_list("aaaaaaaaaaaaaaaaaaaaab",
					       "*a*a*a*a*a*a*a*a*c"), 0);
}

static void test_pae(void **state)
{
	struct sc_buf b = SC_BUF_INIT;

	(void)state;
	/* The example of the DSSE specification. */
	sc_dsse_pae(&b, "http://example.com/HelloWorld", "hello world", 11);
	assert_string_equal(b.data,
			    "DSSEv1 29 http://example.com/HelloWorld 11 hello world");
	sc_buf_release(&b);
}

static void test_envelope(void **state)
{
	static const char in[] =
		"{ \"signatures\": [ {\"sig\": \"AAEC\", \"keyid\": \"k\"} ],"
		"\"payloadType\": \"t\", \"payload\": \"aGk=\", \"extra\": 1 }";
	struct sc_dsse e;
	struct sc_buf out = SC_BUF_INIT;
	const char *why = NULL;

	(void)state;
	assert_int_equal(sc_dsse_parse(&e, in, strlen(in), &why), 0);
	assert_int_equal(e.payload.len, 2);
	assert_int_equal(e.nr, 1);
	assert_int_equal(sc_dsse_encode(&e, &out), 0);
	assert_string_equal(out.data, "{\"payload\":\"aGk=\",\"payloadType\":\"t\","
				      "\"signatures\":[{\"keyid\":\"k\",\"sig\":\"AAEC\"}]}");
	sc_dsse_release(&e);
	sc_buf_release(&out);
	assert_int_equal(sc_dsse_parse(&e, "{\"payload\":\"aGk\",\"payloadType\":"
					   "\"t\",\"signatures\":[]}", 49, &why),
			 -1);
	assert_int_equal(sc_dsse_parse(&e, "{\"payload\":\"aGk=\",\"payload\":"
					   "\"aGk=\",\"payloadType\":\"t\","
					   "\"signatures\":[]}", 64, &why), -1);
}

static void test_statement(void **state)
{
	static const char c[] = "0123456789abcdef0123456789abcdef01234567";
	static const char t[] = "89abcdef0123456789abcdef0123456789abcdef";
	json_t *pred = json_pack("{s:s, s:[s]}", "result", "PASSED",
				 "passedTests", "a");
	json_t *st = sc_intoto_statement("n", c, t, SC_PREDICATE_TEST_RESULT, pred);
	struct sc_buf out = SC_BUF_INIT;
	const char *why = NULL;
	char *ptype = NULL;

	(void)state;
	assert_non_null(st);
	assert_int_equal(sc_canonical_json(st, &out), 0);
	assert_string_equal(out.data,
		"{\"_type\":\"https://in-toto.io/Statement/v1\",\"predicate\":"
		"{\"passedTests\":[\"a\"],\"result\":\"PASSED\"},\"predicateType\":"
		"\"https://in-toto.io/attestation/test-result/v0.1\",\"subject\":"
		"[{\"digest\":{\"gitCommit\":\"0123456789abcdef0123456789abcdef01234567\","
		"\"gitTree\":\"89abcdef0123456789abcdef0123456789abcdef\"},\"name\":\"n\"}]}");
	assert_int_equal(sc_intoto_check_subject(out.data, out.len, c, t, &ptype,
						 &why), SC_SUBJECT_MATCH);
	assert_string_equal(ptype, SC_PREDICATE_TEST_RESULT);
	free(ptype);
	assert_int_equal(sc_intoto_check_subject(out.data, out.len, t, t, &ptype,
						 &why), SC_SUBJECT_MISMATCH);
	free(ptype);
	assert_int_equal(sc_intoto_check_subject(out.data, out.len, c, c, &ptype,
						 &why), SC_SUBJECT_MISMATCH);
	free(ptype);
	assert_int_equal(sc_intoto_check_subject("[]", 2, c, t, &ptype, &why),
			 SC_SUBJECT_MALFORMED);
	assert_null(ptype);
	assert_int_equal(sc_intoto_check_predicate(SC_PREDICATE_TEST_RESULT, pred,
						   &why), 0);
	json_object_set_new(pred, "result", json_string("MAYBE"));
	assert_int_equal(sc_intoto_check_predicate(SC_PREDICATE_TEST_RESULT, pred,
						   &why), -1);
	json_decref(st);
	json_decref(pred);
	sc_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ed25519),
		cmocka_unit_test(test_ecdsa),
		cmocka_unit_test(test_rsa),
		cmocka_unit_test(test_encrypted_key),
		cmocka_unit_test(test_signers),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_pae),
		cmocka_unit_test(test_envelope),
		cmocka_unit_test(test_statement),
	};

	return SC_RUN_TESTS(tests);
}
