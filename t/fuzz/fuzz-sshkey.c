/*
 * The OpenSSH key parsers on arbitrary bytes: the private key file parser
 * (input starting with '-' is taken as the file; anything else as the
 * decoded container, armoured here so mutations reach the structure), the
 * public key blob parser and the sshsig blob parser.  No crash, no leak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "sshsig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void private_key(const uint8_t *data, size_t size)
{
	struct sc_buf text = SC_BUF_INIT;
	struct sc_sshkey k;
	const char *why = NULL;

	if (size && data[0] == '-') {
		sc_buf_add(&text, data, size);
	} else {
		sc_buf_adds(&text, "-----BEGIN OPENSSH PRIVATE KEY-----\n");
		sc_base64_encode(&text, data, size, 0);
		sc_buf_adds(&text, "\n-----END OPENSSH PRIVATE KEY-----\n");
	}
	if (!sc_sshkey_parse_private(&k, text.data, text.len, &why)) {
		if (k.type == SC_KEY_NONE || !k.pkey || !k.blob.len)
			abort();
		sc_sshkey_release(&k);
	}
	sc_buf_release(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_sshkey k;
	const char *why = NULL;

	private_key(data, size);
	if (!sc_sshkey_from_blob(&k, data, size, &why))
		sc_sshkey_release(&k);
	if (sc_sshsig_verify(data, size, "in-toto", "m", 1, &k, &why) ==
	    SC_SSHSIG_OK)
		sc_sshkey_release(&k);
	return 0;
}
