/*
 * From a conversation to a reply through one provider.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diag.h"
#include "provider-anthropic.h"
#include "provider-openai.h"
#include "modelstream.h"
#include "provider.h"
#include "sigv4.h"

enum sc_provider_kind sc_provider_kind(const char *name)
{
	if (!strcmp(name, "anthropic"))
		return SC_PROVIDER_ANTHROPIC;
	if (!strcmp(name, "openai"))
		return SC_PROVIDER_OPENAI;
	if (!strcmp(name, "replay"))
		return SC_PROVIDER_REPLAY;
	if (!strcmp(name, "bedrock"))
		return SC_PROVIDER_BEDROCK;
	return SC_PROVIDER_NONE;
}

void sc_provider_init(struct sc_provider *p, enum sc_provider_kind kind)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	sc_buf_init(&p->url);
	sc_buf_init(&p->key_header);
	sc_transcript_init(&p->transcript);
	sc_aws_creds_init(&p->aws);
	p->max_tokens = 4096;
	p->cache = 1;
	p->stream = 1;
	p->progress_fd = -1;
	p->http.timeout_ms = 120000;
	p->http.retries = 3;
	p->http.backoff_ms = 500;
	p->http.backoff_max_ms = 60000;
	switch (kind) {
	case SC_PROVIDER_ANTHROPIC:
		p->name = "anthropic";
		p->model = SC_ANTHROPIC_MODEL;
		p->endpoint = SC_ANTHROPIC_ENDPOINT;
		p->key_env = SC_ANTHROPIC_KEY_ENV;
		break;
	case SC_PROVIDER_OPENAI:
		p->name = "openai";
		p->model = SC_OPENAI_MODEL;
		p->endpoint = SC_OPENAI_ENDPOINT;
		p->key_env = SC_OPENAI_KEY_ENV;
		break;
	case SC_PROVIDER_REPLAY:
		p->name = "replay";
		p->model = "replay";
		break;
	case SC_PROVIDER_BEDROCK:
		/* Model ids differ by account and region: no default. */
		p->name = "bedrock";
		break;
	case SC_PROVIDER_NONE:
		break;
	}
}

void sc_provider_release(struct sc_provider *p)
{
	sc_buf_release(&p->url);
	sc_buf_wipe(&p->key_header);
	sc_aws_creds_release(&p->aws);
	sc_transcript_release(&p->transcript);
}

static int take_key(struct sc_provider *p, const char **usage)
{
	char *key = getenv(p->key_env);
	int local = sc_http_url_is_loopback(p->endpoint);

	if (!key || !*key) {
		/* A local OpenAI-compatible server is asked without a key. */
		if (p->kind == SC_PROVIDER_OPENAI && local)
			return 0;
		snprintf(p->why, sizeof(p->why), "%s is not set: %s needs a key "
			 "(or --key-env NAME)", p->key_env, p->name);
		*usage = p->why;
		return -1;
	}
	if (!sc_http_header_value_ok(key)) {
		snprintf(p->why, sizeof(p->why), "%s holds characters a header "
			 "cannot carry", p->key_env);
		*usage = p->why;
		return -1;
	}
	sc_buf_adds(&p->key_header, p->kind == SC_PROVIDER_ANTHROPIC ?
		    "x-api-key: " : "Authorization: Bearer ");
	sc_buf_adds(&p->key_header, key);
	/* Zero the environment's copy: one copy, wiped after the request. */
	explicit_bzero(key, strlen(key));
	return 0;
}

static const char no_aws_credentials[] =
	"no AWS credentials: set AWS_BEARER_TOKEN_BEDROCK, AWS_ACCESS_KEY_ID "
	"and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE";

/*
 * The base of the URL: --endpoint without its trailing slashes, which must
 * be https or http to loopback (a key is never sent in clear), or DEF.
 */
static int base_url(struct sc_provider *p, const char *def,
		    const char **usage)
{
	size_t n;

	if (!p->endpoint) {
		sc_buf_adds(&p->url, def);
		return 0;
	}
	if (!sc_http_url_is_https(p->endpoint) &&
	    !sc_http_url_is_loopback(p->endpoint)) {
		*usage = "--endpoint must be https, or http to a loopback address";
		return -1;
	}
	n = strlen(p->endpoint);
	while (n && p->endpoint[n - 1] == '/')
		n--;
	sc_buf_add(&p->url, p->endpoint, n);
	return 0;
}

/* The region: --region, AWS_REGION, AWS_DEFAULT_REGION, the profile's. */
static const char *bedrock_region(struct sc_provider *p)
{
	const char *r = p->region;

	if (!r || !*r)
		r = getenv("AWS_REGION");
	if (!r || !*r)
		r = getenv("AWS_DEFAULT_REGION");
	if (!r || !*r)
		r = p->aws.region;
	return r && *r ? r : NULL;
}

/*
 * Bedrock: the credentials, then the region (a profile may name it), then
 * the default endpoint and the InvokeModel path for the model id, sent
 * percent-encoded (':' and '/' of ids and ARNs included).
 */
static enum sc_provider_status prepare_bedrock(struct sc_provider *p,
					      const char **usage)
{
	char def[96];
	const char *region;
	int st;

	if (!p->model || !*p->model) {
		*usage = "the bedrock provider needs --model MODEL_ID";
		return SC_PROVIDER_USAGE;
	}
	st = sc_aws_creds_load(&p->aws);
	if (st < 0)
		return SC_PROVIDER_UNAVAILABLE;
	if (st > 0) {
		*usage = no_aws_credentials;
		return SC_PROVIDER_USAGE;
	}
	p->key_name = p->aws.source;
	region = bedrock_region(p);
	if (!region || !sc_aws_region_ok(region)) {
		*usage = region ? "the AWS region is not a region name" :
			 "no AWS region: give --region R or set AWS_REGION";
		return SC_PROVIDER_USAGE;
	}
	snprintf(p->region_buf, sizeof(p->region_buf), "%s", region);
	p->region = p->region_buf;
	snprintf(def, sizeof(def), "https://bedrock-runtime.%s.amazonaws.com",
		 p->region);
	if (base_url(p, def, usage) < 0)
		return SC_PROVIDER_USAGE;
	sc_buf_adds(&p->url, "/model/");
	sc_sigv4_encode(&p->url, p->model, strlen(p->model), 0);
	sc_buf_adds(&p->url, p->stream ? "/invoke-with-response-stream" :
		    "/invoke");
	return 0;
}

enum sc_provider_status sc_provider_credential_source(struct sc_provider *p,
						      char *out, size_t outsz,
						      const char **usage)
{
	const char *key;
	int st;

	if (p->kind == SC_PROVIDER_REPLAY) {
		snprintf(out, outsz, "none needed");
		return 0;
	}
	if (p->kind != SC_PROVIDER_BEDROCK) {
		key = getenv(p->key_env);
		if (!key || !*key) {
			snprintf(p->why, sizeof(p->why), "%s is not set: %s needs "
				 "a key (or --key-env NAME)", p->key_env, p->name);
			*usage = p->why;
			return SC_PROVIDER_USAGE;
		}
		snprintf(out, outsz, "%s", p->key_env);
		return 0;
	}
	st = sc_aws_creds_probe(&p->aws);
	if (st < 0)
		return SC_PROVIDER_UNAVAILABLE;
	if (st > 0) {
		*usage = no_aws_credentials;
		return SC_PROVIDER_USAGE;
	}
	snprintf(out, outsz, "%s", p->aws.source);
	sc_aws_creds_release(&p->aws);
	return 0;
}

enum sc_provider_status sc_provider_prepare(struct sc_provider *p,
					    const char **usage)
{
	enum sc_transcript_status st;

	if (p->kind == SC_PROVIDER_BEDROCK)
		return prepare_bedrock(p, usage);
	if (p->kind == SC_PROVIDER_REPLAY) {
		if (!p->transcript_path) {
			*usage = "the replay provider needs --transcript FILE";
			return SC_PROVIDER_USAGE;
		}
		st = sc_transcript_load(p->transcript_path, &p->transcript);
		return st == SC_TRANSCRIPT_OK ? SC_PROVIDER_OK :
		       st == SC_TRANSCRIPT_MALFORMED ? SC_PROVIDER_BAD_TRANSCRIPT :
		       SC_PROVIDER_UNAVAILABLE;
	}
	/* The endpoint is checked before the key is taken. */
	if (base_url(p, "", usage) < 0 || take_key(p, usage) < 0)
		return SC_PROVIDER_USAGE;
	p->key_name = p->key_env;
	sc_buf_adds(&p->url, p->kind == SC_PROVIDER_ANTHROPIC ?
		    SC_ANTHROPIC_PATH : SC_OPENAI_PATH);
	return 0;
}

/* AWS's words for a request signed at a time too far from its own. */
static int clock_skewed(const struct sc_http_response *resp)
{
	const char *body = resp->body.data ? resp->body.data : "";

	return !strcmp(resp->error_type, "InvalidSignatureException") &&
	       (memmem(body, resp->body.len, "Signature expired", 17) ||
		memmem(body, resp->body.len, "Signature not yet current", 25));
}

static enum sc_provider_status report_http(const struct sc_provider *p,
					   int status,
					   const struct sc_http_response *resp)
{
	char type[72];

	if (resp->error_type[0])
		snprintf(type, sizeof(type), "%s", resp->error_type);
	else
		sc_provider_error_type(resp->body.data ? resp->body.data : "",
				       resp->body.len, type, sizeof(type));
	switch (status) {
	case SC_HTTP_AUTH:
		if (clock_skewed(resp)) {
			sc_error("CLOCK-SKEW", "%s refused the request's time "
				 "(HTTP %ld, %s): this machine's clock is more "
				 "than 5 minutes off", p->name, resp->code, type);
			return SC_PROVIDER_UNAVAILABLE;
		}
		if (p->kind != SC_PROVIDER_BEDROCK)
			sc_error("AUTH", "%s refused the key in %s (HTTP %ld)",
				 p->name, p->key_name, resp->code);
		else
			sc_error("AUTH", "%s refused the credentials from %s "
				 "(HTTP %ld, %s)", p->name, p->key_name,
				 resp->code, type);
		return SC_PROVIDER_UNAVAILABLE;
	case SC_HTTP_STATUS:
		sc_error("PROVIDER", "%s answered HTTP %ld (%s) after %lu attempts%s%s",
			 p->name, resp->code, type, resp->attempts,
			 resp->why[0] ? ": " : "", resp->why);
		return SC_PROVIDER_UNAVAILABLE;
	case SC_HTTP_TIMEOUT:
		sc_error("TIMEOUT", "%s did not answer within %lu s", p->name,
			 p->http.timeout_ms / 1000);
		return SC_PROVIDER_UNAVAILABLE;
	case SC_HTTP_TOO_LARGE:
		sc_error("PROVIDER-RESPONSE", "%s answered more than %zu bytes",
			 p->name, SC_HTTP_BODY_MAX);
		return SC_PROVIDER_BAD_ANSWER;
	case SC_HTTP_SETUP:
		sc_error("NETWORK", "%s", resp->why);
		return SC_PROVIDER_FAILED;
	default:
		sc_error("NETWORK", "no answer from %s after %lu attempts: %s",
			 p->name, resp->attempts, resp->why);
		return SC_PROVIDER_UNAVAILABLE;
	}
}

/* The Host header as sent: the URL's host, and its port when it has one. */
static int host_of(const char *url, struct sc_buf *out)
{
	CURLU *u = curl_url();
	char *host = NULL, *port = NULL;
	int ret = -1;

	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
		sc_buf_adds(out, host);
		if (curl_url_get(u, CURLUPART_PORT, &port, 0) == CURLUE_OK)
			sc_buf_addf(out, ":%s", port);
		ret = 0;
	}
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return ret;
}

/*
 * The headers of one Bedrock request: Host and X-Amz-Date in HEAD (they
 * are signed, so they are sent as signed, not left to libcurl), the
 * Authorization (a SigV4 signature, or the API key as a Bearer token) and
 * the session token in SECRETS[0..1].  -1 when it cannot be signed.
 */
static int bedrock_auth(struct sc_provider *p, const struct sc_buf *body,
			struct sc_buf head[2], struct sc_buf secrets[2])
{
	struct sc_buf host = SC_BUF_INIT, path = SC_BUF_INIT;
	char date[17];
	int ret = -1;

	if (p->aws.kind == SC_AWS_BEARER) {
		sc_buf_addf(&secrets[0], "Authorization: Bearer %s",
			    p->aws.token.data);
		return 0;
	}
	sc_sigv4_date((long long)time(NULL), date);
	if (host_of(p->url.data, &host) == 0) {
		const char *slash = strstr(p->url.data, "://");
		struct sc_sigv4_header h[4] = {
			{ "content-type", "application/json" },
			{ "host", host.data },
			{ "x-amz-date", date },
			{ "x-amz-security-token", p->aws.token.data },
		};
		struct sc_sigv4_request r = {
			"POST", NULL, "", h, p->aws.token.len ? 4 : 3,
			body->data, body->len, p->region, "bedrock", date,
			p->aws.key_id.data, p->aws.secret.data,
		};

		slash = slash ? strchr(slash + 3, '/') : NULL;
		sc_buf_adds(&path, slash ? slash : "/");
		r.path = path.data;
		sc_buf_addf(&head[0], "Host: %s", host.data);
		sc_buf_addf(&head[1], "X-Amz-Date: %s", date);
		sc_buf_adds(&secrets[0], "Authorization: ");
		ret = sc_sigv4_authorization(&r, &secrets[0]);
		if (p->aws.token.len)
			sc_buf_addf(&secrets[1], "X-Amz-Security-Token: %s",
				    p->aws.token.data);
	}
	sc_buf_release(&host);
	sc_buf_release(&path);
	return ret;
}

static void stream_reset(void *ctx)
{
	sc_stream_reset(ctx);
}

static int stream_feed(void *ctx, const char *ct, const char *data,
		       size_t len)
{
	int st = sc_stream_feed(ctx, ct, data, len);

	return st == SC_STREAM_BAD ? SC_HTTP_FEED_BAD :
	       st == SC_STREAM_RETRY ? SC_HTTP_FEED_RETRY : 0;
}

static int stream_done(void *ctx)
{
	return sc_stream_done(ctx);
}

static const char *stream_error_type(void *ctx)
{
	return ((struct sc_stream *)ctx)->error_type;
}

/* The request body for P's provider. */
static void request_body(const struct sc_provider *p,
			 const struct sc_conversation *c, struct sc_buf *body)
{
	unsigned flags = (p->cache ? SC_ANTHROPIC_CACHE : 0) |
			 (p->stream ? SC_ANTHROPIC_STREAM : 0);

	if (p->kind == SC_PROVIDER_ANTHROPIC)
		sc_anthropic_request(c, p->model, p->max_tokens, flags, body);
	else if (p->kind == SC_PROVIDER_BEDROCK)
		sc_anthropic_request(c, NULL, p->max_tokens,
				     flags | SC_ANTHROPIC_BEDROCK, body);
	else
		sc_openai_request(c, p->model, p->max_tokens, p->stream, body);
}

/*
 * Send BODY and read the answer into REPLY: streamed (each attempt read
 * from nothing, the reply made only from a whole stream) or whole.
 */
static enum sc_provider_status send_and_read(struct sc_provider *p,
					     const char *const *headers,
					     const struct sc_buf *secrets,
					     const struct sc_buf *body,
					     struct sc_reply *reply)
{
	const int anthropic = p->kind != SC_PROVIDER_OPENAI;
	struct sc_stream st;
	struct sc_http_stream hs = { stream_reset, stream_feed, stream_done,
				     stream_error_type, &st };
	struct sc_http_response resp;
	const char *why = NULL;
	enum sc_provider_status ret = SC_PROVIDER_OK;
	int status;

	sc_stream_init(&st, anthropic ? SC_STREAM_ANTHROPIC : SC_STREAM_OPENAI,
		       p->progress_fd, p->name);
	sc_http_response_init(&resp);
	status = sc_http_post_stream(p->url.data, headers, secrets, 2,
				     body->data, body->len, &p->http,
				     p->stream ? &hs : NULL, &resp);
	if (status == SC_HTTP_STREAM_BAD && st.too_large) {
		ret = report_http(p, SC_HTTP_TOO_LARGE, &resp);
	} else if (status == SC_HTTP_STREAM_BAD) {
		sc_error("PROVIDER-RESPONSE", "%s: %s", p->name,
			 st.why ? st.why : "a malformed stream");
		ret = SC_PROVIDER_BAD_ANSWER;
	} else if (status != SC_HTTP_OK) {
		ret = report_http(p, status, &resp);
	} else if ((p->stream ? sc_stream_reply(&st, reply, &why) :
		    anthropic ?
		    sc_anthropic_parse(resp.body.data ? resp.body.data : "",
				       resp.body.len, reply, &why) :
		    sc_openai_parse(resp.body.data ? resp.body.data : "",
				    resp.body.len, reply, &why)) < 0) {
		sc_error("PROVIDER-RESPONSE", "%s: %s", p->name, why);
		ret = SC_PROVIDER_BAD_ANSWER;
	}
	sc_http_response_release(&resp);
	sc_stream_release(&st);
	return ret;
}

static enum sc_provider_status call_http(struct sc_provider *p,
					 const struct sc_conversation *c,
					 struct sc_reply *reply)
{
	struct sc_buf head[2] = { SC_BUF_INIT, SC_BUF_INIT };
	struct sc_buf secrets[2] = { SC_BUF_INIT, SC_BUF_INIT };
	const char *headers[3] = { NULL, NULL, NULL };
	struct sc_buf body = SC_BUF_INIT;
	enum sc_provider_status ret = SC_PROVIDER_OK;
	size_t i;

	request_body(p, c, &body);
	if (p->kind == SC_PROVIDER_ANTHROPIC) {
		headers[0] = "anthropic-version: " SC_ANTHROPIC_VERSION;
		sc_buf_add(&secrets[0], p->key_header.data, p->key_header.len);
	} else if (p->kind == SC_PROVIDER_OPENAI) {
		sc_buf_add(&secrets[0], p->key_header.data, p->key_header.len);
	} else if (bedrock_auth(p, &body, head, secrets) < 0) {
		sc_error("NETWORK", "bedrock: the request cannot be signed");
		ret = SC_PROVIDER_FAILED;
	} else {
		headers[0] = head[0].len ? head[0].data : NULL;
		headers[1] = head[1].len ? head[1].data : NULL;
	}
	sc_buf_wipe(&p->key_header);
	if (!ret)
		ret = send_and_read(p, headers, secrets, &body, reply);
	for (i = 0; i < 2; i++)
		sc_buf_wipe(&secrets[i]);
	sc_buf_release(&head[0]);
	sc_buf_release(&head[1]);
	sc_buf_release(&body);
	return ret;
}

enum sc_provider_status sc_provider_call(struct sc_provider *p,
					 const struct sc_conversation *c,
					 struct sc_reply *reply)
{
	if (p->kind == SC_PROVIDER_REPLAY)
		return sc_replay_answer(&p->transcript, c, reply) < 0 ?
			SC_PROVIDER_BAD_ANSWER : SC_PROVIDER_OK;
	return call_http(p, c, reply);
}
