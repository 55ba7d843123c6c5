#ifndef SC_SIGNERS_H
#define SC_SIGNERS_H

/*
 * The allowed_signers file of ssh-keygen(1) (ALLOWED SIGNERS): the only
 * source of trust for sc-attest verify.  One signer a line:
 *
 *   principals [options] keytype base64-key [comment]
 *
 * principals: a comma-separated list (a label here: verify trusts a key,
 * whoever it names).  options, comma-separated, values in double quotes:
 * namespaces="in-toto,git" (patterns with * ? and !), valid-after="TIME",
 * valid-before="TIME" (TIME is YYYYMMDD[HHMM[SS]], local time, or UTC with a
 * trailing Z).  cert-authority is refused: certificates are not supported,
 * so a CA line would silently trust nothing, and an error says it instead.
 *
 * Key types this build cannot check (FIDO sk-*, ECDSA P-384/P-521, DSA,
 * certificates) are kept as entries with no key and a reason: they match
 * nothing, and the loader warns once per line.
 */

#include <stddef.h>
#include <time.h>

#include "sshsig.h"

/* Caps against pathological files: OpenSSH caps principals at 1024. */
#define SC_SIGNERS_FILE_MAX ((size_t)1 << 20)
#define SC_SIGNERS_LINE_MAX 16384
#define SC_SIGNERS_PRINCIPALS_MAX 1024

struct sc_signer {
	unsigned long line;
	char *principals;
	char *namespaces;      /* the pattern list; NULL: every namespace */
	int has_after, has_before;
	time_t valid_after, valid_before;
	struct sc_sshkey key;  /* type SC_KEY_NONE when unsupported */
	const char *unsupported; /* why the key is not usable, or NULL */
};

struct sc_signers {
	struct sc_signer *v;
	size_t nr, alloc;
};

#define SC_SIGNERS_INIT { NULL, 0, 0 }

void sc_signers_init(struct sc_signers *s);
void sc_signers_release(struct sc_signers *s);

struct sc_signers_error {
	unsigned long line;
	const char *why;  /* a fixed text */
};

/* Parse TEXT (LEN bytes; may hold NULs, which are an error).  0 or -1. */
int sc_signers_parse(struct sc_signers *s, const char *text, size_t len,
		     struct sc_signers_error *err);
/*
 * Load PATH and report error[ALLOWED-SIGNERS] (with the line) or
 * warning[UNSUPPORTED-KEY].  0, or -1 when it cannot be read or parsed
 * (the verifier's command is wrong: sc-attest(1) exits 2).
 */
int sc_signers_load(struct sc_signers *s, const char *path);

enum sc_signer_status {
	SC_SIGNER_OK = 0,
	SC_SIGNER_UNKNOWN,        /* no line has this key */
	SC_SIGNER_NAMESPACE,      /* listed, but not for this namespace */
	SC_SIGNER_NOT_YET_VALID,  /* valid-after is in the future */
	SC_SIGNER_EXPIRED,        /* valid-before is in the past */
};

/*
 * Is KEY allowed to sign in namespace NS at time NOW?  On SC_SIGNER_OK,
 * *MATCH is the line that allows it.  A key listed on several lines is
 * allowed when any of them allows it.
 */
enum sc_signer_status sc_signers_find(const struct sc_signers *s,
				      const struct sc_sshkey *key,
				      const char *ns, time_t now,
				      const struct sc_signer **match);
const char *sc_signer_status_text(enum sc_signer_status st);

/* OpenSSH's match_pattern_list: 1 match, -1 negated match, 0 none. */
int sc_match_pattern_list(const char *s, const char *list);

#endif
