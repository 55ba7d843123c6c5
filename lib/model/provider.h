#ifndef SC_PROVIDER_H
#define SC_PROVIDER_H

/*
 * Choosing a provider, taking its key from the environment, sending the
 * conversation and reading the reply: what sc-model does between reading
 * records and writing them.
 *
 * The key is read once from the environment, copied into one header line
 * (wiped after the request) and zeroed in the environment block, so it is
 * in memory only while a request needs it.  It is never printed: every
 * message names the variable, never its value.
 */

#include "awscred.h"
#include "buf.h"
#include "http.h"
#include "model.h"
#include "replay.h"

enum sc_provider_kind {
	SC_PROVIDER_NONE,
	SC_PROVIDER_ANTHROPIC,
	SC_PROVIDER_OPENAI,
	SC_PROVIDER_REPLAY,
	SC_PROVIDER_BEDROCK,
};

struct sc_provider {
	enum sc_provider_kind kind;
	const char *name;           /* "anthropic", "openai", "replay", "bedrock" */
	const char *model;          /* --model, or the provider's default */
	const char *region;         /* bedrock: --region, or from the environment */
	const char *endpoint;       /* --endpoint, or the provider's default */
	const char *key_env;        /* --key-env, or the provider's default */
	unsigned long max_tokens;
	int cache;                  /* cache_control breakpoints (default 1) */
	int stream;                 /* ask for a streamed answer (default 1) */
	int progress_fd;            /* type=progress records, or -1 */
	struct sc_http_opts http;
	const char *transcript_path;
	/* Set up by sc_provider_prepare: */
	struct sc_buf url;
	struct sc_buf key_header;   /* secret: wiped by release */
	struct sc_aws_creds aws;    /* bedrock: secret, wiped by release */
	const char *key_name;       /* where the key came from, for messages */
	char region_buf[40];
	struct sc_transcript transcript;
	char why[160];              /* a usage error naming what is missing */
};

/* SC_PROVIDER_NONE when NAME is not a provider. */
enum sc_provider_kind sc_provider_kind(const char *name);

void sc_provider_init(struct sc_provider *p, enum sc_provider_kind kind);
void sc_provider_release(struct sc_provider *p);

/*
 * What the functions below return: 0, or why they failed.  Each prints
 * its error[CODE] first, but for SC_PROVIDER_USAGE, whose fixed reason is
 * left in *USAGE for the tool's usage message.  sc-model(1) turns them
 * into its exit statuses.
 */
enum sc_provider_status {
	SC_PROVIDER_OK = 0,
	SC_PROVIDER_USAGE = -1,       /* an option or the environment is wrong */
	SC_PROVIDER_UNAVAILABLE = -2, /* credentials, network, the provider */
	SC_PROVIDER_BAD_ANSWER = -3,  /* an answer that is not one; replay diverged */
	SC_PROVIDER_BAD_TRANSCRIPT = -4, /* the replay transcript is malformed */
	SC_PROVIDER_FAILED = -5,      /* cannot build or sign the request */
};

/*
 * Check the options and the environment before any input is read.
 * SC_PROVIDER_USAGE for a missing key, a key a header cannot carry, plain
 * http to a host that is not loopback, no transcript, bedrock without a
 * model, a region or credentials; SC_PROVIDER_UNAVAILABLE when the
 * transcript cannot be read or the AWS credentials found are broken
 * (error[AWS-CREDENTIALS]); SC_PROVIDER_BAD_TRANSCRIPT.
 */
enum sc_provider_status sc_provider_prepare(struct sc_provider *p,
					    const char **usage);

/*
 * Name where P's key or credentials would come from (a variable, a
 * profile), never a value, into OUT; nothing is sent and no
 * credential_process is run.  0 when found; SC_PROVIDER_USAGE with a
 * fixed reason in *USAGE when there are none; SC_PROVIDER_UNAVAILABLE
 * (error printed) when a source is broken.
 */
enum sc_provider_status sc_provider_credential_source(struct sc_provider *p,
						      char *out, size_t outsz,
						      const char **usage);

/*
 * Ask for C's next turn and fill REPLY.  0, or SC_PROVIDER_UNAVAILABLE
 * after error[AUTH], error[CLOCK-SKEW], error[PROVIDER], error[NETWORK],
 * error[TIMEOUT]; SC_PROVIDER_BAD_ANSWER after error[PROVIDER-RESPONSE],
 * error[REPLAY-DIVERGED]; SC_PROVIDER_FAILED after error[NETWORK] when
 * the request cannot be set up or signed.
 */
enum sc_provider_status sc_provider_call(struct sc_provider *p,
					 const struct sc_conversation *c,
					 struct sc_reply *reply);

#endif
