/*
 * From a conversation to a reply through one provider.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "provider-anthropic.h"
#include "provider-openai.h"
#include "provider.h"

enum sc_provider_kind sc_provider_kind(const char *name)
{
	if (!strcmp(name, "anthropic"))
		return SC_PROVIDER_ANTHROPIC;
	if (!strcmp(name, "openai"))
		return SC_PROVIDER_OPENAI;
	if (!strcmp(name, "replay"))
		return SC_PROVIDER_REPLAY;
	return SC_PROVIDER_NONE;
}

void sc_provider_init(struct sc_provider *p, enum sc_provider_kind kind)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	sc_buf_init(&p->url);
	sc_buf_init(&p->key_header);
	sc_transcript_init(&p->transcript);
	p->max_tokens = 4096;
	p->cache = 1;
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
	case SC_PROVIDER_NONE:
		break;
	}
}

void sc_provider_release(struct sc_provider *p)
{
	sc_buf_release(&p->url);
	sc_buf_wipe(&p->key_header);
	sc_transcript_release(&p->transcript);
}

/* A key goes into a header line: visible ASCII only, no CR/LF smuggling. */
static int key_ok(const char *key)
{
	const unsigned char *s = (const unsigned char *)key;

	for (; *s; s++)
		if (*s < 0x21 || *s > 0x7e)
			return 0;
	return 1;
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
	if (!key_ok(key)) {
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

int sc_provider_prepare(struct sc_provider *p, const char **usage)
{
	size_t n;

	if (p->kind == SC_PROVIDER_REPLAY) {
		if (!p->transcript_path) {
			*usage = "the replay provider needs --transcript FILE";
			return -1;
		}
		return sc_transcript_load(p->transcript_path, &p->transcript);
	}
	if (!sc_http_url_is_https(p->endpoint) &&
	    !sc_http_url_is_loopback(p->endpoint)) {
		*usage = "--endpoint must be https, or http to a loopback address";
		return -1;
	}
	if (take_key(p, usage) < 0)
		return -1;
	n = strlen(p->endpoint);
	while (n && p->endpoint[n - 1] == '/')
		n--;
	sc_buf_add(&p->url, p->endpoint, n);
	sc_buf_adds(&p->url, p->kind == SC_PROVIDER_ANTHROPIC ?
		    SC_ANTHROPIC_PATH : SC_OPENAI_PATH);
	return 0;
}

static int report_http(const struct sc_provider *p, int status,
		       const struct sc_http_response *resp)
{
	char type[72];

	switch (status) {
	case SC_HTTP_AUTH:
		sc_error("AUTH", "%s refused the key in %s (HTTP %ld)", p->name,
			 p->key_env, resp->code);
		return SC_EXIT_UNAVAILABLE;
	case SC_HTTP_STATUS:
		sc_provider_error_type(resp->body.data ? resp->body.data : "",
				       resp->body.len, type, sizeof(type));
		sc_error("PROVIDER", "%s answered HTTP %ld (%s) after %lu attempts%s%s",
			 p->name, resp->code, type, resp->attempts,
			 resp->why[0] ? ": " : "", resp->why);
		return SC_EXIT_UNAVAILABLE;
	case SC_HTTP_TIMEOUT:
		sc_error("TIMEOUT", "%s did not answer within %lu s", p->name,
			 p->http.timeout_ms / 1000);
		return SC_EXIT_UNAVAILABLE;
	case SC_HTTP_TOO_LARGE:
		sc_error("PROVIDER-RESPONSE", "%s answered more than %zu bytes",
			 p->name, SC_HTTP_BODY_MAX);
		return SC_EXIT_NO;
	case SC_HTTP_SETUP:
		sc_error("NETWORK", "%s", resp->why);
		return SC_EXIT_INTERNAL;
	default:
		sc_error("NETWORK", "no answer from %s after %lu attempts: %s",
			 p->name, resp->attempts, resp->why);
		return SC_EXIT_UNAVAILABLE;
	}
}

static int call_http(struct sc_provider *p, const struct sc_conversation *c,
		     struct sc_reply *reply)
{
	const char *const anthropic_headers[] = {
		"anthropic-version: " SC_ANTHROPIC_VERSION, NULL };
	const int is_anthropic = p->kind == SC_PROVIDER_ANTHROPIC;
	struct sc_http_response resp;
	struct sc_buf body = SC_BUF_INIT;
	const char *why = NULL;
	int status, ret = 0;

	if (is_anthropic)
		sc_anthropic_request(c, p->model, p->max_tokens,
				     p->cache ? SC_ANTHROPIC_CACHE : 0, &body);
	else
		sc_openai_request(c, p->model, p->max_tokens, &body);
	sc_http_response_init(&resp);
	status = sc_http_post(p->url.data, is_anthropic ? anthropic_headers : NULL,
			      &p->key_header, body.data, body.len, &p->http, &resp);
	sc_buf_wipe(&p->key_header);
	if (status != SC_HTTP_OK) {
		ret = report_http(p, status, &resp);
	} else if ((is_anthropic ?
		    sc_anthropic_parse(resp.body.data ? resp.body.data : "",
				       resp.body.len, reply, &why) :
		    sc_openai_parse(resp.body.data ? resp.body.data : "",
				    resp.body.len, reply, &why)) < 0) {
		sc_error("PROVIDER-RESPONSE", "%s: %s", p->name, why);
		ret = SC_EXIT_NO;
	}
	sc_http_response_release(&resp);
	sc_buf_release(&body);
	return ret;
}

int sc_provider_call(struct sc_provider *p, const struct sc_conversation *c,
		     struct sc_reply *reply)
{
	if (p->kind == SC_PROVIDER_REPLAY)
		return sc_replay_answer(&p->transcript, c, reply) < 0 ?
			SC_EXIT_NO : 0;
	return call_http(p, c, reply);
}
