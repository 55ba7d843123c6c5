/*
 * sc-pin(1)'s commands: each checks, scans, pins or verifies and writes
 * its records; the lock and the digest are lib/attest/pin.c.
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
#include "pin.h"
#include "pintool.h"
#include "record.h"
#include "rectable.h"
#include "scan.h"
#include "skills.h"

/* The exit status when sc_scanner_new_allowing() failed with CST. */
/*
 * How a command's steps end; pin_exit() makes the exit status of it.
 * PIN_REFUSED is a person's mistake the command line could not show (a
 * path that is no skill, an id no run would load).
 */
enum pin_status {
	PIN_OK = 0,
	PIN_NO = 1,              /* a scan hit, a package not verified */
	PIN_FAILED = -1,         /* a system call, the matcher, a write */
	PIN_MALFORMED = -2,      /* the lock, the package or a record */
	PIN_REFUSED = -3,
};

static int pin_exit(int st)
{
	switch (st) {
	case PIN_OK:
		return SC_EXIT_OK;
	case PIN_NO:
		return SC_EXIT_NO;
	case PIN_MALFORMED:
		return SC_EXIT_MALFORMED;
	case PIN_REFUSED:
		return SC_EXIT_USAGE;
	default:
		return SC_EXIT_INTERNAL;
	}
}

static int scanner_exit(int cst)
{
	if (cst == SC_CONFIG_OK)
		return SC_EXIT_INTERNAL;
	return cst == SC_CONFIG_BAD ? SC_EXIT_MALFORMED : SC_EXIT_UNAVAILABLE;
}

static int flush(struct sc_output *out)
{
	if (sc_output_flush(out) < 0)
		return sc_error_errno("WRITE-FAILED", "cannot write output");
	return 0;
}

int sc_pin_digest_run(const char *path)
{
	struct sc_scanner *sc = NULL;  /* made only to hide names in errors */
	struct sc_pin_tree t;
	char digest[SC_PIN_DIGEST_LEN + 1];
	int ret = PIN_MALFORMED;

	sc_pin_tree_init(&t);
	if (sc_pin_tree_load(&t, path, &sc) == 0)
		ret = sc_pin_tree_digest(&t, digest) < 0 ||
		      printf("%s\n", digest) < 0 || fflush(stdout) ?
		      PIN_FAILED : PIN_OK;
	sc_pin_tree_release(&t);
	sc_scanner_free(sc);
	return pin_exit(ret);
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
	int ret = PIN_MALFORMED;

	sc_pin_lock_init(&lock);
	sc_buf_addf(&key, "%s@%s", id, version);
	if (lock_for_pin(&lock, lockpath) == 0) {
		sc_pin_lock_set(&lock, key.data, digest);
		sc_pin_lock_format(&lock, &text);
		ret = sc_pin_write_file(lockpath, text.data, text.len) < 0 ?
		      PIN_FAILED : PIN_OK;
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
	return flush(out) < 0 ? PIN_FAILED : PIN_OK;
}

static int pin_tree(const struct sc_pin_opts *o, const char *id, const char *version,
		    const char *path, struct sc_scanner *sc,
		    struct sc_output *out)
{
	struct sc_pin_findings f = { NULL, 0, 0, 0 };
	char digest[SC_PIN_DIGEST_LEN + 1];
	struct sc_pin_tree t;
	int ret = PIN_MALFORMED;

	sc_pin_tree_init(&t);
	if (sc_pin_tree_load(&t, path, &sc) < 0)
		goto out;
	if (sc_pin_tree_scan(&t, sc, &f) < 0) {
		ret = PIN_FAILED;
	} else if (f.failing) {
		/* Scan before pin: a package holding a credential is never
		 * trusted, so it is never pinned. */
		write_findings(&f, out);
		flush(out);
		sc_error("SCAN-HIT", "the package holds %zu credential "
			 "finding(s): nothing pinned", f.failing);
		ret = PIN_NO;
	} else if (sc_pin_tree_digest(&t, digest) < 0) {
		ret = PIN_FAILED;
	} else {
		/* The findings allowed by fingerprint, said before the pin. */
		write_findings(&f, out);
		ret = write_pin(o->lock, id, version, digest);
		if (ret == PIN_OK)
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
 * PIN_OK with ID and VERSION set, or a pin_status after an error.
 */
static int skill_id(const struct sc_pin_opts *o, const char *path,
		    struct sc_buf *id, struct sc_buf *version,
		    struct sc_scanner *sc)
{
	struct sc_buf shown = SC_BUF_INIT, given = SC_BUF_INIT;
	struct sc_buf where = SC_BUF_INIT;
	char *want_id, *want_version;
	int st = sc_skills_at(o->root, o->config, path, &want_id,
			      &want_version);

	if (st < 0)
		return PIN_MALFORMED;
	sc_scan_show_path(sc, path, &where);
	if (st > 0) {
		sc_buf_release(&where);
		sc_error("NOT-A-SKILL", "no skill a run loads is at '%s': a "
			 "repository skill is a folder with SKILL.md under "
			 ".claude/skills/, .agents/skills/ or .codex/skills/; "
			 "any other is a [skill \"ID\"] of speccoder.conf",
			 where.data);
		return PIN_REFUSED;
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
		st = PIN_REFUSED;
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

int sc_pin_pin_run(const struct sc_pin_opts *o)
{
	struct sc_buf id = SC_BUF_INIT, version = SC_BUF_INIT;
	const char *path = o->rest[o->nrest - 1];
	struct sc_scanner *sc;
	struct sc_output out;
	int ret = PIN_OK;

	/* The main checked its form. */
	if (o->nrest == 2 && sc_pin_split(o->rest[0], &id, &version) < 0)
		return SC_EXIT_USAGE;
	/* The rules, with the fingerprints --config allows. */
	if (!(sc = sc_scanner_new_allowing(o->config, NULL, 0, &ret)))
		return scanner_exit(ret);
	if (o->root)
		ret = skill_id(o, path, &id, &version, sc);
	sc_output_init_records(&out, STDOUT_FILENO, o->force_records);
	if (ret == PIN_OK)
		ret = pin_tree(o, id.data, version.data, path, sc, &out);
	sc_output_release(&out);
	sc_scanner_free(sc);
	sc_buf_release(&id);
	sc_buf_release(&version);
	return pin_exit(ret);
}

/* ---- verify ---- */

struct verify {
	struct sc_scanner *sc;
	struct sc_pin_lock lock;
	struct sc_output out;
	struct sc_pin_result res;
	int any_failed;   /* a required package is not verified */
	int error;        /* a pin_status: PIN_FAILED, MALFORMED, REFUSED */
};

static const char *const status_names[] = { "verified", "unverified",
	"scan-hit" };

static void verify_one(struct verify *v, const char *id, const char *version,
		       const char *path, int required)
{
	struct sc_buf shown = SC_BUF_INIT;
	struct sc_record rec;

	if (sc_pin_check(v->sc, &v->lock, id, version, path, &v->res) < 0) {
		v->error = PIN_FAILED;
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
		v->error = PIN_FAILED;
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
	/* The main checked its form. */
	if (!eq || !eq[1] || sc_pin_split(spec.data, &id, &ver) < 0)
		v->error = PIN_REFUSED;
	else
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
	    !sc_skill_valid_id(id, strlen(id)) ||
	    !sc_skill_valid_version(ver, strlen(ver)) ||
	    (req && strcmp(req, "true") && strcmp(req, "false"))) {
		sc_error("BAD-PACKAGE", "a type=package record needs a valid "
			 "id, version and path, and required true or false");
		v->error = PIN_MALFORMED;
		return;
	}
	verify_one(v, id, ver, path, !req || !strcmp(req, "true"));
}

static void verify_records(struct verify *v)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record rec;
	int st = SC_READ_EOF;

	sc_input_init_fd(&in, STDIN_FILENO);
	sc_input_set_idle(&in, sc_output_idle, &v->out);
	sc_reader_init(&rd, &in);
	sc_record_init(&rec);
	while (!v->error && (st = sc_reader_next(&rd, &rec)) == SC_READ_RECORD)
		verify_record(v, &rec);
	if (!v->error && st < 0) {
		sc_reader_report(&rd, st);
		v->error = st == SC_READ_IO ? PIN_FAILED
					    : PIN_MALFORMED;
	}
	sc_record_release(&rec);
}

int sc_pin_verify_run(const struct sc_pin_opts *o)
{
	struct verify v;
	size_t i;
	int cst;

	memset(&v, 0, sizeof(v));
	if (!(v.sc = sc_scanner_new_allowing(o->config, NULL, 0, &cst)))
		return scanner_exit(cst);
	sc_pin_lock_init(&v.lock);
	sc_output_init_records(&v.out, STDOUT_FILENO, o->force_records);
	sc_pin_result_init(&v.res);
	/* Read once; a lock that is missing or bad leaves every package
	 * unverified, and each says why. */
	sc_pin_lock_read(&v.lock, o->lock);
	for (i = 0; i < o->nrest && !v.error; i++)
		verify_arg(&v, o->rest[i]);
	if (o->records && !v.error)
		verify_records(&v);
	if (flush(&v.out) < 0 && !v.error)
		v.error = PIN_FAILED;
	sc_pin_result_release(&v.res);
	sc_output_release(&v.out);
	sc_pin_lock_release(&v.lock);
	sc_scanner_free(v.sc);
	if (v.error)
		return pin_exit(v.error);
	return v.any_failed ? SC_EXIT_NO : SC_EXIT_OK;
}

int sc_pin_skills_run(const struct sc_pin_opts *o)
{
	struct sc_output out;
	int ret;

	sc_output_init_records(&out, STDOUT_FILENO, o->force_records);
	ret = sc_skills_list(o->root, o->config, &out) < 0 ?
	      SC_EXIT_MALFORMED : SC_EXIT_OK;
	sc_output_release(&out);
	return ret;
}

