#ifndef SC_AWSCRED_H
#define SC_AWSCRED_H

/*
 * AWS credentials for Amazon Bedrock, found the way the AWS CLI finds
 * them, by speccoder's own process (never by a sandboxed command: the
 * state it reads, ~/.aws, is hidden from those).  First found wins:
 *
 *  1. AWS_BEARER_TOKEN_BEDROCK: a Bedrock API key, sent as a Bearer token;
 *  2. AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN);
 *  3. the profile AWS_PROFILE (or "default"): static keys in the shared
 *     credentials file (AWS_SHARED_CREDENTIALS_FILE, ~/.aws/credentials)
 *     or the config file (AWS_CONFIG_FILE, ~/.aws/config), else the
 *     profile's credential_process, run without a shell, else its IAM
 *     Identity Center sign-in (awssso.h).
 *
 * Values are copied once and wiped on release; the environment's copies
 * are zeroed.  The source is described by names only (a variable, a
 * profile, a file), never a value.
 */

#include <stddef.h>

#include "buf.h"

/*
 * How long a credential_process may take (the AWS CLI waits forever; an
 * attempt must not hang on a prompt nobody sees).  Overridable at build
 * time, for the tests.
 */
#ifndef SC_AWS_PROCESS_SECONDS
#define SC_AWS_PROCESS_SECONDS 60
#endif

/* The most of a config file or a credential_process's output read. */
#define SC_AWS_FILE_MAX ((size_t)1 << 20)

enum sc_aws_kind {
	SC_AWS_NONE,
	SC_AWS_KEYS,      /* key_id, secret, maybe token: SigV4 */
	SC_AWS_BEARER,    /* token: a Bedrock API key */
};

struct sc_aws_creds {
	enum sc_aws_kind kind;
	struct sc_buf key_id, secret, token;   /* wiped by release */
	char source[160];   /* "AWS_ACCESS_KEY_ID", "profile dev (...)", ... */
	char region[40];    /* the profile's region, "" when none */
};

void sc_aws_creds_init(struct sc_aws_creds *cr);
void sc_aws_creds_release(struct sc_aws_creds *cr);

/*
 * Find credentials into CR.  0 when found; 1 when there are none (nothing
 * printed: the caller's usage error names the choices); -1 with
 * error[AWS-CREDENTIALS] printed when a source is there but broken (a
 * named profile that does not exist, a credential_process that fails or
 * prints something else than credentials, expired ones).
 */
int sc_aws_creds_load(struct sc_aws_creds *cr);

/*
 * As sc_aws_creds_load, to name the source only (doctor): a profile's
 * credential_process is found but not run.
 */
int sc_aws_creds_probe(struct sc_aws_creds *cr);

/*
 * The value of KEY in section SECTION of the INI text DATA (LEN bytes)
 * into OUT (replacing its contents): 1 found, 0 not.  Lines starting with
 * '#' or ';' are comments; indented lines are a key's sub-properties and
 * are skipped; names and values are trimmed.
 */
int sc_aws_ini_get(const char *data, size_t len, const char *section,
		   const char *key, struct sc_buf *out);

/*
 * Parse a credential_process's output (JSON, "Version": 1) into CR.  NOW
 * is the current time, for "Expiration".  -1 with a fixed reason in *WHY.
 */
int sc_aws_process_output(const char *data, size_t len, long long now,
			  struct sc_aws_creds *cr, const char **why);

/*
 * An AWS time, "2026-12-01T21:00:00Z" (fractions of a second, "UTC", an
 * offset +HH:MM or none also read, as the CLI's files hold them), as
 * seconds since the epoch into *OUT.  -1 when S is not one.
 */
int sc_aws_time_parse(const char *s, long long *out);

/* Zero a string jansson holds (a secret) before it is freed. */
struct json_t;
void sc_aws_json_wipe(struct json_t *v);

/*
 * The end of a parse of credentials in the JSON document ROOT: when RET
 * is 0, copy the key id, the secret key and the session token (TOKEN may
 * be NULL or not a string: none), checked strings, into CR as SigV4 keys;
 * either way wipe the secret and the token in ROOT and free it.  RET.
 */
int sc_aws_creds_take(struct json_t *root, int ret, struct sc_aws_creds *cr,
		      struct json_t *id, struct json_t *secret,
		      struct json_t *token);

/* The file named by variable VAR (when VAR is not NULL and set), else
 * ~/.aws/NAME, into OUT. */
void sc_aws_path(const char *var, const char *name, struct sc_buf *out);

/* 1 when NAME is a region name a host name can carry ([a-z0-9-], 1..32). */
int sc_aws_region_ok(const char *name);

#endif
