/*
 * SSH keys and sshsig signatures with libcrypto.  The formats:
 *
 *   public key blob   string type, then ed25519: string pk(32)
 *                     | ecdsa: string "nistp256", string Q (65, uncompressed)
 *                     | rsa: mpint e, mpint n
 *   sshsig blob       "SSHSIG" uint32 1, string pubkey, string namespace,
 *                     string reserved, string hash_alg, string signature
 *   signed data       "SSHSIG" string namespace, string reserved,
 *                     string hash_alg, string H(message)
 *   signature         string sigtype, string sigbytes (ecdsa: mpint r, s)
 *
 * (OpenSSH PROTOCOL.sshsig, PROTOCOL.key, RFC 4253, RFC 5656, RFC 8709.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ecdsa.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "alloc.h"
#include "bytes.h"
#include "diag.h"
#include "encode.h"
#include "io.h"
#include "sshsig.h"

#define SSHSIG_MAGIC "SSHSIG"
#define SSHSIG_MAGIC_LEN 6
#define SSHSIG_VERSION 1
#define ED25519_LEN 32
#define P256_POINT_LEN 65
#define RSA_MIN_BITS 2048
#define RSA_MAX_BITS 16384
/* A private key file: a 16384-bit RSA key is about 12 KiB of base64. */
#define KEYFILE_MAX 65536

/* ---- reading and writing the SSH wire format ---- */

static int rd_u32(struct sc_bytes *r, uint32_t *v)
{
	size_t n;

	if (sc_bytes_uint(r, 4, &n))
		return -1;
	*v = (uint32_t)n;
	return 0;
}

/* An SSH string: a 32-bit length and that many bytes. */
static int rd_string(struct sc_bytes *r, struct sc_bytes *s)
{
	return sc_bytes_vec(r, 4, s);
}

static int rd_eq(const struct sc_bytes *s, const char *text)
{
	return s->len == strlen(text) && !memcmp(s->p, text, s->len);
}

/* An mpint that must be positive (RFC 4251 section 5), as a BIGNUM. */
static int rd_mpint(struct sc_bytes *r, BIGNUM **bn)
{
	struct sc_bytes s;

	if (rd_string(r, &s) || (s.len && (s.p[0] & 0x80)) ||
	    s.len > RSA_MAX_BITS / 8 + 1)
		return -1;
	*bn = BN_bin2bn(s.p, (int)s.len, NULL);
	return *bn ? 0 : -1;
}

static void wr_u32(struct sc_buf *b, uint32_t v)
{
	unsigned char x[4] = { v >> 24, v >> 16 & 0xff, v >> 8 & 0xff, v & 0xff };

	sc_buf_add(b, x, 4);
}

static void wr_string(struct sc_buf *b, const void *data, size_t len)
{
	if (len > UINT32_MAX)
		sc_die(SC_EXIT_INTERNAL, "INTERNAL", "SSH string longer than 4 GiB");
	wr_u32(b, (uint32_t)len);
	sc_buf_add(b, data, len);
}

static void wr_cstring(struct sc_buf *b, const char *s)
{
	wr_string(b, s, strlen(s));
}

static void wr_mpint(struct sc_buf *b, const BIGNUM *bn)
{
	int n = BN_num_bytes(bn);
	unsigned char *x = sc_xmalloc((size_t)n + 1);

	x[0] = 0;
	BN_bn2bin(bn, x + 1);
	/* A leading zero keeps a number whose top bit is set positive. */
	if (n > 0 && (x[1] & 0x80))
		wr_string(b, x, (size_t)n + 1);
	else
		wr_string(b, x + 1, (size_t)n);
	free(x);
}

/* ---- key types ---- */

static const struct {
	enum sc_key_type type;
	const char *name;
} key_names[] = {
	{ SC_KEY_ED25519, "ssh-ed25519" },
	{ SC_KEY_ECDSA_P256, "ecdsa-sha2-nistp256" },
	{ SC_KEY_RSA, "ssh-rsa" },
};

const char *sc_sshkey_type_name(enum sc_key_type type)
{
	size_t i;

	for (i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (key_names[i].type == type)
			return key_names[i].name;
	return NULL;
}

enum sc_key_type sc_sshkey_type_from_name(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (strlen(key_names[i].name) == len &&
		    !memcmp(key_names[i].name, name, len))
			return key_names[i].type;
	return SC_KEY_NONE;
}

void sc_sshkey_init(struct sc_sshkey *k)
{
	k->type = SC_KEY_NONE;
	k->pkey = NULL;
	sc_buf_init(&k->blob);
}

void sc_sshkey_release(struct sc_sshkey *k)
{
	EVP_PKEY_free(k->pkey);
	sc_buf_release(&k->blob);
	sc_sshkey_init(k);
}

/* ---- building EVP_PKEYs ---- */

static EVP_PKEY *pkey_fromdata(const char *alg, OSSL_PARAM_BLD *bld,
			       int selection)
{
	OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
	EVP_PKEY *pkey = NULL;

	if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &pkey, selection, params) <= 0)
		pkey = NULL;
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	return pkey;
}

/* An EC P-256 key from its point Q and, for a private key, its scalar D. */
static EVP_PKEY *ec_pkey(const struct sc_bytes *q, const BIGNUM *d)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	EVP_PKEY *pkey = NULL;

	if (bld &&
	    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
					    "prime256v1", 0) &&
	    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY,
					     q->p, q->len) &&
	    (!d || OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d)))
		pkey = pkey_fromdata("EC", bld, d ? EVP_PKEY_KEYPAIR :
						     EVP_PKEY_PUBLIC_KEY);
	OSSL_PARAM_BLD_free(bld);
	return pkey;
}

struct rsa_parts {
	BIGNUM *n, *e, *d, *iqmp, *p, *q;
};

static void rsa_parts_free(struct rsa_parts *r)
{
	BN_free(r->n);
	BN_free(r->e);
	BN_clear_free(r->d);
	BN_clear_free(r->iqmp);
	BN_clear_free(r->p);
	BN_clear_free(r->q);
	memset(r, 0, sizeof(*r));
}

/* d mod (p - 1) or d mod (q - 1): the CRT exponents OpenSSH does not store. */
static BIGNUM *crt_exponent(const BIGNUM *d, const BIGNUM *prime, BN_CTX *bnc)
{
	BIGNUM *pm1 = BN_dup(prime), *r = BN_secure_new();

	if (!pm1 || !r || !BN_sub_word(pm1, 1) || !BN_mod(r, d, pm1, bnc)) {
		BN_clear_free(r);
		r = NULL;
	}
	BN_clear_free(pm1);
	return r;
}

static EVP_PKEY *rsa_pkey(const struct rsa_parts *r)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	BN_CTX *bnc = BN_CTX_new();
	BIGNUM *dp = NULL, *dq = NULL;
	EVP_PKEY *pkey = NULL;
	int priv = r->d != NULL;
	int ok = bld && bnc &&
		 OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, r->n) &&
		 OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, r->e);

	if (ok && priv) {
		dp = crt_exponent(r->d, r->p, bnc);
		dq = crt_exponent(r->d, r->q, bnc);
		ok = dp && dq &&
		     OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, r->d) &&
		     OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR1, r->p) &&
		     OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR2, r->q) &&
		     OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp) &&
		     OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq) &&
		     OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
					    r->iqmp);
	}
	if (ok)
		pkey = pkey_fromdata("RSA", bld, priv ? EVP_PKEY_KEYPAIR :
							EVP_PKEY_PUBLIC_KEY);
	BN_clear_free(dp);
	BN_clear_free(dq);
	BN_CTX_free(bnc);
	OSSL_PARAM_BLD_free(bld);
	return pkey;
}

static int rsa_size_ok(const BIGNUM *n, const char **why)
{
	int bits = BN_num_bits(n);

	if (bits < RSA_MIN_BITS || bits > RSA_MAX_BITS) {
		*why = "RSA modulus size outside 2048..16384 bits";
		return 0;
	}
	return 1;
}

/* ---- public keys ---- */

/* Parse the key fields after the type string of a public key blob. */
static int pub_fields(struct sc_sshkey *k, struct sc_bytes *r, const char **why)
{
	struct sc_bytes a, b;
	struct rsa_parts rp = { 0 };

	switch (k->type) {
	case SC_KEY_ED25519:
		if (rd_string(r, &a) || a.len != ED25519_LEN)
			return *why = "bad Ed25519 public key", -1;
		k->pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL,
						      a.p, a.len);
		break;
	case SC_KEY_ECDSA_P256:
		if (rd_string(r, &a) || !rd_eq(&a, "nistp256") ||
		    rd_string(r, &b) || b.len != P256_POINT_LEN || b.p[0] != 4)
			return *why = "bad ECDSA P-256 public key", -1;
		k->pkey = ec_pkey(&b, NULL);
		break;
	case SC_KEY_RSA:
		if (rd_mpint(r, &rp.e) || rd_mpint(r, &rp.n)) {
			rsa_parts_free(&rp);
			return *why = "bad RSA public key", -1;
		}
		if (!rsa_size_ok(rp.n, why)) {
			rsa_parts_free(&rp);
			return -1;
		}
		k->pkey = rsa_pkey(&rp);
		rsa_parts_free(&rp);
		break;
	default:
		return *why = "unsupported key type", -1;
	}
	if (!k->pkey)
		return *why = "key rejected by libcrypto", -1;
	return 0;
}

int sc_sshkey_from_blob(struct sc_sshkey *k, const void *blob, size_t len,
			const char **why)
{
	struct sc_bytes r = { blob, len }, name;

	sc_sshkey_init(k);
	if (rd_string(&r, &name))
		return *why = "truncated public key", -1;
	k->type = sc_sshkey_type_from_name((const char *)name.p, name.len);
	if (k->type == SC_KEY_NONE)
		return *why = "unsupported key type", -1;
	if (pub_fields(k, &r, why) < 0) {
		sc_sshkey_release(k);
		return -1;
	}
	if (r.len) {
		sc_sshkey_release(k);
		return *why = "trailing bytes after public key", -1;
	}
	sc_buf_add(&k->blob, blob, len);
	return 0;
}

int sc_sshkey_from_base64(struct sc_sshkey *k, const char *type,
			  const char *b64, size_t b64len, const char **why)
{
	struct sc_buf raw = SC_BUF_INIT;
	int ret;

	sc_sshkey_init(k);
	if (sc_base64_decode(&raw, b64, b64len) < 0) {
		sc_buf_release(&raw);
		return *why = "key is not base64", -1;
	}
	ret = sc_sshkey_from_blob(k, raw.data, raw.len, why);
	sc_buf_release(&raw);
	if (!ret && strcmp(type, sc_sshkey_type_name(k->type))) {
		sc_sshkey_release(k);
		return *why = "key type does not match the key", -1;
	}
	return ret;
}

void sc_sshkey_fingerprint(const struct sc_sshkey *k, struct sc_buf *out)
{
	unsigned char md[32];

	EVP_Digest(k->blob.data, k->blob.len, md, NULL, EVP_sha256(), NULL);
	sc_buf_adds(out, "SHA256:");
	sc_base64_encode(out, md, sizeof(md), SC_B64_NOPAD);
}

void sc_sshkey_format_public(const struct sc_sshkey *k, struct sc_buf *out)
{
	sc_buf_adds(out, sc_sshkey_type_name(k->type));
	sc_buf_addch(out, ' ');
	sc_base64_encode(out, k->blob.data, k->blob.len, 0);
}

int sc_sshkey_equal(const struct sc_sshkey *a, const struct sc_sshkey *b)
{
	return a->type != SC_KEY_NONE && a->type == b->type &&
	       a->blob.len == b->blob.len &&
	       !memcmp(a->blob.data, b->blob.data, a->blob.len);
}

/* ---- private keys (PROTOCOL.key) ---- */

#define PEM_BEGIN "-----BEGIN OPENSSH PRIVATE KEY-----"
#define PEM_END "-----END OPENSSH PRIVATE KEY-----"
#define KEY_MAGIC "openssh-key-v1"

/* Collect the base64 between the armour lines, without white space. */
static int unarmor_key(const char *text, size_t len, struct sc_buf *b64,
		       const char **why)
{
	const char *end = text + len, *p, *stop;

	p = memmem(text, len, PEM_BEGIN, strlen(PEM_BEGIN));
	if (!p) {
		if (memmem(text, len, "ENCRYPTED", 9))
			return SC_SSHKEY_ERR_ENCRYPTED;
		return *why = "not an OpenSSH private key (convert it with "
			      "ssh-keygen -p -f FILE)", -1;
	}
	p += strlen(PEM_BEGIN);
	stop = memmem(p, (size_t)(end - p), PEM_END, strlen(PEM_END));
	if (!stop)
		return *why = "no end line in the private key", -1;
	for (; p < stop; p++) {
		if (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')
			continue;
		sc_buf_addch(b64, *p);
	}
	return 0;
}

/* Check that the serialised public part equals the file's public blob. */
static int pub_matches(const struct sc_buf *built, const struct sc_bytes *outer)
{
	return built->len == outer->len &&
	       !memcmp(built->data, outer->p, outer->len);
}

static int priv_ed25519(struct sc_sshkey *k, struct sc_bytes *r,
			struct sc_buf *pubblob, const char **why)
{
	struct sc_bytes pk, sk;

	if (rd_string(r, &pk) || pk.len != ED25519_LEN || rd_string(r, &sk) ||
	    sk.len != 2 * ED25519_LEN ||
	    memcmp(sk.p + ED25519_LEN, pk.p, ED25519_LEN))
		return *why = "bad Ed25519 private key", -1;
	wr_cstring(pubblob, "ssh-ed25519");
	wr_string(pubblob, pk.p, pk.len);
	/* The first half of OpenSSH's 64 bytes is the RFC 8032 seed. */
	k->pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, sk.p,
					       ED25519_LEN);
	return 0;
}

static int priv_ecdsa(struct sc_sshkey *k, struct sc_bytes *r,
		      struct sc_buf *pubblob, const char **why)
{
	struct sc_bytes curve, q;
	BIGNUM *d = NULL;

	if (rd_string(r, &curve) || !rd_eq(&curve, "nistp256") ||
	    rd_string(r, &q) || q.len != P256_POINT_LEN || q.p[0] != 4 ||
	    rd_mpint(r, &d))
		return *why = "bad ECDSA P-256 private key", -1;
	wr_cstring(pubblob, "ecdsa-sha2-nistp256");
	wr_cstring(pubblob, "nistp256");
	wr_string(pubblob, q.p, q.len);
	k->pkey = ec_pkey(&q, d);
	BN_clear_free(d);
	return 0;
}

static int priv_rsa(struct sc_sshkey *k, struct sc_bytes *r, struct sc_buf *pubblob,
		    const char **why)
{
	struct rsa_parts rp = { 0 };
	int ret = -1;

	/* OpenSSH stores n, e, d, iqmp, p, q in this order. */
	if (rd_mpint(r, &rp.n) || rd_mpint(r, &rp.e) || rd_mpint(r, &rp.d) ||
	    rd_mpint(r, &rp.iqmp) || rd_mpint(r, &rp.p) || rd_mpint(r, &rp.q))
		*why = "bad RSA private key";
	else if (rsa_size_ok(rp.n, why)) {
		wr_cstring(pubblob, "ssh-rsa");
		wr_mpint(pubblob, rp.e);
		wr_mpint(pubblob, rp.n);
		k->pkey = rsa_pkey(&rp);
		ret = 0;
	}
	rsa_parts_free(&rp);
	return ret;
}

/* A private key whose halves disagree would sign for a key it is not. */
static int pairwise_ok(EVP_PKEY *pkey)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
	int ok = ctx && EVP_PKEY_pairwise_check(ctx) == 1;

	EVP_PKEY_CTX_free(ctx);
	return ok;
}

/* The decrypted section: checkints, one key, comment, padding 1, 2, 3... */
static int private_section(struct sc_sshkey *k, struct sc_bytes *r,
			   const struct sc_bytes *outer_pub, const char **why)
{
	struct sc_buf pubblob = SC_BUF_INIT;
	uint32_t c1, c2;
	struct sc_bytes type, comment;
	int ret = -1;
	size_t i;

	if (rd_u32(r, &c1) || rd_u32(r, &c2) || c1 != c2)
		return *why = "bad check bytes in the private key", -1;
	if (rd_string(r, &type))
		return *why = "truncated private key", -1;
	k->type = sc_sshkey_type_from_name((const char *)type.p, type.len);
	if (k->type == SC_KEY_ED25519)
		ret = priv_ed25519(k, r, &pubblob, why);
	else if (k->type == SC_KEY_ECDSA_P256)
		ret = priv_ecdsa(k, r, &pubblob, why);
	else if (k->type == SC_KEY_RSA)
		ret = priv_rsa(k, r, &pubblob, why);
	else
		*why = "unsupported private key type";
	if (!ret && rd_string(r, &comment))
		ret = -1, *why = "truncated private key";
	for (i = 0; !ret && i < r->len; i++)
		if (r->p[i] != (unsigned char)(i + 1))
			ret = -1, *why = "bad padding in the private key";
	if (!ret && !pub_matches(&pubblob, outer_pub))
		ret = -1, *why = "private and public halves of the key differ";
	if (!ret && !k->pkey)
		ret = -1, *why = "key rejected by libcrypto";
	if (!ret && k->type != SC_KEY_ED25519 && !pairwise_ok(k->pkey))
		ret = -1, *why = "private key does not match its public key";
	if (!ret)
		sc_buf_add(&k->blob, pubblob.data, pubblob.len);
	sc_buf_release(&pubblob);
	return ret;
}

static int parse_container(struct sc_sshkey *k, const struct sc_buf *raw,
			   const char **why)
{
	struct sc_bytes r = { (const unsigned char *)raw->data, raw->len };
	struct sc_bytes cipher, kdf, kdfopts, pub, priv;
	const unsigned char *magic;
	uint32_t nkeys;

	if (sc_bytes_take(&r, sizeof(KEY_MAGIC), &magic) ||
	    memcmp(magic, KEY_MAGIC, sizeof(KEY_MAGIC)))
		return *why = "not an openssh-key-v1 key", -1;
	if (rd_string(&r, &cipher))
		return *why = "truncated private key", -1;
	if (!rd_eq(&cipher, "none"))
		return SC_SSHKEY_ERR_ENCRYPTED;
	if (rd_string(&r, &kdf) || rd_string(&r, &kdfopts) || rd_u32(&r, &nkeys))
		return *why = "truncated private key", -1;
	if (!rd_eq(&kdf, "none"))
		return SC_SSHKEY_ERR_ENCRYPTED;
	if (nkeys != 1)
		return *why = "a key file must hold exactly one key", -1;
	if (rd_string(&r, &pub) || rd_string(&r, &priv) || r.len)
		return *why = "truncated private key", -1;
	if (priv.len % 8)
		return *why = "private section not a multiple of the block size",
		       -1;
	return private_section(k, &priv, &pub, why);
}

int sc_sshkey_parse_private(struct sc_sshkey *k, const void *data, size_t len,
			    const char **why)
{
	struct sc_buf b64 = SC_BUF_INIT, raw = SC_BUF_INIT;
	int ret;

	sc_sshkey_init(k);
	*why = "unreadable private key";
	ret = unarmor_key(data, len, &b64, why);
	if (!ret && sc_base64_decode(&raw, b64.data ? b64.data : "", b64.len))
		ret = -1, *why = "private key is not base64";
	if (!ret)
		ret = parse_container(k, &raw, why);
	if (ret < 0)
		ret = ret == SC_SSHKEY_ERR_ENCRYPTED ? SC_SSHKEY_ERR_ENCRYPTED :
						       SC_SSHKEY_ERR_FORMAT;
	if (ret)
		sc_sshkey_release(k);
	sc_buf_wipe(&b64);
	sc_buf_wipe(&raw);
	return ret;
}

static int read_key_file(const char *path, struct sc_buf *out)
{
	int st = sc_read_file_at(AT_FDCWD, path, KEYFILE_MAX, SC_OPEN_NOFOLLOW,
				 out);

	if (st == -2)
		errno = EFBIG;
	return st < 0 ? -1 : 0;
}

int sc_sshkey_load_private(struct sc_sshkey *k, const char *path)
{
	struct sc_buf text = SC_BUF_INIT;
	const char *why = "";
	int ret;

	sc_sshkey_init(k);
	if (read_key_file(path, &text) < 0) {
		sc_buf_wipe(&text);
		sc_error_errno("KEY-READ", "cannot read key '%s'", path);
		return SC_SSHKEY_ERR_READ;
	}
	ret = sc_sshkey_parse_private(k, text.data ? text.data : "", text.len,
				      &why);
	sc_buf_wipe(&text);
	if (ret == SC_SSHKEY_ERR_ENCRYPTED) {
		sc_error("KEY-ENCRYPTED", "key '%s' is protected by a passphrase; "
			 "record with --unsigned and sign later", path);
		return SC_SSHKEY_ERR_ENCRYPTED;
	}
	if (ret) {
		sc_error("KEY-FORMAT", "key '%s': %s", path, why);
		return SC_SSHKEY_ERR_FORMAT;
	}
	return 0;
}

/* ---- signatures ---- */

static const EVP_MD *hash_by_name(const struct sc_bytes *name)
{
	if (rd_eq(name, "sha512"))
		return EVP_sha512();
	if (rd_eq(name, "sha256"))
		return EVP_sha256();
	return NULL;
}

/* The bytes the key signs: PROTOCOL.sshsig's "signed data". */
static void signed_data(struct sc_buf *out, const char *ns, const char *hash,
			const EVP_MD *md, const void *msg, size_t len)
{
	unsigned char h[EVP_MAX_MD_SIZE];
	unsigned int hlen = 0;

	EVP_Digest(msg, len, h, &hlen, md, NULL);
	sc_buf_add(out, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN);
	wr_cstring(out, ns);
	wr_string(out, "", 0);
	wr_cstring(out, hash);
	wr_string(out, h, hlen);
}

/* The digest each key type signs with, and the signature's type name. */
static const EVP_MD *key_md(enum sc_key_type type, const char **signame)
{
	switch (type) {
	case SC_KEY_ED25519:
		*signame = "ssh-ed25519";
		return NULL;
	case SC_KEY_ECDSA_P256:
		*signame = "ecdsa-sha2-nistp256";
		return EVP_sha256();
	default:
		*signame = "rsa-sha2-512";
		return EVP_sha512();
	}
}

/* ECDSA: libcrypto speaks DER, SSH speaks string(mpint r, mpint s). */
static int ecdsa_der_to_ssh(const unsigned char *der, size_t len,
			    struct sc_buf *out)
{
	ECDSA_SIG *s = d2i_ECDSA_SIG(NULL, &der, (long)len);
	struct sc_buf inner = SC_BUF_INIT;

	if (!s)
		return -1;
	wr_mpint(&inner, ECDSA_SIG_get0_r(s));
	wr_mpint(&inner, ECDSA_SIG_get0_s(s));
	wr_string(out, inner.data, inner.len);
	sc_buf_release(&inner);
	ECDSA_SIG_free(s);
	return 0;
}

static int raw_sign(const struct sc_sshkey *key, const struct sc_buf *data,
		    struct sc_buf *sigfield)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	const char *signame;
	const EVP_MD *md = key_md(key->type, &signame);
	unsigned char *sig = NULL;
	size_t siglen = 0;
	int ret = -1;

	if (!ctx || EVP_DigestSignInit(ctx, NULL, md, NULL, key->pkey) <= 0 ||
	    EVP_DigestSign(ctx, NULL, &siglen, (const unsigned char *)data->data,
			   data->len) <= 0)
		goto out;
	sig = sc_xmalloc(siglen ? siglen : 1);
	if (EVP_DigestSign(ctx, sig, &siglen, (const unsigned char *)data->data,
			   data->len) <= 0)
		goto out;
	wr_cstring(sigfield, signame);
	if (key->type == SC_KEY_ECDSA_P256)
		ret = ecdsa_der_to_ssh(sig, siglen, sigfield);
	else {
		wr_string(sigfield, sig, siglen);
		ret = 0;
	}
out:
	free(sig);
	EVP_MD_CTX_free(ctx);
	return ret;
}

int sc_sshsig_sign(const struct sc_sshkey *key, const char *ns,
		   const void *msg, size_t len, struct sc_buf *sig)
{
	struct sc_buf data = SC_BUF_INIT, field = SC_BUF_INIT;
	int ret;

	signed_data(&data, ns, "sha512", EVP_sha512(), msg, len);
	ret = raw_sign(key, &data, &field);
	if (!ret) {
		sc_buf_add(sig, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN);
		wr_u32(sig, SSHSIG_VERSION);
		wr_string(sig, key->blob.data, key->blob.len);
		wr_cstring(sig, ns);
		wr_string(sig, "", 0);
		wr_cstring(sig, "sha512");
		wr_string(sig, field.data, field.len);
	} else {
		sc_error("SIGN-FAILED", "libcrypto could not sign");
	}
	sc_buf_release(&data);
	sc_buf_release(&field);
	return ret;
}

static int ecdsa_ssh_to_der(const struct sc_bytes *sig, struct sc_buf *der)
{
	struct sc_bytes r = *sig;
	BIGNUM *br = NULL, *bs = NULL;
	ECDSA_SIG *s;
	unsigned char *out = NULL;
	int n, ret = -1;

	if (rd_mpint(&r, &br) || rd_mpint(&r, &bs) || r.len) {
		BN_free(br);
		BN_free(bs);
		return -1;
	}
	s = ECDSA_SIG_new();
	if (!s || !ECDSA_SIG_set0(s, br, bs)) {
		BN_free(br);
		BN_free(bs);
		ECDSA_SIG_free(s);
		return -1;
	}
	n = i2d_ECDSA_SIG(s, &out);
	if (n > 0) {
		sc_buf_add(der, out, (size_t)n);
		ret = 0;
	}
	OPENSSL_free(out);
	ECDSA_SIG_free(s);
	return ret;
}

/* Which signature algorithms a key type accepts: never SHA-1 RSA. */
static const EVP_MD *sig_md(enum sc_key_type type, const struct sc_bytes *name,
			    int *ok)
{
	*ok = 1;
	if (type == SC_KEY_ED25519 && rd_eq(name, "ssh-ed25519"))
		return NULL;
	if (type == SC_KEY_ECDSA_P256 && rd_eq(name, "ecdsa-sha2-nistp256"))
		return EVP_sha256();
	if (type == SC_KEY_RSA && rd_eq(name, "rsa-sha2-512"))
		return EVP_sha512();
	if (type == SC_KEY_RSA && rd_eq(name, "rsa-sha2-256"))
		return EVP_sha256();
	*ok = 0;
	return NULL;
}

static int raw_verify(const struct sc_sshkey *key, const struct sc_bytes *field,
		      const struct sc_buf *data, const char **why)
{
	struct sc_bytes r = *field, name, sig;
	struct sc_buf der = SC_BUF_INIT;
	const EVP_MD *md;
	EVP_MD_CTX *ctx;
	int ok, ret;

	if (rd_string(&r, &name) || rd_string(&r, &sig) || r.len)
		return *why = "malformed signature field", SC_SSHSIG_MALFORMED;
	md = sig_md(key->type, &name, &ok);
	if (!ok)
		return *why = "signature algorithm not allowed for this key",
		       SC_SSHSIG_MALFORMED;
	if (key->type == SC_KEY_ECDSA_P256) {
		if (ecdsa_ssh_to_der(&sig, &der))
			return *why = "malformed ECDSA signature",
			       SC_SSHSIG_MALFORMED;
		sig.p = (const unsigned char *)der.data;
		sig.len = der.len;
	}
	ctx = EVP_MD_CTX_new();
	ret = ctx && EVP_DigestVerifyInit(ctx, NULL, md, NULL, key->pkey) > 0 &&
	      EVP_DigestVerify(ctx, sig.p, sig.len,
			       (const unsigned char *)data->data, data->len) == 1;
	EVP_MD_CTX_free(ctx);
	sc_buf_release(&der);
	if (!ret)
		return *why = "signature does not verify", SC_SSHSIG_BAD;
	return SC_SSHSIG_OK;
}

int sc_sshsig_verify(const void *sigblob, size_t siglen, const char *ns,
		     const void *msg, size_t len, struct sc_sshkey *signer,
		     const char **why)
{
	struct sc_bytes r = { sigblob, siglen }, pub, sns, reserved, hash, field;
	const unsigned char *magic;
	struct sc_sshkey key;
	struct sc_buf data = SC_BUF_INIT;
	const EVP_MD *md;
	uint32_t version;
	int ret;

	if (sc_bytes_take(&r, SSHSIG_MAGIC_LEN, &magic) ||
	    memcmp(magic, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN) || rd_u32(&r, &version))
		return *why = "not an SSH signature", SC_SSHSIG_MALFORMED;
	if (version != SSHSIG_VERSION)
		return *why = "unsupported SSH signature version",
		       SC_SSHSIG_MALFORMED;
	if (rd_string(&r, &pub) || rd_string(&r, &sns) ||
	    rd_string(&r, &reserved) || rd_string(&r, &hash) ||
	    rd_string(&r, &field) || r.len)
		return *why = "truncated SSH signature", SC_SSHSIG_MALFORMED;
	if (!rd_eq(&sns, ns))
		return *why = "signature made for another namespace", SC_SSHSIG_BAD;
	if (!(md = hash_by_name(&hash)))
		return *why = "unsupported hash algorithm", SC_SSHSIG_MALFORMED;
	if (sc_sshkey_from_blob(&key, pub.p, pub.len, why) < 0)
		return SC_SSHSIG_MALFORMED;
	/* The reserved field is signed as it is, as OpenSSH does. */
	sc_buf_add(&data, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN);
	wr_cstring(&data, ns);
	wr_string(&data, reserved.p, reserved.len);
	wr_string(&data, hash.p, hash.len);
	{
		unsigned char h[EVP_MAX_MD_SIZE];
		unsigned int hlen = 0;

		EVP_Digest(msg, len, h, &hlen, md, NULL);
		wr_string(&data, h, hlen);
	}
	ret = raw_verify(&key, &field, &data, why);
	sc_buf_release(&data);
	if (ret == SC_SSHSIG_OK)
		*signer = key;
	else
		sc_sshkey_release(&key);
	return ret;
}

#define SIG_BEGIN "-----BEGIN SSH SIGNATURE-----"
#define SIG_END "-----END SSH SIGNATURE-----"

void sc_sshsig_armor(const void *sig, size_t len, struct sc_buf *out)
{
	struct sc_buf b64 = SC_BUF_INIT;
	size_t i;

	sc_base64_encode(&b64, sig, len, 0);
	sc_buf_adds(out, SIG_BEGIN "\n");
	/* ssh-keygen wraps at 70 columns. */
	for (i = 0; i < b64.len; i += 70) {
		sc_buf_add(out, b64.data + i, b64.len - i < 70 ? b64.len - i : 70);
		sc_buf_addch(out, '\n');
	}
	sc_buf_adds(out, SIG_END "\n");
	sc_buf_release(&b64);
}

int sc_sshsig_dearmor(const char *text, size_t len, struct sc_buf *sig)
{
	struct sc_buf b64 = SC_BUF_INIT;
	const char *p, *stop;
	int ret;

	p = memmem(text, len, SIG_BEGIN, strlen(SIG_BEGIN));
	if (!p)
		return -1;
	p += strlen(SIG_BEGIN);
	stop = memmem(p, len - (size_t)(p - text), SIG_END, strlen(SIG_END));
	if (!stop)
		return -1;
	for (; p < stop; p++)
		if (*p != '\n' && *p != '\r' && *p != ' ' && *p != '\t')
			sc_buf_addch(&b64, *p);
	ret = sc_base64_decode(sig, b64.data ? b64.data : "", b64.len);
	sc_buf_release(&b64);
	return ret;
}
