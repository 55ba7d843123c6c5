#ifndef SC_SSHSIG_H
#define SC_SSHSIG_H

/*
 * SSH keys and SSH signatures (the sshsig format of OpenSSH's PROTOCOL.sshsig),
 * made and checked in process with libcrypto, so a verifier never runs
 * ssh-keygen or anything a repository could name.
 *
 * Key types: ssh-ed25519, ecdsa-sha2-nistp256 and ssh-rsa (signing and
 * verifying with SHA-2 only: rsa-sha2-512 or rsa-sha2-256; RSA moduli below
 * 2048 bits are refused).  Private keys come from OpenSSH key files
 * ("openssh-key-v1"), unencrypted only.
 *
 * Parsers take untrusted bytes: they never read past their input, cap every
 * length, and explain a refusal through *WHY (a fixed text, never input).
 */

#include <stddef.h>

#include <openssl/evp.h>

#include "buf.h"

enum sc_key_type {
	SC_KEY_NONE = 0,
	SC_KEY_ED25519,
	SC_KEY_ECDSA_P256,
	SC_KEY_RSA,
};

/*
 * A public key (pkey holds the private half too when loaded from a private
 * key file).  blob is the SSH wire encoding of the public key, the bytes a
 * fingerprint hashes and two keys are compared by.
 */
struct sc_sshkey {
	enum sc_key_type type;
	EVP_PKEY *pkey;
	struct sc_buf blob;
};

#define SC_SSHKEY_INIT { SC_KEY_NONE, NULL, SC_BUF_INIT }

void sc_sshkey_init(struct sc_sshkey *k);
void sc_sshkey_release(struct sc_sshkey *k);

/* The SSH name of a key type ("ssh-ed25519"), or NULL. */
const char *sc_sshkey_type_name(enum sc_key_type type);
/* The key type an SSH name stands for, or SC_KEY_NONE. */
enum sc_key_type sc_sshkey_type_from_name(const char *name, size_t len);

/* Parse the wire blob of a public key.  0, or -1 with *WHY set. */
int sc_sshkey_from_blob(struct sc_sshkey *k, const void *blob, size_t len,
			const char **why);
/*
 * Parse a public key as authorized_keys and allowed_signers write it: TYPE
 * ("ssh-ed25519") and the base64 of the blob, whose own type must agree.
 */
int sc_sshkey_from_base64(struct sc_sshkey *k, const char *type,
			  const char *b64, size_t b64len, const char **why);

enum {
	SC_SSHKEY_ERR_FORMAT = -1,
	SC_SSHKEY_ERR_ENCRYPTED = -2,
	SC_SSHKEY_ERR_READ = -3,
};

/*
 * Parse an OpenSSH private key file's contents.  0; SC_SSHKEY_ERR_ENCRYPTED
 * for a passphrase-protected key; SC_SSHKEY_ERR_FORMAT otherwise, with *WHY.
 * The decoded secret bytes are wiped before returning.
 */
int sc_sshkey_parse_private(struct sc_sshkey *k, const void *data, size_t len,
			    const char **why);
/*
 * Load a private key file (opened O_NOFOLLOW, capped at 64 KiB).  0, or
 * after its error printed SC_SSHKEY_ERR_READ (error[KEY-READ]),
 * SC_SSHKEY_ERR_ENCRYPTED (error[KEY-ENCRYPTED]) or SC_SSHKEY_ERR_FORMAT
 * (error[KEY-FORMAT]).
 */
int sc_sshkey_load_private(struct sc_sshkey *k, const char *path);

/* Append "SHA256:<base64, unpadded>" as ssh-keygen -l prints it. */
void sc_sshkey_fingerprint(const struct sc_sshkey *k, struct sc_buf *out);
/* Append "TYPE BASE64" (the authorized_keys form). */
void sc_sshkey_format_public(const struct sc_sshkey *k, struct sc_buf *out);
/* 1 when A and B are the same public key. */
int sc_sshkey_equal(const struct sc_sshkey *a, const struct sc_sshkey *b);

/*
 * Sign MSG under NAMESPACE with a private KEY (hash sha512) and append the
 * binary sshsig blob to SIG.  0, or -1 with error[SIGN-FAILED] reported.
 */
int sc_sshsig_sign(const struct sc_sshkey *key, const char *ns,
		   const void *msg, size_t len, struct sc_buf *sig);

enum sc_sshsig_status {
	SC_SSHSIG_OK = 0,
	SC_SSHSIG_MALFORMED = -1,  /* not an sshsig blob we can read */
	SC_SSHSIG_BAD = -2,        /* well formed, but the signature fails */
};

/*
 * Check the binary sshsig blob SIG over MSG under namespace NS.  On
 * SC_SSHSIG_OK the key that made it is in *SIGNER (caller releases; only
 * then is it set).  Which keys are trusted is the caller's question.
 */
int sc_sshsig_verify(const void *sig, size_t siglen, const char *ns,
		     const void *msg, size_t len, struct sc_sshkey *signer,
		     const char **why);

/* The ASCII armour ssh-keygen -Y sign writes, and back. */
void sc_sshsig_armor(const void *sig, size_t len, struct sc_buf *out);
int sc_sshsig_dearmor(const char *text, size_t len, struct sc_buf *sig);

#endif
