/*
 * The AWS shared-file reader and the credential_process output parser on
 * any bytes: the same bytes are read as an INI file (a profile's keys) and
 * as a helper's JSON.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "awscred.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const sections[] = { "default", "profile dev", "" };
	static const char *const keys[] = {
		"aws_access_key_id", "credential_process", "region", "",
	};
	const char *text = (const char *)data;
	struct sc_buf out = SC_BUF_INIT;
	struct sc_aws_creds cr;
	const char *why = NULL;
	size_t i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			if (sc_aws_ini_get(text, size, sections[i], keys[j], &out) &&
			    out.len > size)
				__builtin_trap();
	sc_aws_creds_init(&cr);
	if (sc_aws_process_output(text, size, 1700000000LL, &cr, &why) == 0 &&
	    (cr.kind != SC_AWS_KEYS || !cr.key_id.len || !cr.secret.len))
		__builtin_trap();
	sc_aws_creds_release(&cr);
	sc_buf_release(&out);
	return 0;
}
