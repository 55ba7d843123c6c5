/*
 * sc-pin: digest a package (a directory tree), pin the digest of its
 * exact ID@VERSION in a lock, and verify packages against their pins,
 * scanning each for credentials before anything else reads it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "diag.h"
#include "io.h"
#include "opt.h"
#include "pin.h"
#include "record.h"
#include "rectable.h"
#include "scan.h"
#include "skills.h"

static const char *const synopsis[] = {
	"digest PATH",
	"pin --lock FILE [--config FILE] ID@VERSION PATH",
	"pin --lock FILE --root DIR [--config FILE] [ID@VERSION] PATH",
	"verify --lock FILE [--config FILE] [--records] [ID@VERSION=PATH...]",
	"skills --root DIR [--config FILE]",
	NULL,
};

static const struct sc_tool tool = {
	"sc-pin", synopsis,
	"    digest PATH             print the package's digest\n"
	"    pin                     scan, digest and pin ID@VERSION in the lock\n"
	"    verify                  check each package against its exact pin\n"
	"    skills                  list the skills a run would load, as records\n"
	"    --lock FILE             the lock (speccoder-lock(5))\n"
	"    --records               verify: also read type=package records "
	"from stdin\n"
	"    --root DIR              skills, pin: the repository's top\n"
	"    --config FILE           skills, pin, verify: its speccoder.conf\n"
	"                            (pin, verify: its mask.allowFingerprint)\n"
	"    -z                      records even when stdout is a terminal\n"
	"    -h, --help              show this help\n"
	"    --version               show the version\n",
	0,
};

enum { OPT_LOCK = 0x100, OPT_RECORDS, OPT_ROOT, OPT_CONFIG };

struct args {
	const char *cmd;
	const char *lock;
	const char *root;
	const char *config;
	int records;
	int force_records;    /* -z */
	char **rest;
	int nrest;
};

static void parse(int argc, char *argv[], struct args *a)
{
	static const struct option longopts[] = {
		{ "lock", required_argument, NULL, OPT_LOCK },
		{ "records", no_argument, NULL, OPT_RECORDS },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "config", required_argument, NULL, OPT_CONFIG },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = sc_getopt(argc, argv, "hz", longopts, &tool)) != -1) {
		if (c == 'z')
			a->force_records = 1;
		else if (c == OPT_LOCK)
			a->lock = optarg;
		else if (c == OPT_ROOT)
			a->root = optarg;
		else if (c == OPT_CONFIG)
			a->config = optarg;
		else
			a->records = 1;
	}
	if (a->root && (optind >= argc || (strcmp(argv[optind], "skills") &&
					   strcmp(argv[optind], "pin"))))
		sc_usage_error(&tool, "--root goes with skills and pin");
	if (a->config && (optind >= argc || !strcmp(argv[optind], "digest")))
		sc_usage_error(&tool, "--config goes with skills, pin and "
			       "verify");
	if (optind >= argc)
		sc_usage_error(&tool, "no command");
	a->cmd = argv[optind];
	a->rest = argv + optind + 1;
	a->nrest = argc - optind - 1;
	if (!strcmp(a->cmd, "digest")) {
		if (a->lock || a->records || a->nrest != 1)
			sc_usage_error(&tool, "digest takes one PATH");
	} else if (!strcmp(a->cmd, "pin")) {
		if (!a->lock || a->records || a->nrest > 2 ||
		    a->nrest < (a->root ? 1 : 2))
			sc_usage_error(&tool, "pin takes --lock FILE, "
				       "ID@VERSION and PATH (with --root, "
				       "PATH alone will do)");
	} else if (!strcmp(a->cmd, "verify")) {
		if (!a->lock || (!a->nrest && !a->records))
			sc_usage_error(&tool, "verify takes --lock FILE and "
				       "packages");
	} else if (!strcmp(a->cmd, "skills")) {
		if (!a->root || a->lock || a->records || a->nrest)
			sc_usage_error(&tool, "skills takes --root DIR and "
				       "--config FILE");
	} else {
		sc_usage_error(&tool, "unknown command");
	}
}

/* The rules, with the fingerprints CONFIG allows (when given). */
static struct sc_scanner *scanner(const char *config)
{
	struct sc_scanner *sc = sc_scanner_new();
	int st;

	if (!sc)
		exit(SC_EXIT_INTERNAL);
	if (config && (st = sc_scanner_allow_config(sc, config))) {
		sc_scanner_free(sc);
		exit(st == SC_CONFIG_BAD ? SC_EXIT_MALFORMED : SC_EXIT_UNAVAILABLE);
	}
	return sc;
}

static int flush(struct sc_output *out)
{
	if (sc_output_flush(out) < 0)
		return sc_error_errno("WRITE-FAILED", "cannot write output");
	return 0;
}

static int cmd_digest(const char *path)
{
	struct sc_scanner *sc = NULL;  /* made only to hide names in errors */
	struct sc_pin_tree t;
	char digest[SC_PIN_DIGEST_LEN + 1];
	int ret = SC_EXIT_MALFORMED;

	sc_pin_tree_init(&t);
	if (sc_pin_tree_load(&t, path, &sc) == 0)
		ret = sc_pin_tree_digest(&t, digest) < 0 ||
		      printf("%s\n", digest) < 0 || fflush(stdout) ?
		      SC_EXIT_INTERNAL : SC_EXIT_OK;
	sc_pin_tree_release(&t);
	sc_scanner_free(sc);
	return ret;
}

/* type=finding records for each finding, the form of sc-mask --scan. */
static void write_findings(const struct sc_pin_findings *f,
			   struct sc_output *out)
{
	struct sc_record rec;
	size_t i;

	sc_record_init(&rec);
	for (i = 0; i < f->nr; i++) {
		const struct sc_pin_finding *x = &f->items[i];
		struct sc_scan_finding sf;

		sf.rule = x->rule;
		sf.line = x->line;
		memcpy(sf.fingerprint, x->fingerprint, sizeof(sf.fingerprint));
		sf.allowed = x->allowed;
		sc_record_reset(&rec);
		sc_scan_finding_record(&rec, &sf, x->file);
		sc_record_write(out, &rec);
	}
	sc_record_release(&rec);
}

/* Read the lock a pin goes into: missing is empty, anything bad refuses. */
static int lock_for_pin(struct sc_pin_lock *lock, const char *path)
{
	struct stat st;
	size_t i;

	/* The first pin creates the lock; only ENOENT means "no lock yet". */
	if (lstat(path, &st) < 0 && errno == ENOENT)
		return 0;
	if (sc_pin_lock_read(lock, path) != SC_PIN_LOCK_OK)
		return -1;
	/* Rewriting would drop an entry that does not parse: a person
	 * fixes it first. */
	for (i = 0; i < lock->nr; i++)
		if (lock->pins[i].why)
			return -1;
	return 0;
}

static int write_pin(const char *lockpath, const char *id,
		     const char *version, const char *digest)
{
	struct sc_pin_lock lock;
	struct sc_buf key = SC_BUF_INIT, text = SC_BUF_INIT;
	int ret = SC_EXIT_MALFORMED;

	sc_pin_lock_init(&lock);
	sc_buf_addf(&key, "%s@%s", id, version);
	if (lock_for_pin(&lock, lockpath) == 0) {
		sc_pin_lock_set(&lock, key.data, digest);
		sc_pin_lock_format(&lock, &text);
		ret = sc_pin_write_file(lockpath, text.data, text.len) < 0 ?
		      SC_EXIT_INTERNAL : SC_EXIT_OK;
	}
	sc_buf_release(&text);
	sc_buf_release(&key);
	sc_pin_lock_release(&lock);
	return ret;
}

static int pinned(struct sc_output *out, const char *id, const char *version,
		  const char *digest)
{
	struct sc_record rec;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "pin");
	sc_record_adds(&rec, "id", id);
	sc_record_adds(&rec, "version", version);
	sc_record_adds(&rec, "status", "pinned");
	sc_record_adds(&rec, "digest", digest);
	sc_record_write(out, &rec);
	sc_record_release(&rec);
	return flush(out) < 0 ? SC_EXIT_INTERNAL : SC_EXIT_OK;
}

static int pin_tree(const struct args *a, const char *id, const char *version,
		    const char *path, struct sc_scanner *sc,
		    struct sc_output *out)
{
	struct sc_pin_findings f = { NULL, 0, 0, 0 };
	char digest[SC_PIN_DIGEST_LEN + 1];
	struct sc_pin_tree t;
	int ret = SC_EXIT_MALFORMED;

	sc_pin_tree_init(&t);
	if (sc_pin_tree_load(&t, path, &sc) < 0)
		goto out;
	if (sc_pin_tree_scan(&t, sc, &f) < 0) {
		ret = SC_EXIT_INTERNAL;
	} else if (f.failing) {
		/* Scan before pin: a package holding a credential is never
		 * trusted, so it is never pinned. */
		write_findings(&f, out);
		flush(out);
		sc_error("SCAN-HIT", "the package holds %zu credential "
			 "finding(s): nothing pinned", f.failing);
		ret = SC_EXIT_NO;
	} else if (sc_pin_tree_digest(&t, digest) < 0) {
		ret = SC_EXIT_INTERNAL;
	} else {
		/* The findings allowed by fingerprint, said before the pin. */
		write_findings(&f, out);
		ret = write_pin(a->lock, id, version, digest);
		if (ret == SC_EXIT_OK)
			ret = pinned(out, id, version, digest);
	}
out:
	sc_pin_findings_release(&f);
	sc_pin_tree_release(&t);
	return ret;
}

/*
 * With --root, the pin is made for the id a run loads the skill at PATH
 * under, so the first pin verifies: a path alone takes that id, and an
 * ID@VERSION no run would look for is refused, naming the one it would.
 * 0 with ID and VERSION set, or an exit status after an error.
 */
static int skill_id(const struct args *a, const char *path, struct sc_buf *id,
		    struct sc_buf *version, struct sc_scanner *sc)
{
	struct sc_buf shown = SC_BUF_INIT, given = SC_BUF_INIT;
	struct sc_buf where = SC_BUF_INIT;
	char *want_id, *want_version;
	int st = sc_skills_at(a->root, a->config, path, &want_id,
			      &want_version);

	if (st < 0)
		return SC_EXIT_MALFORMED;
	sc_scan_show_path(sc, path, &where);
	if (st > 0) {
		sc_buf_release(&where);
		sc_error("NOT-A-SKILL", "no skill a run loads is at '%s': a "
			 "repository skill is a folder with SKILL.md under "
			 ".claude/skills/, .agents/skills/ or .codex/skills/; "
			 "any other is a [skill \"ID\"] of speccoder.conf",
			 where.data);
		return SC_EXIT_USAGE;
	}
	sc_scan_show_path(sc, want_id, &shown);
	if (id->len && (strcmp(id->data, want_id) ||
			strcmp(version->data, want_version))) {
		/* What was typed may be a pasted token: never echoed. */
		sc_scan_show_path(sc, id->data, &given);
		sc_error("PIN-ID", "a run loads the skill at '%s' as '%s@%s', "
			 "never as '%s@%s': pin it under that id, or give the "
			 "path alone", where.data, shown.data, want_version,
			 given.data, version->data);
		st = SC_EXIT_USAGE;
	} else {
		sc_buf_reset(id);
		sc_buf_adds(id, want_id);
		sc_buf_reset(version);
		sc_buf_adds(version, want_version);
	}
	sc_buf_release(&given);
	sc_buf_release(&shown);
	sc_buf_release(&where);
	free(want_id);
	free(want_version);
	return st;
}

static int cmd_pin(const struct args *a)
{
	struct sc_buf id = SC_BUF_INIT, version = SC_BUF_INIT;
	const char *path = a->rest[a->nrest - 1];
	struct sc_scanner *sc;
	struct sc_output out;
	int ret = SC_EXIT_OK;

	if (a->nrest == 2 && sc_pin_split(a->rest[0], &id, &version) < 0)
		sc_usage_error(&tool, "not ID@VERSION (see speccoder-lock(5))");
	sc = scanner(a->config);
	if (a->root)
		ret = skill_id(a, path, &id, &version, sc);
	sc_output_init_records(&out, STDOUT_FILENO, a->force_records);
	if (ret == SC_EXIT_OK)
		ret = pin_tree(a, id.data, version.data, path, sc, &out);
	sc_output_release(&out);
	sc_scanner_free(sc);
	sc_buf_release(&id);
	sc_buf_release(&version);
	return ret;
}

/* ---- verify ---- */

struct verify {
	struct sc_scanner *sc;
	struct sc_pin_lock lock;
	struct sc_output out;
	struct sc_pin_result res;
	int any_failed;   /* a required package is not verified */
	int error;        /* an exit code other than 0 or 1 */
};

static const char *const status_names[] = { "verified", "unverified",
	"scan-hit" };

static void verify_one(struct verify *v, const char *id, const char *version,
		       const char *path, int required)
{
	struct sc_buf shown = SC_BUF_INIT;
	struct sc_record rec;

	if (sc_pin_check(v->sc, &v->lock, id, version, path, &v->res) < 0) {
		v->error = SC_EXIT_INTERNAL;
		return;
	}
	if (v->res.status != SC_PIN_VERIFIED && required)
		v->any_failed = 1;
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "pin");
	/* An id that looks like a credential is a scan hit, and hidden. */
	sc_scan_show_path(v->sc, id, &shown);
	sc_record_adds(&rec, "id", shown.data);
	sc_record_adds(&rec, "version", version);
	sc_record_adds(&rec, "status", status_names[v->res.status]);
	sc_record_adds(&rec, "reason", v->res.reason.data);
	sc_record_adds(&rec, "required", required ? "true" : "false");
	if (v->res.digest[0])
		sc_record_adds(&rec, "digest", v->res.digest);
	if (sc_record_write(&v->out, &rec) < 0 ||
	    sc_output_unit_done(&v->out) < 0)
		v->error = SC_EXIT_INTERNAL;
	sc_record_release(&rec);
	sc_buf_release(&shown);
}

/* ID@VERSION=PATH from the command line; every one is required. */
static void verify_arg(struct verify *v, const char *arg)
{
	struct sc_buf spec = SC_BUF_INIT, id = SC_BUF_INIT, ver = SC_BUF_INIT;
	const char *eq = strchr(arg, '=');

	if (eq)
		sc_buf_add(&spec, arg, (size_t)(eq - arg));
	if (!eq || !eq[1] || sc_pin_split(spec.data, &id, &ver) < 0)
		sc_usage_error(&tool, "a package is ID@VERSION=PATH");
	verify_one(v, id.data, ver.data, eq + 1, 1);
	sc_buf_release(&spec);
	sc_buf_release(&id);
	sc_buf_release(&ver);
}

/* One type=package record; another type passes through unchanged. */
static void verify_record(struct verify *v, const struct sc_record *rec)
{
	const char *type = sc_record_type(rec);
	const char *id = sc_record_str(rec, "id");
	const char *ver = sc_record_str(rec, "version");
	const char *path = sc_record_str(rec, "path");
	const char *req = sc_record_str(rec, "required");

	if (!type || strcmp(type, "package")) {
		sc_record_write(&v->out, rec);
		return;
	}
	if (!id || !ver || !path || !*path ||
	    !sc_pin_valid_id(id, strlen(id)) ||
	    !sc_pin_valid_version(ver, strlen(ver)) ||
	    (req && strcmp(req, "true") && strcmp(req, "false"))) {
		sc_error("BAD-PACKAGE", "a type=package record needs a valid "
			 "id, version and path, and required true or false");
		v->error = SC_EXIT_MALFORMED;
		return;
	}
	verify_one(v, id, ver, path, !req || !strcmp(req, "true"));
}

static void verify_records(struct verify *v)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record rec;
	int st;

	sc_input_init_fd(&in, STDIN_FILENO);
	sc_input_set_idle(&in, sc_output_idle, &v->out);
	sc_reader_init(&rd, &in);
	sc_record_init(&rec);
	while (!v->error && (st = sc_reader_next(&rd, &rec)) == SC_READ_RECORD)
		verify_record(v, &rec);
	if (!v->error && st < 0)
		v->error = sc_reader_report(&rd, st);
	sc_record_release(&rec);
}

static int cmd_verify(const struct args *a)
{
	struct verify v;
	int i;

	memset(&v, 0, sizeof(v));
	v.sc = scanner(a->config);
	sc_pin_lock_init(&v.lock);
	sc_output_init_records(&v.out, STDOUT_FILENO, a->force_records);
	sc_pin_result_init(&v.res);
	/* Read once; a lock that is missing or bad leaves every package
	 * unverified, and each says why. */
	sc_pin_lock_read(&v.lock, a->lock);
	for (i = 0; i < a->nrest && !v.error; i++)
		verify_arg(&v, a->rest[i]);
	if (a->records && !v.error)
		verify_records(&v);
	if (flush(&v.out) < 0 && !v.error)
		v.error = SC_EXIT_INTERNAL;
	sc_pin_result_release(&v.res);
	sc_output_release(&v.out);
	sc_pin_lock_release(&v.lock);
	sc_scanner_free(v.sc);
	if (v.error)
		return v.error;
	return v.any_failed ? SC_EXIT_NO : SC_EXIT_OK;
}

static int cmd_skills(const struct args *a)
{
	struct sc_output out;
	int ret;

	sc_output_init_records(&out, STDOUT_FILENO, a->force_records);
	ret = sc_skills_list(a->root, a->config, &out) < 0 ?
	      SC_EXIT_MALFORMED : SC_EXIT_OK;
	sc_output_release(&out);
	return ret;
}

int main(int argc, char *argv[])
{
	struct args a = { NULL, NULL, NULL, NULL, 0, 0, NULL, 0 };

	sc_diag_init(tool.name);
	parse(argc, argv, &a);
	if (!strcmp(a.cmd, "digest"))
		return cmd_digest(a.rest[0]);
	if (!strcmp(a.cmd, "pin"))
		return cmd_pin(&a);
	if (!strcmp(a.cmd, "skills"))
		return cmd_skills(&a);
	return cmd_verify(&a);
}
