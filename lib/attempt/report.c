/*
 * The attempt's HTML page (report.h).  One pass over the journal fills a
 * buffer per section; the page is assembled at the end, because the
 * summary and the list of what is missing come first but are known last.
 */
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "attest.h"
#include "buf.h"
#include "diag.h"
#include "encode.h"
#include "gitopen.h"
#include "html.h"
#include "record.h"
#include "report.h"
#include "usage.h"

/* The page's only style; the CSP names its digest, so no other style (an
 * injected one included) applies. */
static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222}"
	"h1{font-size:1.4em}h2{border-bottom:1px solid #ccc;margin-top:1.5em}"
	"table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 6px;"
	"vertical-align:top;text-align:left}"
	"pre{white-space:pre-wrap;word-break:break-all;margin:2px 0;font:12px/1.3 monospace}"
	".ctl{background:#fde;color:#a00;font-family:monospace}"
	"tr.deny{background:#fdd}tr.ask{background:#ffc}"
	".f{margin-right:1em}.f b{color:#555;font-weight:normal}"
	"#missing{background:#fee;border:1px solid #c00;padding:.5em}"
	".add{color:#060}.del{color:#a00}.hunk{color:#05a}.fh{font-weight:bold}"
	".tick{border:1px solid #ccc;padding:.5em;margin:.5em 0}";

enum { S_FEATURE, S_COMMAND, S_MODE, S_TIER, S_PROVIDER, S_MODEL,
       S_RESULT, S_CODE, S_HELDOUT, S_START, S_END, S_NR };

static const char *const summary_names[S_NR] = {
	"feature", "command", "mode", "sandbox tier", "provider", "model",
	"result", "code", "held-out", "started", "ended",
};

struct report {
	struct sc_buf missing, timeline, checks, ticks, findings;
	struct sc_buf str[S_NR];
	const char *repo_dir;
	git_repository *repo;
	int repo_tried, have_end;
	unsigned long runs;
	unsigned long records, tasks, nticks, calls, allow, ask, deny,
		approvals, nfindings, checks_pass, checks_fail, omitted;
	struct sc_usage usage;  /* summed as the text view sums it */
};

static void report_init(struct report *r, const char *repo_dir)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	sc_buf_init(&r->missing);
	sc_buf_init(&r->timeline);
	sc_buf_init(&r->checks);
	sc_buf_init(&r->ticks);
	sc_buf_init(&r->findings);
	for (i = 0; i < S_NR; i++)
		sc_buf_init(&r->str[i]);
	r->repo_dir = repo_dir;
}

static void report_release(struct report *r)
{
	size_t i;

	sc_buf_release(&r->missing);
	sc_buf_release(&r->timeline);
	sc_buf_release(&r->checks);
	sc_buf_release(&r->ticks);
	sc_buf_release(&r->findings);
	for (i = 0; i < S_NR; i++)
		sc_buf_release(&r->str[i]);
	git_repository_free(r->repo);
}

/* Say on the page that something is missing; TEXT is escaped. */
static void missing(struct report *r, const char *text)
{
	sc_buf_adds(&r->missing, "<li>");
	sc_html_texts(&r->missing, text);
	sc_buf_adds(&r->missing, "</li>\n");
}

/* A field's value, escaped, at most SC_REPORT_VALUE_MAX bytes of it. */
static void value(struct sc_buf *out, const char *v, size_t len)
{
	size_t n = len;

	if (n > SC_REPORT_VALUE_MAX) {
		n = SC_REPORT_VALUE_MAX;
		/* Cut before a character, never inside one. */
		while (n > SC_REPORT_VALUE_MAX - 3 &&
		       ((unsigned char)v[n] & 0xC0) == 0x80)
			n--;
	}
	sc_html_text(out, v, n);
	if (n < len)
		sc_buf_addf(out, "<span class=\"ctl\">[%zu bytes more not shown]</span>",
			    len - n);
}

static const char *field(const struct sc_record *rec, const char *name)
{
	const char *v = sc_record_str(rec, name);

	return v ? v : "";
}

/* The value of NAME, escaped and capped, or "-" when absent. */
static void fvalue(struct sc_buf *out, const struct sc_record *rec,
		   const char *name)
{
	const struct sc_field *f = sc_record_get(rec, name);

	if (f)
		value(out, f->value, f->value_len);
	else
		sc_buf_adds(out, "-");
}

/* Close the open cell, then one cell per name in NAMES, and the row. */
static void cells(struct sc_buf *out, const struct sc_record *rec,
		  const char *const *names)
{
	for (; *names; names++) {
		sc_buf_adds(out, "</td><td>");
		fvalue(out, rec, *names);
	}
	sc_buf_adds(out, "</td></tr>\n");
}

static void set_str(struct sc_buf *b, const struct sc_record *rec,
		    const char *name)
{
	const struct sc_field *f = sc_record_get(rec, name);

	if (!f)
		return;
	sc_buf_reset(b);
	sc_buf_add(b, f->value, f->value_len < 256 ? f->value_len : 256);
}

/* The row's class: denials and asks stand out.  Fixed words only: no
 * journal byte ever reaches an attribute. */
static const char *row_class(const char *type, const struct sc_record *rec)
{
	const char *d = field(rec, "decision"), *a = field(rec, "answer");

	if (!strcmp(d, "deny") || !strcmp(type, "denied") ||
	    !strcmp(type, "finding") || !strcmp(type, "stop") ||
	    (!strcmp(type, "approval") && (!strcmp(a, "no") || !strcmp(a, "stop"))))
		return "deny";
	if (!strcmp(d, "ask") || !strcmp(type, "approval"))
		return "ask";
	return "ev";
}

static void timeline_row(struct report *r, const struct sc_record *rec,
			 const char *type)
{
	struct sc_buf *t = &r->timeline;
	size_t i;

	if (t->len > SC_REPORT_TIMELINE_MAX) {
		r->omitted++;
		return;
	}
	sc_buf_addf(t, "<tr class=\"%s\"><td>", row_class(type, rec));
	fvalue(t, rec, "time");
	sc_buf_adds(t, "</td><td>");
	value(t, type, strlen(type));
	sc_buf_adds(t, "</td><td>");
	for (i = 1; i < rec->nr; i++) {
		const struct sc_field *f = &rec->fields[i];

		if (!strcmp(f->name, "time"))
			continue;
		if (!strcmp(f->name, "text")) {
			sc_buf_adds(t, "<pre>");
			value(t, f->value, f->value_len);
			sc_buf_adds(t, "</pre>");
			continue;
		}
		sc_buf_adds(t, "<span class=\"f\"><b>");
		sc_html_text(t, f->name, f->name_len);
		sc_buf_adds(t, "</b> ");
		value(t, f->value, f->value_len);
		sc_buf_adds(t, "</span> ");
	}
	sc_buf_adds(t, "</td></tr>\n");
}

static void check_row(struct report *r, const struct sc_record *rec,
		      const char *type)
{
	struct sc_buf *c = &r->checks;
	int held = !strcmp(type, "held-out");
	const char *outcome = held ? field(rec, "result") : field(rec, "outcome");
	int pass = !strcmp(outcome, "pass") || !strcmp(outcome, "PASSED");
	size_t i;

	if (held)
		set_str(&r->str[S_HELDOUT], rec, "result");
	if (pass)
		r->checks_pass++;
	else
		r->checks_fail++;
	sc_buf_addf(c, "<tr class=\"%s\"><td>", pass ? "ev" : "deny");
	if (held)
		sc_buf_adds(c, "held-out tests");
	else
		fvalue(c, rec, "name");
	sc_buf_adds(c, "</td><td>");
	for (i = 1; i < rec->nr; i++)
		if (!strcmp(rec->fields[i].name, "argv")) {
			value(c, rec->fields[i].value, rec->fields[i].value_len);
			sc_buf_addch(c, ' ');
		}
	sc_buf_adds(c, "</td><td>");
	value(c, outcome, strlen(outcome));
	cells(c, rec, (const char *const[]){ "status", "duration",
					     "output-sha256", NULL });
}

static void finding_row(struct report *r, const struct sc_record *rec,
			const char *type)
{
	struct sc_buf *f = &r->findings;

	r->nfindings++;
	sc_buf_adds(f, "<tr class=\"deny\"><td>");
	value(f, type, strlen(type));
	cells(f, rec, (const char *const[]){ "code", "phase", "path",
		sc_record_get(rec, "change") ? "change" : "reason", NULL });
}

/* ---- ticks: commit, diff, attestation, from git objects ---- */

struct diff_state {
	struct sc_buf *out;
	size_t lines;
};

static int diff_line(const git_diff_delta *delta, const git_diff_hunk *hunk,
		     const git_diff_line *line, void *payload)
{
	struct diff_state *d = payload;
	const char *cls = "ctx";
	char origin[2] = { line->origin, 0 };

	(void)delta;
	(void)hunk;
	if (d->lines >= SC_REPORT_DIFF_LINES)
		return 1;  /* stop: the page says how many were left out */
	d->lines++;
	switch (line->origin) {
	case GIT_DIFF_LINE_ADDITION: cls = "add"; break;
	case GIT_DIFF_LINE_DELETION: cls = "del"; break;
	case GIT_DIFF_LINE_HUNK_HDR: cls = "hunk"; origin[0] = 0; break;
	case GIT_DIFF_LINE_FILE_HDR: cls = "fh"; origin[0] = 0; break;
	case GIT_DIFF_LINE_CONTEXT: break;
	default: origin[0] = 0; break;
	}
	sc_buf_addf(d->out, "<span class=\"%s\">%s", cls, origin);
	value(d->out, line->content, line->content_len);
	sc_buf_adds(d->out, "</span>");
	return 0;
}

static void tick_diff(struct report *r, git_commit *commit)
{
	git_tree *tree = NULL, *ptree = NULL;
	git_commit *parent = NULL;
	git_diff *diff = NULL;
	git_diff_stats *stats = NULL;
	struct sc_buf body = SC_BUF_INIT;
	struct diff_state d = { &body, 0 };
	size_t total = 0;

	if (git_commit_tree(&tree, commit) ||
	    (git_commit_parentcount(commit) &&
	     (git_commit_parent(&parent, commit, 0) ||
	      git_commit_tree(&ptree, parent))) ||
	    git_diff_tree_to_tree(&diff, r->repo, ptree, tree, NULL)) {
		sc_buf_adds(&r->ticks, "<p>the diff cannot be read from the repository</p>\n");
		missing(r, "a tick's diff cannot be read from the repository");
		goto out;
	}
	if (!git_diff_get_stats(&stats, diff)) {
		total = git_diff_stats_insertions(stats) +
			git_diff_stats_deletions(stats);
		sc_buf_addf(&r->ticks, "<p>%zu file%s changed, +%zu &minus;%zu</p>\n",
			    git_diff_stats_files_changed(stats),
			    git_diff_stats_files_changed(stats) == 1 ? "" : "s",
			    git_diff_stats_insertions(stats),
			    git_diff_stats_deletions(stats));
	}
	git_diff_print(diff, GIT_DIFF_FORMAT_PATCH, diff_line, &d);
	sc_buf_addf(&r->ticks, "<details%s><summary>diff</summary><pre>",
		    total <= SC_REPORT_DIFF_OPEN ? " open" : "");
	sc_buf_add(&r->ticks, body.data ? body.data : "", body.len);
	sc_buf_adds(&r->ticks, "</pre>");
	if (d.lines >= SC_REPORT_DIFF_LINES)
		sc_buf_addf(&r->ticks, "<p class=\"ctl\">the diff is longer: only its first %d lines are shown</p>",
			    SC_REPORT_DIFF_LINES);
	sc_buf_adds(&r->ticks, "</details>\n");
out:
	git_diff_stats_free(stats);
	git_diff_free(diff);
	git_tree_free(tree);
	git_tree_free(ptree);
	git_commit_free(parent);
	sc_buf_release(&body);
}

/* The commit's attestation as sc-attest show reads it: envelopes, their
 * signers and whether each signature is valid. */
static void tick_attestation(struct report *r, const git_oid *id)
{
	struct sc_output show;

	sc_output_init(&show, -1);  /* collected, never written */
	switch (sc_attest_show(r->repo, id, &show)) {
	case SC_ATTEST_SHOWN:
		sc_buf_adds(&r->ticks, "<details><summary>attestation</summary><pre>");
		value(&r->ticks, show.buf.data ? show.buf.data : "",
		      show.buf.len);
		sc_buf_adds(&r->ticks, "</pre></details>\n");
		break;
	case SC_ATTEST_NO_NOTE:
		sc_buf_adds(&r->ticks, "<p>attestation: <b>none</b> (no note in " SC_ATTEST_NOTES_REF ")</p>\n");
		break;
	case SC_ATTEST_UNREADABLE:
		sc_buf_adds(&r->ticks, "<p class=\"ctl\">the attestation cannot be read (error above)</p>\n");
		missing(r, "a tick's attestation cannot be read from " SC_ATTEST_NOTES_REF);
		break;
	}
	sc_output_release(&show);
}

static int open_repo(struct report *r)
{
	if (!r->repo_tried) {
		r->repo_tried = 1;
		if (!r->repo_dir)
			missing(r, "no repository was given: the ticks' diffs and attestations are not shown");
		else if (sc_gitopen(&r->repo, r->repo_dir))
			missing(r, "the repository cannot be opened: the ticks' diffs and attestations are not shown");
	}
	return r->repo ? 0 : -1;
}

static void tick(struct report *r, const struct sc_record *rec)
{
	const char *hex = field(rec, "commit");
	git_commit *commit = NULL;
	git_oid id;

	r->nticks++;
	sc_buf_adds(&r->ticks, "<div class=\"tick\"><h3>task ");
	fvalue(&r->ticks, rec, "task");
	sc_buf_adds(&r->ticks, " &mdash; commit <code>");
	fvalue(&r->ticks, rec, "commit");
	sc_buf_adds(&r->ticks, "</code></h3>\n<p>signed when ticked: ");
	fvalue(&r->ticks, rec, "signed");
	sc_buf_adds(&r->ticks, "</p>\n");
	if (open_repo(r))
		goto out;
	if (strlen(hex) != GIT_OID_HEXSZ || git_oid_fromstr(&id, hex) ||
	    git_commit_lookup(&commit, r->repo, &id)) {
		sc_buf_adds(&r->ticks, "<p class=\"ctl\">this commit is not in the repository (its branch deleted?)</p>\n");
		missing(r, "a tick's commit is not in the repository (its branch deleted?)");
		goto out;
	}
	tick_diff(r, commit);
	tick_attestation(r, &id);
out:
	git_commit_free(commit);
	sc_buf_adds(&r->ticks, "</div>\n");
}

/* ---- the pass over the journal ---- */

static void count(struct report *r, const struct sc_record *rec,
		  const char *type)
{
	const char *d;

	if (!r->records++ || !r->str[S_START].len)
		set_str(&r->str[S_START], rec, "time");
	set_str(&r->str[S_END], rec, "time");
	if (!strcmp(type, "run") && !r->runs++) {
		/* The attempt's own; a check it ran journals a run of its own. */
		set_str(&r->str[S_FEATURE], rec, "feature");
		set_str(&r->str[S_COMMAND], rec, "command");
		set_str(&r->str[S_MODE], rec, "mode");
		set_str(&r->str[S_TIER], rec, "tier");
		set_str(&r->str[S_PROVIDER], rec, "provider");
	} else if (!strcmp(type, "task-start")) {
		r->tasks++;
	} else if (!strcmp(type, "call")) {
		r->calls++;
	} else if (!strcmp(type, "verdict")) {
		d = field(rec, "decision");
		r->allow += !strcmp(d, "allow");
		r->ask += !strcmp(d, "ask");
		r->deny += !strcmp(d, "deny");
	} else if (!strcmp(type, "approval")) {
		r->approvals++;
	} else if (sc_usage_add(&r->usage, rec)) {
		set_str(&r->str[S_MODEL], rec, "model");
	} else if (!strcmp(type, "end")) {
		r->have_end = 1;
		set_str(&r->str[S_RESULT], rec, "result");
		set_str(&r->str[S_CODE], rec, "code");
	}
}

static void one_record(struct report *r, const struct sc_record *rec)
{
	const char *type = sc_record_type(rec);

	if (!type)
		type = "";
	count(r, rec, type);
	timeline_row(r, rec, type);
	if (!strcmp(type, "evidence") || !strcmp(type, "held-out"))
		check_row(r, rec, type);
	else if (!strcmp(type, "tick"))
		tick(r, rec);
	else if (!strcmp(type, "finding") || !strcmp(type, "denied") ||
		 !strcmp(type, "stop"))
		finding_row(r, rec, type);
}

static void read_journal(struct report *r, struct sc_input *in)
{
	struct sc_reader rd;
	struct sc_record rec;
	struct sc_buf why = SC_BUF_INIT;
	int st;

	sc_reader_init(&rd, in);
	sc_record_init(&rec);
	while ((st = sc_reader_next(&rd, &rec)) == SC_READ_RECORD)
		one_record(r, &rec);
	if (st != SC_READ_EOF) {
		sc_buf_addf(&why, "the journal is cut or malformed at byte %llu (%s): what follows is not shown",
			    (unsigned long long)rd.err_offset,
			    rd.err_what ? rd.err_what : "read error");
		missing(r, why.data);
	}
	if (!r->have_end && r->records)
		missing(r, "the journal has no end record: the attempt had not ended when it was written, or the journal was cut");
	if (r->omitted) {
		sc_buf_reset(&why);
		sc_buf_addf(&why, "%lu timeline events are not shown (the page's cap)",
			    r->omitted);
		missing(r, why.data);
	}
	sc_buf_release(&why);
	sc_record_release(&rec);
}

/* ---- the page ---- */

static void csp(struct sc_buf *page)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	sc_buf_adds(page, "<meta http-equiv=\"Content-Security-Policy\" content=\""
		    "default-src 'none'; script-src 'none'; img-src 'none'; "
		    "base-uri 'none'; form-action 'none'; style-src 'sha256-");
	if (EVP_Digest(style, sizeof(style) - 1, md, &mdlen, EVP_sha256(), NULL))
		sc_base64_encode(page, md, mdlen, 0);
	sc_buf_adds(page, "'\">\n");
}

static long duration(const struct report *r)
{
	struct tm a, b;
	const char *e;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (!r->str[S_START].len || !r->str[S_END].len)
		return -1;
	e = strptime(r->str[S_START].data, "%Y-%m-%dT%H:%M:%SZ", &a);
	if (!e || *e)
		return -1;
	e = strptime(r->str[S_END].data, "%Y-%m-%dT%H:%M:%SZ", &b);
	if (!e || *e)
		return -1;
	return (long)(timegm(&b) - timegm(&a));
}

static void summary(const struct report *r, struct sc_buf *p)
{
	struct sc_buf use = SC_BUF_INIT;
	long secs = duration(r);
	size_t i;

	sc_buf_adds(p, "<section id=\"summary\"><h2>Summary</h2><table>\n");
	for (i = 0; i < S_NR; i++) {
		sc_buf_addf(p, "<tr><th>%s</th><td>", summary_names[i]);
		if (r->str[i].len)
			sc_html_text(p, r->str[i].data, r->str[i].len);
		else
			sc_buf_adds(p, "-");
		sc_buf_adds(p, "</td></tr>\n");
	}
	if (secs >= 0)
		sc_buf_addf(p, "<tr><th>duration</th><td>%lds</td></tr>\n", secs);
	sc_buf_addf(p,
		    "<tr><th>events</th><td>%lu</td></tr>\n"
		    "<tr><th>tasks started</th><td>%lu</td></tr>\n"
		    "<tr><th>tasks ticked</th><td>%lu</td></tr>\n"
		    "<tr><th>calls</th><td>%lu: %lu allowed, %lu asked, %lu denied; %lu approvals</td></tr>\n"
		    "<tr><th>checks</th><td>%lu passed, %lu failed</td></tr>\n"
		    "<tr><th>findings</th><td>%lu</td></tr>\n"
		    "<tr><th>model use</th><td><pre>",
		    r->records, r->tasks, r->nticks, r->calls, r->allow, r->ask,
		    r->deny, r->approvals, r->checks_pass, r->checks_fail,
		    r->nfindings);
	sc_usage_text(&r->usage, &use);
	sc_html_texts(p, use.len ? use.data : "no model turn\n");
	sc_buf_adds(p, "</pre></td></tr>\n</table></section>\n");
	sc_buf_release(&use);
}

static void section(struct sc_buf *p, const char *id, const char *title,
		    const char *head, const struct sc_buf *body,
		    const char *none)
{
	sc_buf_addf(p, "<section id=\"%s\"><h2>%s</h2>\n", id, title);
	if (!body->len)
		sc_buf_addf(p, "<p>%s</p>\n", none);
	else if (head)
		sc_buf_addf(p, "<table><tr>%s</tr>\n%s</table>\n", head, body->data);
	else
		sc_buf_add(p, body->data, body->len);
	sc_buf_adds(p, "</section>\n");
}

static void page(const struct report *r, const char *run, struct sc_buf *p)
{
	sc_buf_adds(p, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
	csp(p);
	sc_buf_adds(p, "<meta name=\"referrer\" content=\"no-referrer\">\n<title>speccoder report: ");
	sc_html_texts(p, run);
	sc_buf_addf(p, "</title>\n<style>%s</style>\n</head><body>\n<h1>speccoder report: run ", style);
	sc_html_texts(p, run);
	sc_buf_adds(p, "</h1>\n<p><a href=\"#summary\">summary</a> &middot; <a href=\"#timeline\">timeline</a> &middot; "
		    "<a href=\"#checks\">checks</a> &middot; <a href=\"#ticks\">ticks</a> &middot; "
		    "<a href=\"#findings\">findings</a></p>\n");
	if (r->missing.len)
		sc_buf_addf(p, "<section id=\"missing\"><h2>Missing</h2><ul>\n%s</ul></section>\n",
			    r->missing.data);
	summary(r, p);
	section(p, "timeline", "Timeline", "<th>time</th><th>event</th><th>fields</th>",
		&r->timeline, "no events");
	section(p, "checks", "Checks and held-out tests",
		"<th>check</th><th>argv</th><th>outcome</th><th>status</th><th>seconds</th><th>output sha256</th>",
		&r->checks, "no check ran");
	section(p, "ticks", "Ticks", NULL, &r->ticks, "no task was ticked");
	section(p, "findings", "Guard findings and denials",
		"<th>event</th><th>code</th><th>phase</th><th>path</th><th>change or reason</th>",
		&r->findings, "none");
	sc_buf_adds(p, "</body></html>\n");
}

static int render(struct report *r, struct sc_input *in, const char *run,
		  struct sc_buf *out)
{
	if (in)
		read_journal(r, in);
	page(r, run, out);
	return r->missing.len ? 1 : 0;
}

int sc_report_run(const struct sc_report_opts *o, struct sc_output *out)
{
	struct report r;
	struct sc_input *in = NULL;
	struct sc_buf p = SC_BUF_INIT, why = SC_BUF_INIT;
	const char *run = o->run ? o->run : o->journal;
	int fd, ret;

	report_init(&r, o->repo_dir);
	fd = open(o->journal, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		sc_buf_addf(&why, "no journal for run %s (%s): nothing of the attempt can be shown",
			    run, strerror(errno));
		missing(&r, why.data);
	} else {
		in = sc_xmalloc(sizeof(*in));
		sc_input_init_fd(in, fd);
	}
	ret = render(&r, in, run, &p) ? SC_EXIT_NO : SC_EXIT_OK;
	sc_output_add(out, p.data ? p.data : "", p.len);
	if (sc_output_flush(out)) {
		sc_error_errno("WRITE-FAILED", "cannot write the page");
		ret = SC_EXIT_INTERNAL;
	} else if (ret == SC_EXIT_NO) {
		sc_warning("INCOMPLETE", "the page says what is missing");
	}
	if (fd >= 0)
		close(fd);
	free(in);
	sc_buf_release(&p);
	sc_buf_release(&why);
	report_release(&r);
	return ret;
}

int sc_report_html_mem(const char *journal, size_t len, struct sc_buf *out)
{
	struct report r;
	struct sc_input *in = sc_xmalloc(sizeof(*in));
	int ret;

	report_init(&r, NULL);
	sc_input_init_mem(in, journal, len);
	ret = render(&r, in, "memory", out);
	free(in);
	report_release(&r);
	return ret;
}
