#ifndef SC_REPORT_H
#define SC_REPORT_H

/*
 * One attempt as one self-contained HTML page (sc-report(1)): summary,
 * timeline, checks and held-out results, ticks with their diffs and
 * attestations, the guard's findings.  Everything shown comes from the
 * journal (masked when it was written) and from git objects read with
 * libgit2; every byte of it goes through sc_html_text() (html.h).
 *
 * The page carries a Content-Security-Policy that allows no script, no
 * network and only its own inline style (by digest).  Bad input never
 * stops the page: a journal that is missing or cut short, a repository
 * that cannot be opened, a tick whose commit is gone, a diff too long to
 * show are each said on the page, in a "missing" list at the top.
 */

#include "io.h"

/* Caps: what one page holds at most, so a hostile journal cannot grow it
 * (or the tool) without bound. */
#define SC_REPORT_VALUE_MAX 4096        /* bytes of one field shown */
#define SC_REPORT_TIMELINE_MAX (8u << 20) /* bytes of timeline HTML */
#define SC_REPORT_DIFF_LINES 2000       /* diff lines shown per tick */
#define SC_REPORT_DIFF_OPEN 300         /* longer diffs start folded */

struct sc_report_opts {
	const char *journal;   /* the journal file; may not exist */
	const char *run;       /* the run id, shown; NULL: the file name */
	const char *repo_dir;  /* the repository for ticks; NULL: none */
};

/*
 * sc-report --html: write the page to OUT.  The exit status: SC_EXIT_OK
 * when everything was there, SC_EXIT_NO when the page says something is
 * missing (warning INCOMPLETE), SC_EXIT_INTERNAL when OUT could not be
 * written (error WRITE-FAILED).
 */
int sc_report_run(const struct sc_report_opts *o, struct sc_output *out);

/*
 * The page of a journal held in memory, into PAGE (for the fuzz target
 * and unit tests): no repository is opened, nothing is printed.  0 when
 * everything was there, 1 when the page says something is missing.
 */
int sc_report_html_mem(const char *journal, size_t len, struct sc_buf *page);

#endif
