#include <errno.h>
#include <fcntl.h>
#include <hs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "paths.h"
#include "record.h"
#include "scan.h"
#include "secrets.h"

/*
 * The rules.  Each regex is Vectorscan syntax; the examples are made up
 * (AWS's documented example key id included) and checked by
 * t/unit/test-scan.c.  ASSIGN_RULE must stay the last entry: its match ends
 * at the '=' or ':' and scan.c checks the value after it.
 */
const struct sc_scan_rule sc_scan_rules[] = {
	{ "private-key",
	  "-----BEGIN ((RSA|DSA|EC|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY( BLOCK)?-----",
	  "-----BEGIN OPENSSH PRIVATE KEY-----",
	  "-----BEGIN PUBLIC KEY-----" },
	{ "aws-access-key-id",
	  "\\b(AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\\b",
	  "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
	  "AKIAIOSFODNN7 is too short" },
	{ "github-token",
	  "\\bgh[pousr]_[A-Za-z0-9]{36,255}\\b",
	  "token: ghp_abcdefghijklmnopqrstuvwxyz0123456789",
	  "ghp_notlongenough" },
	{ "github-fine-grained-token",
	  "\\bgithub_pat_[A-Za-z0-9_]{82}\\b",
	  "github_pat_11ABCDEFG0abcdefghijklmnopqrstuvwxyz0123456789"
	  "_abcdefghijklmnopqrstuvwxyz012345678",
	  "github_pat_short" },
	{ "gitlab-token",
	  "\\bglpat-[A-Za-z0-9_-]{20,}",
	  "glpat-abcdefghij0123456789",
	  "glpat-short" },
	{ "slack-token",
	  "\\bxox[abposr]-[A-Za-z0-9-]{10,}",
	  "xoxb-1234567890-abcdefghij",
	  "xoxz-1234567890-abcdefghij" },
	{ "slack-webhook",
	  "https://hooks\\.slack\\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+",
	  "https://hooks.slack.com/services/T000TEST/B000TEST/abcdefTEST",
	  "https://hooks.slack.com/" },
	{ "stripe-key",
	  "\\b[sr]k_(live|test)_[A-Za-z0-9]{16,}\\b",
	  "sk_live_abcdefghij0123456789",
	  "sk_demo_abcdefghij0123456789" },
	{ "anthropic-key",
	  "\\bsk-ant-[A-Za-z0-9_-]{20,}",
	  "sk-ant-api03-abcdefghij0123456789ABCD",
	  "sk-ant-short" },
	{ "openai-key",
	  "\\bsk-((proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})",
	  "sk-proj-abcdefghij0123456789abcdefghij0123456789",
	  "sk-proj-short" },
	{ "google-api-key",
	  "\\bAIza[0-9A-Za-z_-]{35}\\b",
	  "AIzaabcdefghij0123456789ABCDEFGHIJ_-xyz",
	  "AIza-too-short" },
	{ "npm-token",
	  "\\bnpm_[A-Za-z0-9]{36}\\b",
	  "npm_abcdefghijklmnopqrstuvwxyz0123456789",
	  "npm_install" },
	{ "pypi-token",
	  "\\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}",
	  "pypi-AgEIcHlwaS5vcmcabcdefghij0123456789abcdefghij0123456789abcdefghij",
	  "pypi-AgEIcHlwaS5vcmc" },
	{ "huggingface-token",
	  "\\bhf_[A-Za-z0-9]{34,}\\b",
	  "hf_abcdefghijklmnopqrstuvwxyz01234567",
	  "hf_short" },
	{ "jwt",
	  "\\beyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}",
	  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.abcdefghij0123456789",
	  "eyJhbGciOiJIUzI1NiJ9 alone" },
	{ "url-password",
	  "\\b[A-Za-z][A-Za-z0-9+.-]*://[^/\\s:@]{1,64}:[^/\\s:@${}<>]{3,}@[^\\s/@]+",
	  "postgres://app:s3cr3t-Test@db.example:5432/app",
	  "https://user@example.com and postgres://app:${DB_PASSWORD}@db" },
	{ "secret-assignment",
	  "(secret|passwd|password|token|api[_-]?key|access[_-]?key|"
	  "private[_-]?key|credential|auth[_-]?key|client[_-]?secret)"
	  "[A-Za-z0-9_.-]*[\"']?[ \\t]*(=|:)",
	  "DB_PASSWORD = \"q8Zr2LmX9vT4pK7wN3sB\"",
	  "PASSWORD = \"changeme-changeme\"" },
	{ NULL, NULL, NULL, NULL },
};

#define NR_RULES (sizeof(sc_scan_rules) / sizeof(*sc_scan_rules) - 1)
#define ASSIGN_RULE (NR_RULES - 1)

/* An assigned value counts when this long and this unpredictable. */
#define ASSIGN_MIN_LEN 16
#define ASSIGN_MIN_ENTROPY 3.5

/*
 * Findings kept per buffer: a file full of tokens still gets every line
 * up to here, and a hostile one cannot grow the tool without bound.
 */
#define MAX_FINDINGS 100000

/* The largest file scanned; larger ones are skipped with a warning. */
#define SCAN_FILE_MAX ((size_t)64 << 20)

struct sc_scanner {
	hs_database_t *db;
	hs_scratch_t *scratch;
};

struct hit {
	unsigned long line;
	unsigned rule;
};

struct scan_ctx {
	const char *data;
	size_t len;
	size_t *nl;          /* offsets of newlines */
	size_t nr_nl;
	struct hit *hits;
	size_t nr_hits, alloc_hits;
	unsigned long long last_assign; /* end offset last evaluated */
};

struct sc_scanner *sc_scanner_new(void)
{
	struct sc_scanner *sc = sc_xcalloc(1, sizeof(*sc));
	const char *exprs[NR_RULES];
	unsigned flags[NR_RULES], ids[NR_RULES];
	hs_compile_error_t *err = NULL;
	size_t i;

	for (i = 0; i < NR_RULES; i++) {
		exprs[i] = sc_scan_rules[i].regex;
		ids[i] = (unsigned)i;
		flags[i] = 0;
	}
	flags[ASSIGN_RULE] = HS_FLAG_CASELESS;
	if (hs_compile_multi(exprs, flags, ids, NR_RULES, HS_MODE_BLOCK, NULL,
			     &sc->db, &err) != HS_SUCCESS) {
		sc_error("MATCHER", "scan rule %d does not compile: %s",
			 err ? err->expression : -1,
			 err ? err->message : "unknown error");
		hs_free_compile_error(err);
		free(sc);
		return NULL;
	}
	if (hs_alloc_scratch(sc->db, &sc->scratch) != HS_SUCCESS) {
		sc_scanner_free(sc);
		sc_error("MATCHER", "Vectorscan cannot allocate scratch space");
		return NULL;
	}
	return sc;
}

void sc_scanner_free(struct sc_scanner *sc)
{
	if (!sc)
		return;
	if (sc->scratch)
		hs_free_scratch(sc->scratch);
	if (sc->db)
		hs_free_database(sc->db);
	free(sc);
}

/*
 * log2 of X > 0 without libm (not otherwise linked): halve or double into
 * [1, 2), then ln y = 2 atanh((y - 1) / (y + 1)), a series that converges
 * fast for t <= 1/3.
 */
static double log2_of(double x)
{
	double e = 0, t, t2, sum = 0, term;
	int k;

	while (x >= 2) {
		x /= 2;
		e++;
	}
	while (x < 1) {
		x *= 2;
		e--;
	}
	t = (x - 1) / (x + 1);
	t2 = t * t;
	term = t;
	for (k = 1; k < 40; k += 2) {
		sum += term / k;
		term *= t2;
	}
	return e + 2 * sum / 0.69314718055994530942;
}

double sc_scan_entropy(const char *p, size_t len)
{
	size_t count[256] = { 0 }, i;
	double h = 0;

	for (i = 0; i < len; i++)
		count[(unsigned char)p[i]]++;
	for (i = 0; i < 256; i++) {
		double q;

		if (!count[i])
			continue;
		q = (double)count[i] / (double)len;
		h -= q * log2_of(q);
	}
	return h;
}

static int value_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || strchr("+/=_.~!@#%^&*-", c);
}

/* The value after an assignment's '=' or ':' at END: long and random? */
static int strong_value(const char *data, size_t len, size_t end)
{
	size_t at = end, start;
	int digit = 0, alpha = 0;

	while (at < len && (data[at] == ' ' || data[at] == '\t' ||
			    data[at] == '"' || data[at] == '\''))
		at++;
	start = at;
	while (at < len && data[at] && value_char(data[at])) {
		digit |= data[at] >= '0' && data[at] <= '9';
		alpha |= (data[at] | 0x20) >= 'a' && (data[at] | 0x20) <= 'z';
		at++;
	}
	if (at - start < ASSIGN_MIN_LEN || !digit || !alpha)
		return 0;
	return sc_scan_entropy(data + start, at - start) >= ASSIGN_MIN_ENTROPY;
}

static unsigned long line_of(const struct scan_ctx *c, size_t off)
{
	size_t lo = 0, hi = c->nr_nl;

	/* The number of newlines before OFF, plus one. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->nl[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (unsigned long)lo + 1;
}

static int on_rule(unsigned id, unsigned long long from,
		   unsigned long long to, unsigned flags, void *ctx)
{
	struct scan_ctx *c = ctx;
	struct hit *h;

	(void)from;
	(void)flags;
	if (id == ASSIGN_RULE) {
		if (to == c->last_assign || !strong_value(c->data, c->len, to))
			return 0;
		c->last_assign = to;
	}
	if (c->nr_hits >= MAX_FINDINGS)
		return 0;
	SC_ALLOC_GROW(c->hits, c->nr_hits + 1, c->alloc_hits);
	h = &c->hits[c->nr_hits++];
	h->line = line_of(c, to ? to - 1 : 0);
	h->rule = id;
	return 0;
}

static int hit_cmp(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->rule > y->rule) - (x->rule < y->rule);
}

long sc_scan_buffer(struct sc_scanner *sc, const char *data, size_t len,
		    sc_scan_fn fn, void *ctx)
{
	struct scan_ctx c = { data, len, NULL, 0, NULL, 0, 0, 0 };
	size_t alloc_nl = 0, i, n = 0;
	const char *p = data, *end = data + len;
	int ret = 0;

	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		SC_ALLOC_GROW(c.nl, c.nr_nl + 1, alloc_nl);
		c.nl[c.nr_nl++] = (size_t)(p - data);
		p++;
	}
	/* Vectorscan takes an unsigned length; files are capped far below. */
	if (len > SCAN_FILE_MAX)
		ret = sc_error("MATCHER", "a buffer larger than %zu bytes",
			       SCAN_FILE_MAX);
	else if (hs_scan(sc->db, data, (unsigned)len, 0, sc->scratch, on_rule,
			 &c) != HS_SUCCESS)
		ret = sc_error("MATCHER", "Vectorscan scan failed");
	if (c.nr_hits)
		qsort(c.hits, c.nr_hits, sizeof(*c.hits), hit_cmp);
	for (i = 0; i < c.nr_hits && !ret; i++) {
		if (i && !hit_cmp(&c.hits[i], &c.hits[i - 1]))
			continue;
		fn(ctx, sc_scan_rules[c.hits[i].rule].id, c.hits[i].line);
		n++;
	}
	free(c.nl);
	free(c.hits);
	return ret ? -1 : (long)n;
}

/* ---- files ---- */

struct walk {
	struct sc_scanner *sc;
	struct sc_output *out;
	const char *shown;   /* the path as printed */
	int found, failed;
};

static void count_hit(void *ctx, const char *rule, unsigned long line)
{
	(void)rule;
	(void)line;
	(*(int *)ctx)++;
}

void sc_scan_show_path(struct sc_scanner *sc, const char *path,
		       struct sc_buf *shown)
{
	const char *p = path;

	sc_buf_reset(shown);
	while (*p) {
		size_t n = strcspn(p, "/");
		int hits = 0;

		if (n && sc_scan_buffer(sc, p, n, count_hit, &hits) < 0)
			hits = 1;
		if (hits)
			sc_buf_adds(shown, "(name not shown)");
		else
			sc_buf_add(shown, p, n);
		p += n;
		if (*p == '/') {
			sc_buf_addch(shown, '/');
			p++;
		}
	}
}

static void emit(void *ctx, const char *rule, unsigned long line)
{
	struct walk *w = ctx;
	struct sc_record rec;
	char num[32];

	snprintf(num, sizeof(num), "%lu", line);
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "finding");
	sc_record_adds(&rec, "code", "CREDENTIAL");
	sc_record_adds(&rec, "rule", rule);
	sc_record_adds(&rec, "file", w->shown);
	sc_record_adds(&rec, "line", num);
	if (sc_record_write(w->out, &rec) < 0)
		w->failed = 1;
	sc_record_release(&rec);
	w->found = 1;
}

static void scan_file(struct walk *w, const char *path, const char *shown)
{
	struct sc_buf text = SC_BUF_INIT;
	char msg[512];

	sc_sanitize(msg, sizeof(msg), shown, strlen(shown));
	if (sc_secrets_read_file(path, SCAN_FILE_MAX, &text) < 0) {
		if (errno == EFBIG) {
			sc_warning("SCAN-SKIPPED", "'%s' is larger than %zu "
				   "bytes: not scanned", msg, SCAN_FILE_MAX);
		} else {
			sc_error_errno("INPUT", "cannot read '%s'", msg);
			w->failed = 1;
		}
	} else {
		w->shown = shown;
		if (sc_scan_buffer(w->sc, text.data ? text.data : "", text.len,
				   emit, w) < 0)
			w->failed = 1;
	}
	sc_buf_wipe(&text);
}

static void scan_path(struct walk *w, const char *path, int top);

static void scan_dir(struct walk *w, const char *path, const char *msg)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char **names = NULL;
	size_t nr = 0, i;

	if (fd < 0 || sc_dir_names(fd, &names, &nr) < 0) {
		sc_error_errno("INPUT", "cannot open directory '%s'", msg);
		w->failed = 1;
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	for (i = 0; i < nr; i++) {
		struct sc_buf child = SC_BUF_INIT;

		if (!strcmp(names[i], ".git"))
			continue;
		sc_buf_adds(&child, path);
		if (child.len && child.data[child.len - 1] != '/')
			sc_buf_addch(&child, '/');
		sc_buf_adds(&child, names[i]);
		scan_path(w, child.data, 0);
		sc_buf_release(&child);
	}
	sc_dir_names_free(names, nr);
}

/* A path named on the command line is followed; symlinks under it are not. */
static void scan_path(struct walk *w, const char *path, int top)
{
	struct sc_buf shown = SC_BUF_INIT;
	struct stat st;
	char msg[512];

	sc_scan_show_path(w->sc, path, &shown);
	sc_sanitize(msg, sizeof(msg), shown.data, shown.len);
	if ((top ? stat(path, &st) : lstat(path, &st)) < 0) {
		sc_error_errno("INPUT", "cannot read '%s'", msg);
		w->failed = 1;
	} else if (S_ISDIR(st.st_mode)) {
		scan_dir(w, path, msg);
	} else if (S_ISREG(st.st_mode)) {
		scan_file(w, path, shown.data);
	}
	sc_buf_release(&shown);
}

int sc_scan_paths(struct sc_scanner *sc, char *const *paths, int npaths,
		  struct sc_output *out)
{
	struct walk w = { sc, out, NULL, 0, 0 };
	int i;

	for (i = 0; i < npaths; i++) {
		scan_path(&w, paths[i], 1);
		if (sc_output_unit_done(out) < 0)
			break;
	}
	if (sc_output_flush(out) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		return SC_EXIT_INTERNAL;
	}
	if (w.failed)
		return SC_EXIT_USAGE;
	return w.found ? SC_EXIT_NO : SC_EXIT_OK;
}
