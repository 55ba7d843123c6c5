/*
 * IAM Identity Center (SSO) profiles: the cached token, then the role's
 * credentials from the portal.  See awssso.h for what is read and sent.
 */
#include <errno.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "awssso.h"
#include "diag.h"
#include "encode.h"
#include "http.h"
#include "io.h"
#include "sigv4.h"

int sc_aws_sso_cache_name(const char *text, char name[46])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	/* The CLI's key: hashlib.sha1(text.encode("utf-8")).hexdigest(). */
	if (!EVP_Digest(text, strlen(text), md, &n, EVP_sha1(), NULL) || n != 20)
		return -1;
	sc_hex_into(name, md, n);
	memcpy(name + 40, ".json", 6);
	return 0;
}

/* A non-empty string a header can carry, or NULL. */
static const char *header_string(json_t *v)
{
	const char *s = json_string_value(v);

	return s && *s && strlen(s) == json_string_length(v) &&
	       sc_http_header_value_ok(s) ? s : NULL;
}

int sc_aws_sso_cache_parse(const char *data, size_t len, long long now,
			   struct sc_buf *token, const char **why)
{
	json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, NULL);
	json_t *tok = json_object_get(root, "accessToken");
	json_t *exp = json_object_get(root, "expiresAt");
	long long when = 0;
	int ret = -1;

	if (!json_is_object(root))
		*why = "is not a JSON object";
	else if (!json_is_string(tok) || !json_string_length(tok))
		*why = "holds no accessToken";
	else if (!header_string(tok))
		*why = "holds an accessToken a header cannot carry";
	else if (!json_is_string(exp) ||
		 sc_aws_time_parse(json_string_value(exp), &when) < 0)
		*why = "holds no expiresAt date";
	else if (when <= now)
		ret = 1;
	else
		ret = 0;
	if (!ret) {
		sc_buf_wipe(token);
		sc_buf_adds(token, json_string_value(tok));
	}
	/* What the file holds that signs in: gone before it is freed. */
	sc_aws_json_wipe(tok);
	sc_aws_json_wipe(json_object_get(root, "refreshToken"));
	sc_aws_json_wipe(json_object_get(root, "clientSecret"));
	json_decref(root);
	return ret;
}

int sc_aws_sso_role_parse(const char *data, size_t len, long long now,
			  struct sc_aws_creds *cr, const char **why)
{
	json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, NULL);
	json_t *rc = json_object_get(root, "roleCredentials");
	json_t *id = json_object_get(rc, "accessKeyId");
	json_t *secret = json_object_get(rc, "secretAccessKey");
	json_t *token = json_object_get(rc, "sessionToken");
	json_t *exp = json_object_get(rc, "expiration");
	int ret = -1;

	if (!json_is_object(rc))
		*why = "holds no roleCredentials object";
	else if (!json_is_string(id) || !json_is_string(secret) ||
		 !json_is_string(token))
		*why = "holds no accessKeyId, secretAccessKey and sessionToken "
		       "strings";
	else if (!header_string(id) || !header_string(secret) ||
		 !header_string(token))
		*why = "holds credentials a header cannot carry";
	else if (!json_is_integer(exp))
		*why = "holds no expiration time";
	/* Milliseconds since the epoch. */
	else if (json_integer_value(exp) / 1000 <= now)
		*why = "holds credentials that have expired";
	else
		ret = 0;
	return sc_aws_creds_take(root, ret, cr, id, secret, token);
}

/* "aws sso login" with the profile, for the person to run. */
static const char *login_hint(const struct sc_aws_sso *s, char *buf,
			      size_t bufsz)
{
	if (!strcmp(s->profile, "default"))
		return "aws sso login";
	snprintf(buf, bufsz, "aws sso login --profile %s", s->profile);
	return buf;
}

static int bad_setting(const struct sc_aws_sso *s, const char *what)
{
	return sc_error("AWS-CREDENTIALS", "profile '%s' signs in with IAM "
			"Identity Center but %s", s->profile, what);
}

static int settings_ok(const struct sc_aws_sso *s)
{
	size_t n;

	if (!s->session && (!s->start_url || !*s->start_url))
		return bad_setting(s, "names no sso_session and no "
				   "sso_start_url");
	if (!s->region || !sc_aws_region_ok(s->region))
		return bad_setting(s, s->session ?
				   "its sso-session section names no sso_region" :
				   "names no sso_region");
	if (!s->account_id || strlen(s->account_id) != 12 ||
	    strspn(s->account_id, "0123456789") != 12)
		return bad_setting(s, "its sso_account_id is not twelve digits");
	n = s->role_name ? strlen(s->role_name) : 0;
	/* IAM's role name characters; nothing else reaches the URL. */
	if (!n || n > 64 ||
	    strspn(s->role_name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
		   "QRSTUVWXYZ0123456789+=,.@_-") != n)
		return bad_setting(s, "its sso_role_name is not a role name");
	return 0;
}

/* The cached token of `aws sso login`, not expired, into TOKEN. */
static int read_token(const struct sc_aws_sso *s, struct sc_buf *token)
{
	struct sc_buf path = SC_BUF_INIT, data = SC_BUF_INIT;
	const char *why = NULL;
	char name[46], hint[160];
	int st;

	if (sc_aws_sso_cache_name(s->session ? s->session : s->start_url,
				  name) < 0)
		return sc_error("AWS-CREDENTIALS", "cannot hash the IAM Identity "
				"Center session's name");
	sc_aws_path(NULL, "sso/cache/", &path);
	sc_buf_adds(&path, name);
	st = sc_read_file_max(path.data, SC_AWS_FILE_MAX, &data);
	if (st == -1 && (errno == ENOENT || errno == ENOTDIR))
		st = sc_error("AWS-CREDENTIALS", "profile '%s' has no IAM "
			      "Identity Center sign-in (no ~/.aws/sso/cache/%s): "
			      "run '%s'", s->profile, name,
			      login_hint(s, hint, sizeof(hint)));
	else if (st == -1)
		st = sc_error_errno("AWS-CREDENTIALS", "cannot read "
				    "~/.aws/sso/cache/%s", name);
	else if (st == -2)
		st = sc_error("AWS-CREDENTIALS", "~/.aws/sso/cache/%s is larger "
			      "than %zu bytes", name, SC_AWS_FILE_MAX);
	else if ((st = sc_aws_sso_cache_parse(data.data ? data.data : "",
					      data.len, (long long)time(NULL),
					      token, &why)) < 0)
		st = sc_error("AWS-CREDENTIALS", "~/.aws/sso/cache/%s, the IAM "
			      "Identity Center sign-in of profile '%s', %s",
			      name, s->profile, why);
	else if (st == 1)
		st = sc_error("AWS-CREDENTIALS", "the IAM Identity Center "
			      "sign-in of profile '%s' has expired: run '%s'",
			      s->profile, login_hint(s, hint, sizeof(hint)));
	sc_buf_wipe(&data);
	sc_buf_release(&path);
	return st;
}

/* The portal's GetRoleCredentials URL for S into URL; -1 (printed). */
static int portal_url(const struct sc_aws_sso *s, struct sc_buf *url)
{
	const char *ep = getenv("AWS_ENDPOINT_URL_SSO");
	size_t n;

	if (ep && *ep) {
		/* The token goes there: never in clear to another host. */
		if (!sc_http_url_is_https(ep) && !sc_http_url_is_loopback(ep))
			return sc_error("AWS-CREDENTIALS", "AWS_ENDPOINT_URL_SSO "
					"must be https, or http to a loopback "
					"address");
		n = strlen(ep);
		while (n && ep[n - 1] == '/')
			n--;
		sc_buf_add(url, ep, n);
	} else {
		sc_buf_addf(url, "https://portal.sso.%s.amazonaws.com", s->region);
	}
	sc_buf_adds(url, "/federation/credentials?role_name=");
	sc_sigv4_encode(url, s->role_name, strlen(s->role_name), 0);
	sc_buf_addf(url, "&account_id=%s", s->account_id);
	return 0;
}

/* Why the portal said no, for the person; never its body. */
static int portal_error(const struct sc_aws_sso *s, int st,
			const struct sc_http_response *resp)
{
	const char *type = resp->error_type[0] ? resp->error_type : "";
	const char *sep = type[0] ? ", " : "";
	char hint[160];

	if (st == SC_HTTP_AUTH && resp->code == 401)
		return sc_error("AWS-CREDENTIALS", "IAM Identity Center no longer "
				"accepts the sign-in of profile '%s' (HTTP 401%s%s): "
				"run '%s'", s->profile, sep, type,
				login_hint(s, hint, sizeof(hint)));
	if (st == SC_HTTP_AUTH || st == SC_HTTP_STATUS)
		return sc_error("AWS-CREDENTIALS", "IAM Identity Center refused "
				"role '%s' of account %s to profile '%s' (HTTP "
				"%ld%s%s)", s->role_name, s->account_id,
				s->profile, resp->code, sep, type);
	return sc_error("AWS-CREDENTIALS", "no answer from IAM Identity Center "
			"for profile '%s': %s", s->profile,
			resp->why[0] ? resp->why : "the answer is too large");
}

/* GetRoleCredentials with TOKEN: the role's credentials into CR. */
static int role_credentials(const struct sc_aws_sso *s,
			    const struct sc_buf *token, struct sc_aws_creds *cr)
{
	static const char *const headers[] = { "Accept: application/json", NULL };
	const struct sc_http_opts opts = { SC_AWS_SSO_TIMEOUT_MS, 2, 500, 10000 };
	struct sc_buf url = SC_BUF_INIT, secret = SC_BUF_INIT;
	struct sc_http_response resp;
	const char *why = NULL;
	int st;

	if (portal_url(s, &url) < 0) {
		sc_buf_release(&url);
		return -1;
	}
	sc_buf_adds(&secret, "x-amz-sso_bearer_token: ");
	sc_buf_add(&secret, token->data, token->len);
	sc_http_response_init(&resp);
	st = sc_http_get(url.data, headers, &secret, 1, &opts, &resp);
	if (st != SC_HTTP_OK)
		st = portal_error(s, st, &resp);
	else if (sc_aws_sso_role_parse(resp.body.data ? resp.body.data : "",
				       resp.body.len, (long long)time(NULL),
				       cr, &why) < 0)
		st = sc_error("AWS-CREDENTIALS", "IAM Identity Center's answer "
			      "for profile '%s' %s", s->profile, why);
	sc_http_response_release(&resp);
	sc_buf_wipe(&secret);
	sc_buf_release(&url);
	return st;
}

int sc_aws_sso_load(const struct sc_aws_sso *s, struct sc_aws_creds *cr,
		    int probe)
{
	struct sc_buf token = SC_BUF_INIT;
	int st;

	if (settings_ok(s) < 0)
		return -1;
	st = read_token(s, &token);
	if (!st && !probe)
		st = role_credentials(s, &token, cr);
	sc_buf_wipe(&token);
	return st ? -1 : 0;
}
