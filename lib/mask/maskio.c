#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "config.h"
#include "diag.h"
#include "maskio.h"
#include "record.h"
#include "rectable.h"
#include "scan.h"
#include "secrets.h"

extern char **environ;

struct idle_ctx {
	struct sc_masker *m;
	struct sc_output *out;
	int fd;
};

/*
 * Before each read: when no input is ready (the read would block), the
 * input is idle, so release what is final and flush it.  When input is
 * ready (a file, a busy pipe) nothing is released early: the output then
 * does not depend on how the input was cut into reads.
 */
static void idle_flush(void *ctx)
{
	struct idle_ctx *ic = ctx;
	struct pollfd pfd = { ic->fd, POLLIN, 0 };

	if (poll(&pfd, 1, 0) == 1 && pfd.revents)
		return;
	(void)sc_masker_idle(ic->m, &ic->out->buf);
	(void)sc_output_flush(ic->out);
}

static int output_failed(void)
{
	sc_error_errno("WRITE-FAILED", "cannot write output");
	return SC_MASKIO_FAILED;
}

static int mask_fd(struct sc_masker *m, int fd, const char *shown,
		   struct sc_output *out)
{
	struct sc_input in;
	struct idle_ctx ic = { m, out, fd };
	long n;

	sc_input_init_fd(&in, fd);
	sc_input_set_idle(&in, idle_flush, &ic);
	while ((n = sc_input_fill(&in)) > 0) {
		if (sc_masker_feed(m, in.data + in.pos, (size_t)n, &out->buf) < 0)
			return SC_MASKIO_FAILED;
		in.pos = in.end;
		if (sc_output_unit_done(out) < 0)
			return output_failed();
	}
	if (n < 0) {
		sc_error_errno("READ-FAILED", "cannot read '%s'", shown);
		return SC_MASKIO_FAILED;
	}
	return SC_MASKIO_OK;
}

int sc_mask_files(struct sc_masker *m, char *const *paths, int npaths,
		  struct sc_output *out)
{
	int i, ret = SC_MASKIO_OK;

	if (!npaths)
		ret = mask_fd(m, STDIN_FILENO, "stdin", out);
	for (i = 0; i < npaths && ret == SC_MASKIO_OK; i++) {
		char shown[512];
		int fd;

		sc_sanitize(shown, sizeof(shown), paths[i], strlen(paths[i]));
		if (!strcmp(paths[i], "-")) {
			ret = mask_fd(m, STDIN_FILENO, "stdin", out);
			continue;
		}
		fd = open(paths[i], O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			sc_error_errno("INPUT", "cannot open '%s'", shown);
			ret = SC_MASKIO_NO_INPUT;
			break;
		}
		ret = mask_fd(m, fd, shown, out);
		close(fd);
	}
	/* Even after an error, what was read is released masked, never raw. */
	if (sc_masker_finish(m, &out->buf) < 0 && ret == SC_MASKIO_OK)
		ret = SC_MASKIO_FAILED;
	if (sc_output_flush(out) < 0)
		ret = output_failed();
	return ret;
}

/*
 * A copy of REC with its text fields masked, or with every field but the
 * type masked when ALL is set.
 */
static int mask_record(struct sc_masker *m, const struct sc_record *rec,
		       int all, struct sc_record *masked, struct sc_buf *tmp)
{
	size_t i;

	sc_record_reset(masked);
	for (i = 0; i < rec->nr; i++) {
		const struct sc_field *f = &rec->fields[i];

		if (all ? i == 0 : strcmp(f->name, "text") != 0) {
			sc_record_add(masked, f->name, f->value, f->value_len);
			continue;
		}
		sc_buf_reset(tmp);
		if (sc_masker_mask(m, f->value, f->value_len, tmp) < 0)
			return -1;
		sc_record_add(masked, f->name, tmp->data ? tmp->data : "",
			      tmp->len);
	}
	return 0;
}

int sc_mask_records(struct sc_masker *m, struct sc_input *in,
		    struct sc_output *out, int all_fields)
{
	struct sc_reader rd;
	struct sc_record rec, masked;
	struct sc_buf tmp = SC_BUF_INIT;
	int status, ret = SC_MASKIO_OK;

	sc_input_set_idle(in, sc_output_idle, out);
	sc_reader_init(&rd, in);
	sc_record_init(&rec);
	sc_record_init(&masked);
	while ((status = sc_reader_next(&rd, &rec)) == SC_READ_RECORD) {
		const char *type = sc_record_type(&rec);
		const struct sc_record *w = &rec;

		if (all_fields || (type && !strcmp(type, "text"))) {
			if (mask_record(m, &rec, all_fields, &masked, &tmp) < 0) {
				ret = SC_MASKIO_FAILED;
				break;
			}
			w = &masked;
		}
		if (sc_record_write(out, w) < 0)
			break;
	}
	/* The good records go out before the diagnostic about the bad one. */
	if (sc_output_flush(out) < 0)
		ret = output_failed();
	else if (ret == SC_MASKIO_OK && status < 0) {
		sc_reader_report(&rd, status);
		ret = status == SC_READ_IO ? SC_MASKIO_FAILED
					   : SC_MASKIO_MALFORMED;
	}
	sc_buf_wipe(&tmp);
	sc_buf_wipe(&rec.store);
	sc_record_release(&rec);
	sc_record_release(&masked);
	return ret;
}

/* ---- --check-diff ---- */

/*
 * The longest diff line read: a minified bundle can have long lines, but a
 * hostile diff must not grow the tool without bound.
 */
#define DIFF_LINE_MAX ((size_t)64 << 20)

struct diff_state {
	struct sc_buf file;       /* the new side's path */
	unsigned long new_line;   /* the line number of the next new line */
	unsigned long old_left, new_left;  /* lines left in the hunk */
	const struct sc_mask_set *set;
	unsigned char *hits;      /* per secret: found on this line */
	size_t nr_secrets;
	int found;
	int incomplete;           /* a binary file's content is not in it */
	/* The credential scan: one file's added lines, masked, and the new
	 * line number of each. */
	struct sc_scanner *sc;    /* NULL: no scan */
	struct sc_buf added;
	unsigned long *lines;
	size_t nr_lines, alloc_lines;
	struct sc_output *out;
};

/*
 * Added text held for the credential scan before it is scanned: a file's
 * added lines are scanned together (a key block spans lines), up to this.
 */
#define DIFF_SCAN_MAX ((size_t)16 << 20)

static void diff_credential(void *ctx, const struct sc_scan_finding *f)
{
	struct diff_state *ds = ctx;
	struct sc_scan_finding g = *f;
	struct sc_record rec;

	/* The finding's line in the held text, as the new file numbers it. */
	g.line = f->line && f->line <= ds->nr_lines ? ds->lines[f->line - 1] : 0;
	sc_record_init(&rec);
	sc_scan_finding_record(&rec, &g, ds->file.data ? ds->file.data : "");
	sc_record_write(ds->out, &rec);
	sc_record_release(&rec);
	ds->found |= !f->allowed;
}

/* Scan the added lines held, and let them go. -1 on a matcher error. */
static int scan_added(struct diff_state *ds)
{
	long n = 0;

	if (ds->sc && ds->added.len)
		n = sc_scan_buffer_ex(ds->sc, ds->added.data, ds->added.len,
				      diff_credential, ds);
	sc_buf_wipe(&ds->added);
	ds->nr_lines = 0;
	return n < 0 ? -1 : 0;
}

/*
 * An added line, masked (a known secret is its own finding, never a
 * second one), held for the credential scan of its file.
 */
static int hold_added(struct diff_state *ds, const struct sc_buf *masked)
{
	if (!ds->sc)
		return 0;
	if (ds->added.len + masked->len + 1 > DIFF_SCAN_MAX &&
	    scan_added(ds) < 0)
		return -1;
	sc_buf_add(&ds->added, masked->data ? masked->data : "", masked->len);
	sc_buf_addch(&ds->added, '\n');
	SC_ALLOC_GROW(ds->lines, ds->nr_lines + 1, ds->alloc_lines);
	ds->lines[ds->nr_lines++] = ds->new_line;
	return 0;
}

static void note_hit(void *ctx, size_t secret)
{
	struct diff_state *ds = ctx;

	if (secret < ds->nr_secrets)
		ds->hits[secret] = 1;
}

/*
 * "+++ b/path" (or a quoted path): the new file's name, "b/" removed, and
 * masked itself, since a finding must not print a secret through a path.
 */
static int set_file(struct sc_masker *m, struct diff_state *ds,
		    const char *p, size_t len)
{
	int ret;

	char *tab = memchr(p, '\t', len);

	if (tab)
		len = (size_t)(tab - p);
	if (len >= 2 && p[0] == '"' && p[len - 1] == '"') {
		p++;
		len -= 2;
	}
	if (len > 2 && !memcmp(p, "b/", 2)) {
		p += 2;
		len -= 2;
	}
	/* The previous file's added lines are scanned under its name. */
	if (scan_added(ds) < 0)
		return -1;
	sc_buf_reset(&ds->file);
	sc_masker_set_hit(m, NULL, NULL);  /* a path is no added line */
	ret = sc_masker_mask(m, p, len, &ds->file);
	sc_masker_set_hit(m, note_hit, ds);
	return ret;
}

/* "@@ -a[,b] +c[,d] @@": start a hunk. */
static void start_hunk(struct diff_state *ds, const char *line)
{
	unsigned long a, b = 1, c, d = 1;
	const char *p = line + 3;
	char *end;

	a = strtoul(p + 1, &end, 10);
	if (*end == ',')
		b = strtoul(end + 1, &end, 10);
	p = strchr(end, '+');
	if (!p)
		return;
	c = strtoul(p + 1, &end, 10);
	if (*end == ',')
		d = strtoul(end + 1, &end, 10);
	(void)a;
	ds->old_left = b;
	ds->new_left = d;
	ds->new_line = c;
}

static int report_line(struct diff_state *ds, struct sc_output *out)
{
	struct sc_record rec;
	char num[32];
	size_t i;

	sc_record_init(&rec);
	snprintf(num, sizeof(num), "%lu", ds->new_line);
	for (i = 0; i < ds->nr_secrets; i++) {
		if (!ds->hits[i])
			continue;
		ds->hits[i] = 0;
		ds->found = 1;
		sc_record_reset(&rec);
		sc_record_adds(&rec, "type", "finding");
		sc_record_adds(&rec, "code", "SECRET-IN-DIFF");
		sc_record_adds(&rec, "name", sc_mask_set_name(ds->set, i));
		sc_record_add(&rec, "file", ds->file.data ? ds->file.data : "",
			      ds->file.len);
		sc_record_adds(&rec, "line", num);
		if (sc_record_write(out, &rec) < 0)
			break;
	}
	sc_record_release(&rec);
	return out->failed ? -1 : 0;
}

/*
 * "Binary files a/X and b/Y differ" or a "GIT binary patch": the new
 * content is not in the diff, so it cannot be checked.  Not a finding and
 * never a pass: error[SCAN-INCOMPLETE] names the file (masked), and the
 * diff fails after the rest was checked.  (git diff --text shows such a
 * file's lines, which are then checked like any other.)
 */
static int binary_file(struct sc_masker *m, struct diff_state *ds,
		       const char *p, size_t len)
{
	struct sc_buf name = SC_BUF_INIT;
	const char *and = memmem(p, len, " and ", 5);
	char shown[512];
	int ret = 0;

	if (and && len > 7 && !memcmp(p + len - 7, " differ", 7)) {
		const char *b = and + 5;
		size_t n = (size_t)(p + len - 7 - b);

		if (n > 2 && !memcmp(b, "b/", 2)) {
			b += 2;
			n -= 2;
		}
		sc_masker_set_hit(m, NULL, NULL);  /* a path is no added line */
		ret = sc_masker_mask(m, b, n, &name);
		sc_masker_set_hit(m, note_hit, ds);
	} else if (ds->file.len) {
		sc_buf_add(&name, ds->file.data, ds->file.len);
	} else {
		sc_buf_adds(&name, "a binary file");
	}
	sc_sanitize(shown, sizeof(shown), name.data ? name.data : "", name.len);
	sc_error("SCAN-INCOMPLETE", "'%s' is binary in the diff: its content "
		 "is not there to check", shown);
	ds->incomplete = 1;
	sc_buf_wipe(&name);
	return ret;
}

/* One line of the diff: headers set the file and the hunk, '+' lines are checked. */
static int diff_line(struct sc_masker *m, struct diff_state *ds,
		     const struct sc_buf *line, struct sc_buf *sink,
		     struct sc_output *out)
{
	const char *p = line->data ? line->data : "";
	size_t len = line->len;

	if (ds->old_left || ds->new_left) {
		if (len && p[0] == '+') {
			sc_buf_reset(sink);
			if (sc_masker_mask(m, p + 1, len - 1, sink) < 0)
				return -1;
			if (report_line(ds, out) < 0 || hold_added(ds, sink) < 0)
				return -1;
			ds->new_left -= !!ds->new_left;
			ds->new_line++;
		} else if (len && p[0] == '-') {
			ds->old_left -= !!ds->old_left;
		} else if (len && p[0] == '\\') {
			/* "\ No newline at end of file" */
		} else {
			ds->old_left -= !!ds->old_left;
			ds->new_left -= !!ds->new_left;
			ds->new_line++;
		}
		return 0;
	}
	if (len >= 4 && !memcmp(p, "+++ ", 4))
		return set_file(m, ds, p + 4, len - 4);
	else if (len >= 4 && !memcmp(p, "@@ -", 4))
		start_hunk(ds, p);
	else if ((len >= 13 && !memcmp(p, "Binary files ", 13)) ||
		 (len >= 16 && !memcmp(p, "GIT binary patch", 16)))
		return binary_file(m, ds, p, len);
	return 0;
}

int sc_mask_check_diff(struct sc_masker *m, struct sc_scanner *sc,
		       struct sc_input *in, struct sc_output *out)
{
	const struct sc_mask_set *set = sc_masker_get_set(m);
	struct diff_state ds = { SC_BUF_INIT, 0, 0, 0, set, NULL, 0, 0, 0,
				 sc, SC_BUF_INIT, NULL, 0, 0, out };
	struct sc_buf line = SC_BUF_INIT, sink = SC_BUF_INIT;
	int got, ret = SC_MASKIO_OK;

	ds.nr_secrets = sc_mask_set_secrets(set);
	ds.hits = sc_xcalloc(ds.nr_secrets + 1, 1);
	sc_masker_set_hit(m, note_hit, &ds);
	sc_input_set_idle(in, sc_output_idle, out);
	while ((got = sc_input_read_line(in, &line, DIFF_LINE_MAX)) > 0) {
		if (diff_line(m, &ds, &line, &sink, out) < 0) {
			ret = out->failed ? output_failed() : SC_MASKIO_FAILED;
			break;
		}
	}
	if (got == -1) {
		sc_error_errno("READ-FAILED", "cannot read the diff");
		ret = SC_MASKIO_FAILED;
	} else if (got == -2) {
		sc_error("LINE-TOO-LONG", "a diff line is longer than %zu bytes",
			 DIFF_LINE_MAX);
		ret = SC_MASKIO_MALFORMED;
	}
	sc_masker_set_hit(m, NULL, NULL);
	/* The last file's added lines. */
	if (ret == SC_MASKIO_OK && scan_added(&ds) < 0)
		ret = SC_MASKIO_FAILED;
	if (sc_output_flush(out) < 0)
		ret = output_failed();
	if (ret == SC_MASKIO_OK && ds.incomplete)
		ret = SC_MASKIO_INCOMPLETE;
	else if (ret == SC_MASKIO_OK && ds.found)
		ret = SC_MASKIO_FOUND;
	sc_buf_wipe(&line);
	sc_buf_wipe(&sink);
	sc_buf_release(&ds.file);
	sc_buf_wipe(&ds.added);
	free(ds.lines);
	free(ds.hits);
	return ret;
}

/* ---- sc-mask ---- */

static int maskio_exit(int status)
{
	switch (status) {
	case SC_MASKIO_OK:
		return SC_EXIT_OK;
	case SC_MASKIO_FOUND:
		return SC_EXIT_NO;
	case SC_MASKIO_NO_INPUT:
		return SC_EXIT_USAGE;
	case SC_MASKIO_MALFORMED:
		return SC_EXIT_MALFORMED;
	case SC_MASKIO_INCOMPLETE:
		return SC_EXIT_UNAVAILABLE;
	default:
		return SC_EXIT_INTERNAL;
	}
}

static int scan_exit(int status)
{
	switch (status) {
	case SC_SCAN_CLEAN:
		return SC_EXIT_OK;
	case SC_SCAN_FOUND:
		return SC_EXIT_NO;
	case SC_SCAN_NO_PATH:
		return SC_EXIT_USAGE;
	case SC_SCAN_INCOMPLETE:
		return SC_EXIT_UNAVAILABLE;
	default:
		return SC_EXIT_INTERNAL;
	}
}

/* Read one source; -1 when it cannot be read (already reported). */
static int add_source(struct sc_secrets *s, const struct sc_mask_source *src)
{
	switch (src->kind) {
	case SC_MASK_SRC_ENV:
		sc_secrets_from_environ(s, environ);
		return 0;
	case SC_MASK_SRC_VAR:
		return sc_secrets_from_var(s, src->arg);
	case SC_MASK_SRC_DOTENV:
		return sc_secrets_from_dotenv(s, src->arg);
	case SC_MASK_SRC_KEY_FILE:
		return sc_secrets_from_key_file(s, src->arg);
	case SC_MASK_SRC_FILE:
		return sc_secrets_from_file(s, src->arg);
	default:
		return sc_secrets_from_records(s, src->arg);
	}
}

/*
 * The credential rules of --scan and --check-diff, with the fingerprints
 * of --allow-fingerprint and --config's mask.allowFingerprint allowed.
 */
static struct sc_scanner *scanner(const struct sc_mask_opts *o, int *cst)
{
	return sc_scanner_new_allowing(o->config, o->allow, o->nr_allow, cst);
}

/* The exit status when sc_scanner_new_allowing() failed with CST. */
static int scanner_exit(int cst)
{
	if (cst == SC_CONFIG_OK)
		return SC_EXIT_INTERNAL;
	return cst == SC_CONFIG_BAD ? SC_EXIT_MALFORMED : SC_EXIT_UNAVAILABLE;
}

/* --scan needs no secret: it looks for the shape of credentials. */
static int scan_run(const struct sc_mask_opts *o)
{
	struct sc_scanner *sc;
	struct sc_output out;
	int ret;

	if (!(sc = scanner(o, &ret)))
		return scanner_exit(ret);
	sc_output_init_records(&out, STDOUT_FILENO, o->force_records);
	ret = scan_exit(sc_scan_paths(sc, o->paths, o->npaths, &out));
	sc_output_release(&out);
	sc_scanner_free(sc);
	return ret;
}

static int mask_run(const struct sc_mask_opts *o, struct sc_masker *m,
		    struct sc_scanner *sc)
{
	struct sc_output out;
	struct sc_input in;
	int ret;

	/* Masked text stays text; records are a table for a person. */
	sc_output_init_records(&out, STDOUT_FILENO,
			       o->force_records || o->mode != SC_MASK_FILES);
	sc_input_init_fd(&in, STDIN_FILENO);
	if (o->mode == SC_MASK_RECORDS)
		ret = sc_mask_records(m, &in, &out, o->all_fields);
	else if (o->mode == SC_MASK_DIFF)
		ret = sc_mask_check_diff(m, sc, &in, &out);
	else
		ret = sc_mask_files(m, o->paths, o->npaths, &out);
	sc_output_release(&out);
	return maskio_exit(ret);
}

int sc_mask_run(const struct sc_mask_opts *o)
{
	struct sc_secrets secrets;
	struct sc_mask_set *set = NULL;
	struct sc_masker *m = NULL;
	struct sc_scanner *sc = NULL;
	int failed = 0, ret;
	size_t i;

	if (o->mode == SC_MASK_SCAN)
		return scan_run(o);
	sc_secrets_init(&secrets);
	/* Read every source, so each bad one is reported at once. */
	for (i = 0; i < o->nr_sources; i++)
		if (add_source(&secrets, &o->sources[i]) < 0)
			failed = 1;
	if (o->stdin_name && sc_secrets_from_fd(&secrets, o->stdin_name,
						STDIN_FILENO) < 0)
		failed = 1;
	/* A partial secret list is worse than none: refuse, output nothing. */
	if (failed) {
		sc_secrets_release(&secrets);
		return SC_EXIT_USAGE;
	}
	/* --check-diff also looks for credentials no source names. */
	if (o->mode == SC_MASK_DIFF && !(sc = scanner(o, &ret))) {
		sc_secrets_release(&secrets);
		return scanner_exit(ret);
	}
	set = sc_mask_set_build(&secrets, 1);
	sc_secrets_release(&secrets);
	if (set)
		m = sc_masker_new(set);
	ret = m ? mask_run(o, m, sc) : SC_EXIT_INTERNAL;
	sc_masker_free(m);
	sc_mask_set_free(set);
	sc_scanner_free(sc);
	return ret;
}
