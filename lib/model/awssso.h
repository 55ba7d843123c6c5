#ifndef SC_AWSSSO_H
#define SC_AWSSSO_H

/*
 * AWS IAM Identity Center (SSO) profiles, read the way the AWS CLI reads
 * them, by speccoder's own process:
 *
 *  1. the profile names an sso_session (whose [sso-session NAME] section
 *     gives sso_region) or, in the older form, sso_start_url and
 *     sso_region itself; and sso_account_id and sso_role_name;
 *  2. `aws sso login` left a token in ~/.aws/sso/cache/HEX.json, HEX the
 *     SHA-1 of the session's name (or, in the older form, of the start
 *     URL); its accessToken must not have expired (expiresAt);
 *  3. the token is exchanged for the role's credentials with the portal's
 *     GetRoleCredentials (GET https://portal.sso.REGION.amazonaws.com
 *     /federation/credentials?role_name=R&account_id=A, the token in the
 *     x-amz-sso_bearer_token header); AWS_ENDPOINT_URL_SSO (https, or http
 *     to loopback) names another portal, as for the AWS SDKs.
 *
 * Nothing is written: the CLI's own cache of role credentials is neither
 * read nor filled, and an expired token is not refreshed (that takes the
 * person's browser): the error says to run `aws sso login`.  The token and
 * the credentials are wiped after use and never printed.
 */

#include <stddef.h>

#include "awscred.h"

/* How long the portal may take; it is asked once per sc-model run. */
#define SC_AWS_SSO_TIMEOUT_MS 30000

struct sc_aws_sso {
	const char *profile;      /* for messages */
	const char *session;      /* the sso_session's name; NULL: older form */
	const char *start_url;    /* the older form's cache key */
	const char *region;       /* sso_region: the portal's */
	const char *account_id;   /* twelve digits */
	const char *role_name;
};

/*
 * The name of the token's cache file for TEXT (the session's name or the
 * start URL): 40 lower-case hex digits of its SHA-1, ".json", NUL.  -1
 * when the digest cannot be made.
 */
int sc_aws_sso_cache_name(const char *text, char name[46]);

/*
 * Read a token cache file's JSON (DATA, LEN bytes): its accessToken into
 * TOKEN when expiresAt is after NOW.  0; 1 when it has expired; -1 with
 * a fixed reason in *WHY when it is not a token file.
 */
int sc_aws_sso_cache_parse(const char *data, size_t len, long long now,
			   struct sc_buf *token, const char **why);

/*
 * Read GetRoleCredentials' answer (DATA, LEN bytes) into CR (SigV4 keys
 * with a session token) when it expires after NOW.  -1 with a fixed
 * reason in *WHY otherwise.
 */
int sc_aws_sso_role_parse(const char *data, size_t len, long long now,
			  struct sc_aws_creds *cr, const char **why);

/*
 * The role's credentials for S into CR; with PROBE, only the settings and
 * the token (present, not expired) are checked and nothing is sent.  0, or
 * -1 with error[AWS-CREDENTIALS] printed.
 */
int sc_aws_sso_load(const struct sc_aws_sso *s, struct sc_aws_creds *cr,
		    int probe);

#endif
