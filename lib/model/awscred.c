/*
 * Finding AWS credentials: the environment, the shared files, a profile's
 * credential_process.  See awscred.h for the order and the promises.
 */
#include <errno.h>
#include <jansson.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include "awscred.h"
#include "awssso.h"
#include "diag.h"
#include "http.h"
#include "io.h"
#include "process.h"
#include "shellwords.h"

void sc_aws_creds_init(struct sc_aws_creds *cr)
{
	memset(cr, 0, sizeof(*cr));
	sc_buf_init(&cr->key_id);
	sc_buf_init(&cr->secret);
	sc_buf_init(&cr->token);
}

void sc_aws_creds_release(struct sc_aws_creds *cr)
{
	sc_buf_wipe(&cr->key_id);
	sc_buf_wipe(&cr->secret);
	sc_buf_wipe(&cr->token);
	cr->kind = SC_AWS_NONE;
}

int sc_aws_region_ok(const char *name)
{
	size_t n = strlen(name);

	return n && n <= 32 &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

/* Copy the variable NAME's value into OUT and zero the environment's. */
static int take_env(const char *name, struct sc_buf *out)
{
	char *v = getenv(name);

	if (!v || !*v)
		return 0;
	sc_buf_reset(out);
	sc_buf_adds(out, v);
	explicit_bzero(v, strlen(v));
	return 1;
}

static const char *trim(const char *s, const char *end, const char **tail)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	*tail = end;
	return s;
}

static int same(const char *s, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - s) == n && !memcmp(s, word, n);
}

int sc_aws_ini_get(const char *data, size_t len, const char *section,
		   const char *key, struct sc_buf *out)
{
	const char *p = data, *end = data + len;
	int in = 0, found = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *s, *t, *eq;

		if (*p == ' ' || *p == '\t') {
			p = nl ? nl + 1 : end;   /* a sub-property */
			continue;
		}
		s = trim(p, e, &t);
		p = nl ? nl + 1 : end;
		if (s == t || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			const char *n, *ne;

			if (t[-1] != ']')
				continue;
			n = trim(s + 1, t - 1, &ne);
			in = same(n, ne, section);
			continue;
		}
		eq = memchr(s, '=', (size_t)(t - s));
		if (in && eq) {
			const char *k, *ke, *v, *ve;

			k = trim(s, eq, &ke);
			v = trim(eq + 1, t, &ve);
			if (same(k, ke, key)) {
				/* The last one wins, as in the AWS CLI. */
				if (out->data)
					explicit_bzero(out->data, out->len);
				sc_buf_reset(out);
				sc_buf_add(out, v, (size_t)(ve - v));
				found = 1;
			}
		}
	}
	return found;
}

void sc_aws_json_wipe(json_t *v)
{
	if (json_is_string(v))
		explicit_bzero((char *)json_string_value(v), json_string_length(v));
}

/* [+-]HH:MM or [+-]HHMM: seconds east of UTC.  -1 when it is not one. */
static int utc_offset(const char *s, long long *out)
{
	int h, m;
	char sep[2] = "";

	if ((*s != '+' && *s != '-') ||
	    !(sscanf(s + 1, "%2d%1[:]%2d", &h, sep, &m) == 3 ||
	      sscanf(s + 1, "%2d%2d", &h, &m) == 2) ||
	    strlen(s) != (sep[0] ? 6u : 5u) ||
	    strspn(s + 1, sep[0] ? "0123456789:" : "0123456789") != strlen(s + 1) ||
	    h > 23 || m > 59)
		return -1;
	*out = (*s == '-' ? -1 : 1) * ((long long)h * 3600 + m * 60);
	return 0;
}

int sc_aws_time_parse(const char *s, long long *out)
{
	struct tm tm;
	const char *rest;
	long long off = 0;

	memset(&tm, 0, sizeof(tm));
	rest = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!rest)
		return -1;
	if (*rest == '.') {
		rest++;
		if (!(*rest >= '0' && *rest <= '9'))
			return -1;
		rest += strspn(rest, "0123456789");
	}
	if (*rest && strcmp(rest, "Z") && strcmp(rest, "UTC") &&
	    utc_offset(rest, &off) < 0)
		return -1;
	*out = (long long)timegm(&tm) - off;
	return 0;
}

int sc_aws_creds_take(json_t *root, int ret, struct sc_aws_creds *cr,
		      json_t *id, json_t *secret, json_t *token)
{
	if (!ret) {
		/* What CR held before is wiped, not only forgotten. */
		sc_buf_wipe(&cr->key_id);
		sc_buf_adds(&cr->key_id, json_string_value(id));
		sc_buf_wipe(&cr->secret);
		sc_buf_adds(&cr->secret, json_string_value(secret));
		sc_buf_wipe(&cr->token);
		if (json_is_string(token))
			sc_buf_adds(&cr->token, json_string_value(token));
		cr->kind = SC_AWS_KEYS;
	}
	sc_aws_json_wipe(secret);
	sc_aws_json_wipe(token);
	json_decref(root);
	return ret;
}

int sc_aws_process_output(const char *data, size_t len, long long now,
			  struct sc_aws_creds *cr, const char **why)
{
	json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, NULL);
	json_t *id = json_object_get(root, "AccessKeyId");
	json_t *secret = json_object_get(root, "SecretAccessKey");
	json_t *token = json_object_get(root, "SessionToken");
	json_t *exp = json_object_get(root, "Expiration");
	json_t *ver = json_object_get(root, "Version");
	long long when;
	int ret = -1;

	if (!json_is_object(root))
		*why = "printed something that is not a JSON object";
	else if (!json_is_integer(ver) || json_integer_value(ver) != 1)
		*why = "printed no \"Version\": 1";
	else if (!json_is_string(id) || !json_is_string(secret) ||
		 !json_string_length(id) || !json_string_length(secret) ||
		 (token && !json_is_null(token) && !json_is_string(token)))
		*why = "printed no AccessKeyId and SecretAccessKey strings";
	else if (!sc_http_header_value_ok(json_string_value(id)) ||
		 !sc_http_header_value_ok(json_string_value(secret)) ||
		 (json_is_string(token) && !sc_http_header_value_ok(json_string_value(token))))
		*why = "printed credentials a header cannot carry";
	else if (exp && !json_is_null(exp) &&
		 (!json_is_string(exp) ||
		  sc_aws_time_parse(json_string_value(exp), &when) < 0))
		*why = "printed an Expiration that is not a date";
	else if (exp && json_is_string(exp) && when <= now)
		*why = "printed credentials that have expired";
	else
		ret = 0;
	return sc_aws_creds_take(root, ret, cr, id, secret, token);
}

void sc_aws_path(const char *var, const char *name, struct sc_buf *out)
{
	const char *v = var ? getenv(var) : NULL, *home = getenv("HOME");

	if (v && *v) {
		sc_buf_adds(out, v);
		return;
	}
	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());

		home = pw ? pw->pw_dir : "/";
	}
	sc_buf_addf(out, "%s/.aws/%s", home, name);
}

struct profile {
	const char *name;
	int probe;                                /* name the source only */
	struct sc_buf cred_file, config_file;     /* their contents */
	struct sc_buf cred_section, config_section;
	int has_cred, has_config;
};

/* Read a shared file; a missing one is empty.  -1 (error printed). */
static int read_shared(const char *var, const char *name, struct sc_buf *out,
		       int *present)
{
	struct sc_buf path = SC_BUF_INIT;
	int st;

	sc_aws_path(var, name, &path);
	st = sc_read_file_max(path.data, SC_AWS_FILE_MAX, out);
	*present = st == 0;
	if (st == -2)
		sc_error("AWS-CREDENTIALS", "the AWS %s file is larger than %zu "
			 "bytes", name, SC_AWS_FILE_MAX);
	else if (st < 0 && errno != ENOENT && errno != ENOTDIR)
		sc_error_errno("AWS-CREDENTIALS", "cannot read the AWS %s file",
			       name);
	sc_buf_release(&path);
	return st == -2 || (st < 0 && errno != ENOENT && errno != ENOTDIR) ?
		-1 : 0;
}

/* A key of the profile: the credentials file first, then the config. */
static int profile_get(struct profile *pr, const char *key,
		       struct sc_buf *out, const char **where)
{
	if (sc_aws_ini_get(pr->cred_file.data, pr->cred_file.len,
			   pr->cred_section.data, key, out)) {
		*where = "credentials";
		return 1;
	}
	if (sc_aws_ini_get(pr->config_file.data, pr->config_file.len,
			   pr->config_section.data, key, out)) {
		*where = "config";
		return 1;
	}
	return 0;
}

/* 1 when the profile has a section in either file. */
static int section_exists(const struct sc_buf *file, const char *section)
{
	const char *p = file->data, *end = file->data + file->len;
	int yes = 0;

	while (p && p < end && !yes) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *s, *t;

		s = trim(p, e, &t);
		if (s < t && *s == '[' && t[-1] == ']') {
			const char *n, *ne;

			n = trim(s + 1, t - 1, &ne);
			yes = same(n, ne, section);
		}
		p = nl ? nl + 1 : end;
	}
	return yes;
}

/*
 * Wait for PID at most SC_AWS_PROCESS_SECONDS: a helper that hangs (a
 * prompt nobody sees) must not hang the attempt.  Its status as sc_wait
 * gives it; -2 when it was killed for taking too long.
 */
static int wait_bounded(pid_t pid)
{
	const struct timespec tick = { 0, 50 * 1000000L };
	long waited_ms = 0;
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) :
				128 + WTERMSIG(status);
		if (waited_ms >= SC_AWS_PROCESS_SECONDS * 1000L) {
			kill(pid, SIGKILL);
			sc_wait(pid);
			return -2;
		}
		nanosleep(&tick, NULL);
		waited_ms += 50;
	}
}

/* Run the profile's credential_process and read what it prints. */
static int run_process(struct profile *pr, const char *cmd,
		       struct sc_aws_creds *cr)
{
	struct sc_buf out = SC_BUF_INIT;
	const char *why = NULL;
	char **argv = NULL;
	size_t nr = 0;
	int fd = -1, null = -1, st = -1, trunc = 0;
	pid_t pid;

	if (sc_sw_split(cmd, &argv, &nr, &why) < 0 || !nr) {
		sc_error("AWS-CREDENTIALS", "the credential_process of profile "
			 "'%s' is not a command line%s%s", pr->name,
			 why ? ": " : "", why ? why : "");
		sc_sw_split_free(argv);
		return -1;
	}
	fd = sc_anon_file("credential-process");
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	/*
	 * Its standard error goes nowhere: a helper that fails may print what
	 * it was given, and nothing here prints a credential.
	 */
	pid = fd < 0 || null < 0 ? -1 : sc_spawn(argv, null, fd, null, -1);
	if (pid < 0) {
		sc_error_errno("AWS-CREDENTIALS", "cannot run the "
			       "credential_process of profile '%s'", pr->name);
	} else if ((st = wait_bounded(pid)) == -2) {
		sc_error("AWS-CREDENTIALS", "the credential_process of profile "
			 "'%s' did not finish within %d s", pr->name,
			 SC_AWS_PROCESS_SECONDS);
		st = -1;
	} else if (st != 0) {
		sc_error("AWS-CREDENTIALS", "the credential_process of profile "
			 "'%s' failed (status %d)", pr->name, st);
		st = -1;
	} else if (lseek(fd, 0, SEEK_SET) < 0 ||
		   sc_read_fd_capped(fd, SC_AWS_FILE_MAX, &out, &trunc) < 0 ||
		   trunc) {
		sc_error("AWS-CREDENTIALS", "cannot read what the "
			 "credential_process of profile '%s' printed", pr->name);
		st = -1;
	} else if (sc_aws_process_output(out.data ? out.data : "", out.len,
					 (long long)time(NULL), cr, &why) < 0) {
		sc_error("AWS-CREDENTIALS", "the credential_process of profile "
			 "'%s' %s", pr->name, why);
		st = -1;
	}
	if (fd >= 0)
		close(fd);
	if (null >= 0)
		close(null);
	sc_buf_wipe(&out);
	sc_sw_split_free(argv);
	return st ? -1 : 0;
}

/*
 * An IAM Identity Center profile (awssso.h): an sso_session and its
 * [sso-session NAME] section of the config file, or the older form with
 * sso_start_url and sso_region in the profile.
 */
static int from_sso(struct profile *pr, struct sc_aws_creds *cr)
{
	struct sc_buf session = SC_BUF_INIT, section = SC_BUF_INIT;
	struct sc_buf url = SC_BUF_INIT, region = SC_BUF_INIT;
	struct sc_buf account = SC_BUF_INIT, role = SC_BUF_INIT;
	struct sc_aws_sso s = { pr->name, NULL, NULL, NULL, NULL, NULL };
	const char *where = NULL;
	int ret;

	if (profile_get(pr, "sso_session", &session, &where)) {
		sc_buf_addf(&section, "sso-session %s", session.data);
		s.session = session.data;
		if (sc_aws_ini_get(pr->config_file.data, pr->config_file.len,
				   section.data, "sso_region", &region))
			s.region = region.data;
		if (sc_aws_ini_get(pr->config_file.data, pr->config_file.len,
				   section.data, "sso_start_url", &url))
			s.start_url = url.data;
	} else {
		if (profile_get(pr, "sso_start_url", &url, &where))
			s.start_url = url.data;
		if (profile_get(pr, "sso_region", &region, &where))
			s.region = region.data;
	}
	if (profile_get(pr, "sso_account_id", &account, &where))
		s.account_id = account.data;
	if (profile_get(pr, "sso_role_name", &role, &where))
		s.role_name = role.data;
	ret = sc_aws_sso_load(&s, cr, pr->probe);
	if (!ret && s.session)
		snprintf(cr->source, sizeof(cr->source), "profile '%s' (IAM "
			 "Identity Center, sso-session '%.40s')", pr->name,
			 s.session);
	else if (!ret)
		snprintf(cr->source, sizeof(cr->source), "profile '%s' (IAM "
			 "Identity Center, sso_start_url)", pr->name);
	sc_buf_release(&session);
	sc_buf_release(&section);
	sc_buf_release(&url);
	sc_buf_release(&region);
	sc_buf_release(&account);
	sc_buf_release(&role);
	return ret;
}

static int from_profile(struct profile *pr, struct sc_aws_creds *cr,
			int named)
{
	struct sc_buf cmd = SC_BUF_INIT, v = SC_BUF_INIT;
	const char *where = NULL;
	int ret = 1;

	if (!section_exists(&pr->cred_file, pr->cred_section.data) &&
	    !section_exists(&pr->config_file, pr->config_section.data)) {
		if (!named)
			return 1;
		sc_error("AWS-CREDENTIALS", "AWS_PROFILE names profile '%s', "
			 "which neither AWS file holds", pr->name);
		return -1;
	}
	if (profile_get(pr, "region", &v, &where) && sc_aws_region_ok(v.data))
		snprintf(cr->region, sizeof(cr->region), "%s", v.data);
	if (profile_get(pr, "aws_access_key_id", &cr->key_id, &where) &&
	    profile_get(pr, "aws_secret_access_key", &cr->secret, &where)) {
		profile_get(pr, "aws_session_token", &cr->token, &where);
		if (!sc_http_header_value_ok(cr->key_id.data) || !sc_http_header_value_ok(cr->secret.data) ||
		    (cr->token.len && !sc_http_header_value_ok(cr->token.data))) {
			sc_error("AWS-CREDENTIALS", "profile '%s' holds keys a "
				 "header cannot carry", pr->name);
			ret = -1;
		} else {
			cr->kind = SC_AWS_KEYS;
			snprintf(cr->source, sizeof(cr->source),
				 "profile '%s' (static keys, %s file)", pr->name,
				 where);
			ret = 0;
		}
	} else if (profile_get(pr, "credential_process", &cmd, &where)) {
		ret = pr->probe ? 0 : run_process(pr, cmd.data, cr);
		if (!ret)
			snprintf(cr->source, sizeof(cr->source), "profile '%s' "
				 "(credential_process)", pr->name);
	} else if (profile_get(pr, "sso_session", &v, &where) ||
		   profile_get(pr, "sso_start_url", &v, &where)) {
		ret = from_sso(pr, cr);
	} else if (named) {
		sc_error("AWS-CREDENTIALS", "profile '%s' has no keys and no "
			 "credential_process", pr->name);
		ret = -1;
	}
	sc_buf_wipe(&cmd);
	sc_buf_release(&v);
	return ret;
}

static int load_profile(struct sc_aws_creds *cr, int probe)
{
	const char *env = getenv("AWS_PROFILE");
	struct profile pr;
	int a, b, ret;

	memset(&pr, 0, sizeof(pr));
	pr.probe = probe;
	pr.name = env && *env ? env : "default";
	sc_buf_adds(&pr.cred_section, pr.name);
	if (!strcmp(pr.name, "default"))
		sc_buf_adds(&pr.config_section, "default");
	else
		sc_buf_addf(&pr.config_section, "profile %s", pr.name);
	ret = read_shared("AWS_SHARED_CREDENTIALS_FILE", "credentials",
			  &pr.cred_file, &a);
	if (!ret)
		ret = read_shared("AWS_CONFIG_FILE", "config", &pr.config_file, &b);
	if (!ret)
		ret = from_profile(&pr, cr, env && *env);
	if (ret)
		sc_aws_creds_release(cr);
	sc_buf_wipe(&pr.cred_file);
	sc_buf_wipe(&pr.config_file);
	sc_buf_release(&pr.cred_section);
	sc_buf_release(&pr.config_section);
	return ret;
}

static int load(struct sc_aws_creds *cr, int probe)
{
	if (take_env("AWS_BEARER_TOKEN_BEDROCK", &cr->token)) {
		if (!sc_http_header_value_ok(cr->token.data)) {
			sc_error("AWS-CREDENTIALS", "AWS_BEARER_TOKEN_BEDROCK "
				 "holds characters a header cannot carry");
			sc_aws_creds_release(cr);
			return -1;
		}
		cr->kind = SC_AWS_BEARER;
		snprintf(cr->source, sizeof(cr->source), "AWS_BEARER_TOKEN_BEDROCK");
		return 0;
	}
	if (getenv("AWS_ACCESS_KEY_ID") && *getenv("AWS_ACCESS_KEY_ID") &&
	    getenv("AWS_SECRET_ACCESS_KEY") && *getenv("AWS_SECRET_ACCESS_KEY")) {
		take_env("AWS_ACCESS_KEY_ID", &cr->key_id);
		take_env("AWS_SECRET_ACCESS_KEY", &cr->secret);
		take_env("AWS_SESSION_TOKEN", &cr->token);
		if (!sc_http_header_value_ok(cr->key_id.data) || !sc_http_header_value_ok(cr->secret.data) ||
		    (cr->token.len && !sc_http_header_value_ok(cr->token.data))) {
			sc_error("AWS-CREDENTIALS", "the AWS_* key variables hold "
				 "characters a header cannot carry");
			sc_aws_creds_release(cr);
			return -1;
		}
		cr->kind = SC_AWS_KEYS;
		snprintf(cr->source, sizeof(cr->source), "AWS_ACCESS_KEY_ID%s",
			 cr->token.len ? " and AWS_SESSION_TOKEN" : "");
		return 0;
	}
	return load_profile(cr, probe);
}

int sc_aws_creds_load(struct sc_aws_creds *cr)
{
	return load(cr, 0);
}

int sc_aws_creds_probe(struct sc_aws_creds *cr)
{
	return load(cr, 1);
}
