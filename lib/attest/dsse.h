#ifndef SC_DSSE_H
#define SC_DSSE_H

/*
 * DSSE envelopes (github.com/secure-systems-lab/dsse, protocol v1):
 *
 *   {"payload":B64,"payloadType":TYPE,"signatures":[{"keyid":K,"sig":B64}]}
 *
 * written as canonical JSON on one line.  Signatures are made over the
 * pre-authentication encoding
 *
 *   PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body
 *
 * (LEN in ASCII decimal), never over the JSON, so the JSON's spelling does
 * not matter to a signature.  For sc-attest, sig is the base64 of a binary
 * sshsig blob and keyid the key's SHA256: fingerprint.
 */

#include <stddef.h>

#include "buf.h"

#define SC_DSSE_INTOTO "application/vnd.in-toto+json"
/* A note line longer than this is malformed: it bounds verify's memory. */
#define SC_DSSE_LINE_MAX ((size_t)4 << 20)
#define SC_DSSE_SIGS_MAX 16

struct sc_dsse_sig {
	char *keyid;          /* NULL when absent */
	struct sc_buf sig;    /* decoded */
};

struct sc_dsse {
	char *payload_type;
	struct sc_buf payload;  /* decoded */
	struct sc_dsse_sig *sigs;
	size_t nr, alloc;
};

void sc_dsse_init(struct sc_dsse *e);
void sc_dsse_release(struct sc_dsse *e);

/* Parse one envelope (a JSON object).  0, or -1 with *WHY. */
int sc_dsse_parse(struct sc_dsse *e, const char *text, size_t len,
		  const char **why);
/* Append PAE(TYPE, PAYLOAD) to OUT. */
void sc_dsse_pae(struct sc_buf *out, const char *type, const void *payload,
		 size_t len);
void sc_dsse_add_sig(struct sc_dsse *e, const char *keyid, const void *sig,
		     size_t len);
/* Append the canonical JSON of E (no newline).  0 or -1. */
int sc_dsse_encode(const struct sc_dsse *e, struct sc_buf *out);

#endif
