#ifndef SC_REPORTTEXT_H
#define SC_REPORTTEXT_H

/*
 * sc-report --text (sc-report(1)): a run's journal as text for a person
 * at a terminal, what git speccoder report prints.  For each record, in
 * order, one line
 *
 *   TIME  TYPE  NAME=VALUE  NAME=VALUE ...
 *
 * (TIME "-" when absent; a repeated name's values joined with spaces, a
 * newline in a value shown as '?'), then the record's text= lines, each
 * as "    | LINE"; then the model's usage, summed (usage.h).  A value
 * that is not UTF-8 is shown base64 under NAME@base64.  The layout is
 * the one the driver's jq program printed from sc-rec --to-json, byte for
 * byte, so the view did not change when it moved into C; the one
 * difference is a record whose type is not UTF-8, which jq could not show
 * and which is shown here with "-" as its type.
 *
 * Every byte written goes through sc_term_clean_keep() (termtext.h),
 * newlines kept: the model's words and tool output never reach the
 * terminal with a control, C1, escape sequence, bidi override or invalid
 * UTF-8 in them.
 */

#include "buf.h"
#include "io.h"
#include "report.h"

/*
 * Write the view of O->journal to OUT, headed "run RUN" when O->run is
 * set.  The exit status: SC_EXIT_OK; SC_EXIT_NO when the journal cannot
 * be opened (error NO-JOURNAL); SC_EXIT_MALFORMED when it is cut or
 * malformed (the records before the fault are shown, the usage is not;
 * error MALFORMED-RECORD or RECORD-TOO-LARGE); SC_EXIT_INTERNAL when it
 * cannot be read or OUT cannot be written (READ-FAILED, WRITE-FAILED).
 */
int sc_report_text_run(const struct sc_report_opts *o, struct sc_output *out);

/*
 * The view of a journal held in memory, into OUT (for the fuzz target and
 * unit tests): 0, or -1 when the journal is malformed (the records before
 * the fault are in OUT, the usage is not).  Nothing is printed.
 */
int sc_report_text_mem(const char *journal, size_t len, struct sc_buf *out);

#endif
