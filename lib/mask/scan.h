#ifndef SC_SCAN_H
#define SC_SCAN_H

/*
 * sc-mask --scan: credential-shaped content found without knowing any
 * value.  The rules are one table (lib/mask/scanrules.c, listed in
 * sc-secrets(5)), each a regular expression with a made-up positive and
 * negative example the unit tests check.  All rules are one Vectorscan
 * database in block mode, compiled at build time (build/gen/scan-db.h)
 * and compiled again at start only when this machine cannot load it.
 *
 * A match's value (the token, or the text after an assignment) gives the
 * finding its fingerprint: the first 16 hex digits of its SHA-256, so a
 * person can allow one known false positive without weakening the rule.
 * Values that look like placeholders (low entropy) are not findings.
 *
 * Large inputs are scanned in windows of SCAN_WINDOW bytes that overlap,
 * so a match up to SC_SCAN_MAX_MATCH bytes long is found wherever the
 * window boundaries fall; memory stays bounded by the window.  A finding
 * names the rule, the file, the line and the fingerprint, never the
 * matched text; a path component that itself matches a rule is shown as
 * "(name not shown)".
 */

#include <stddef.h>

#include "buf.h"
#include "io.h"

enum {
	SC_RULE_CASELESS = 1,    /* the regex ignores case */
	SC_RULE_NO_ENTROPY = 2,  /* a fixed marker: no placeholder check */
	SC_RULE_ASSIGN = 4,      /* the match ends at '=' or ':'; the value
				    after it must be long and random */
	SC_RULE_SHORT = 8,       /* with ASSIGN: the regex ends on the
				    character after a provider's name, the
				    operator is parsed in C, and a value of
				    12 characters is enough */
	SC_RULE_KEY_BLOCK = 16,  /* a BEGIN line: the value is the block up
				    to its END line */
	SC_RULE_CRC32 = 32,      /* a token "PFX_" + base62 whose last 6
				    characters are the CRC32 of the ones
				    between (GitHub's, npm's): a wrong
				    checksum is no finding of the rule */
	SC_RULE_BECH32 = 64,     /* an age secret key, Bech32 with its
				    checksum: a wrong one is no finding */
};

struct sc_scan_rule {
	const char *id;        /* "aws-access-key-id" */
	unsigned flags;
	const char *regex;     /* Vectorscan syntax */
	const char *positive;  /* a made-up string the rule must find */
	const char *negative;  /* a look-alike it must not find */
};

/* The rule table, ending with an entry whose id is NULL. */
extern const struct sc_scan_rule sc_scan_rules[];
size_t sc_scan_nr_rules(void);

/*
 * Compile every rule into one block-mode database (*DB); -1 with
 * error[MATCHER] naming the rule that does not compile.
 */
struct hs_database;
int sc_scan_rules_compile(struct hs_database **db);

/* A match longer than this may be missed where two windows meet. */
#define SC_SCAN_MAX_MATCH ((size_t)32 << 10)

struct sc_scan_finding {
	const char *rule;
	unsigned long line;
	char fingerprint[17];  /* 16 lower-case hex digits */
	int allowed;           /* its fingerprint is allowed: reported as
				  such, it fails nothing */
};

struct sc_scanner;

/*
 * The rules, loaded from the database built with the tool or, when this
 * machine cannot use it, compiled now.  NULL with error[MATCHER] when the
 * rules do not compile.
 */
struct sc_scanner *sc_scanner_new(void);
/* The same, always compiled now (for the build and the tests). */
struct sc_scanner *sc_scanner_compile(void);
/* The database serialised (malloc'd into *BYTES); -1 on a matcher error. */
int sc_scanner_serialize(const struct sc_scanner *sc, char **bytes,
			 size_t *len);
void sc_scanner_free(struct sc_scanner *sc);

/*
 * Findings whose fingerprint is FP (16 lower-case hex digits) are
 * allowed: still reported, with allowed set, never counted as findings.
 * Allowing is for the scan's verdict only; a name that matches a rule is
 * hidden all the same (sc_scan_show_path).  Returns -1 when FP is not 16
 * lower-case hex digits.
 */
int sc_scanner_allow(struct sc_scanner *sc, const char *fp);
/*
 * Allow every mask.allowFingerprint of speccoder.conf(5) at CONFIG.
 * SC_CONFIG_OK, or the sc_config_status (lib/config.h) after
 * error[BAD-CONFIG] (a malformed fingerprint, named with the file and
 * line) or error[CONFIG-UNREADABLE].
 */
int sc_scanner_allow_config(struct sc_scanner *sc, const char *config);
/*
 * sc_scanner_new() with the NR_ALLOW fingerprints ALLOW (each of the
 * form: the caller checked) and, when CONFIG is set, its
 * mask.allowFingerprint allowed.  NULL after an error, with *CST the
 * config's sc_config_status (lib/config.h), or SC_CONFIG_OK when the rules
 * themselves failed.
 */
struct sc_scanner *sc_scanner_new_allowing(const char *config,
					   char *const *allow, size_t nr_allow,
					   int *cst);

/*
 * Call FN for each (rule, line, fingerprint) of the LEN bytes at DATA,
 * once each, in line order, allowed ones included.  Returns the number of
 * findings not allowed, or -1 on a matcher error.
 */
typedef void (*sc_scan_found_fn)(void *ctx, const struct sc_scan_finding *f);
long sc_scan_buffer_ex(struct sc_scanner *sc, const char *data, size_t len,
		       sc_scan_found_fn fn, void *ctx);

/* The same without fingerprints: FN gets the rule and the line of every
 * finding, allowed or not (for hiding names, where allowing changes
 * nothing). */
typedef void (*sc_scan_fn)(void *ctx, const char *rule, unsigned long line);
long sc_scan_buffer(struct sc_scanner *sc, const char *data, size_t len,
		    sc_scan_fn fn, void *ctx);

/*
 * F as a record of FILE (the path as shown): type=finding
 * code=CREDENTIAL rule= file= line= fingerprint=, or, allowed,
 * code=CREDENTIAL-ALLOWED with allowed=fingerprint.
 */
struct sc_record;
void sc_scan_finding_record(struct sc_record *rec,
			    const struct sc_scan_finding *f, const char *file);

/*
 * PATH into SHOWN (reset first), each '/'-separated component that itself
 * matches a rule replaced by "(name not shown)".
 */
void sc_scan_show_path(struct sc_scanner *sc, const char *path,
		       struct sc_buf *shown);

/*
 * Scan the files and directories (recursively, not following symlinks,
 * skipping .git) of PATHS, writing type=finding code=CREDENTIAL records to
 * OUT.  Every regular file is scanned whole, whatever its size or content.
 * Returns SC_SCAN_FOUND when anything not allowed was found, SC_SCAN_CLEAN
 * when not; SC_SCAN_NO_PATH when a named path does not exist;
 * SC_SCAN_INCOMPLETE with error[SCAN-INCOMPLETE] when something could not
 * be scanned (an unreadable file or directory, a special file), after
 * scanning the rest; SC_SCAN_FAILED on a matcher or write error.  The
 * first of FAILED, INCOMPLETE, NO_PATH, FOUND that holds is returned.
 */
enum sc_scan_status {
	SC_SCAN_CLEAN = 0,
	SC_SCAN_FOUND = 1,
	SC_SCAN_FAILED = -1,
	SC_SCAN_INCOMPLETE = -2,
	SC_SCAN_NO_PATH = -3,
};
int sc_scan_paths(struct sc_scanner *sc, char *const *paths, int npaths,
		  struct sc_output *out);

/*
 * 1 when the LEN bytes at P end with a checksummed token: a prefix of
 * three letters and '_' (ghp_, gho_, ghu_, ghs_, ghr_, npm_), base62, and
 * 6 base62 digits (0-9A-Za-z, most significant first) that are the
 * CRC-32 (IEEE, as zlib's) of the characters between.  -1 when no such
 * token ends there (the rule's other forms: no checksum to check).
 */
int sc_scan_crc32_token(const char *p, size_t len);

/*
 * 1 when the LEN bytes at P end with an age secret key whose Bech32
 * checksum (BIP 173, the human-readable part "age-secret-key-") is right,
 * 0 when it is wrong, -1 when no such key ends there.
 */
int sc_scan_age_key_valid(const char *p, size_t len);

/* Shannon entropy of the LEN bytes at P, in bits per byte. */
double sc_scan_entropy(const char *p, size_t len);

#endif
