/*
 * IAM Identity Center's files and answers on any bytes: the same bytes
 * are read as a token cache file (~/.aws/sso/cache/HEX.json) and as the
 * portal's GetRoleCredentials answer, and as a time.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "awssso.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct sc_buf tok = SC_BUF_INIT;
	struct sc_aws_creds cr;
	const char *why = NULL;
	char *z;
	long long t;
	int st;

	st = sc_aws_sso_cache_parse(text, size, 1700000000LL, &tok, &why);
	if ((st == 0 && !tok.len) || (st != 0 && tok.len) ||
	    (st < 0 && !why) || st > 1)
		__builtin_trap();
	sc_aws_creds_init(&cr);
	if (sc_aws_sso_role_parse(text, size, 1700000000LL, &cr, &why) == 0 &&
	    (cr.kind != SC_AWS_KEYS || !cr.key_id.len || !cr.secret.len ||
	     !cr.token.len))
		__builtin_trap();
	sc_aws_creds_release(&cr);
	z = malloc(size + 1);
	if (z) {
		memcpy(z, data, size);
		z[size] = '\0';
		(void)sc_aws_time_parse(z, &t);
		free(z);
	}
	sc_buf_wipe(&tok);
	return 0;
}
