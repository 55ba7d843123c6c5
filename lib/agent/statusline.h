#ifndef SC_STATUSLINE_H
#define SC_STATUSLINE_H

/*
 * A status line: while the model answers, one terminal line that its
 * type=progress records (sc-model --progress-fd) rewrite in place, so a
 * ten-minute generation is seen to move rather than look like a hang.
 *
 * Only numbers reach the screen: a record whose elapsed-ms or
 * estimated-tokens is not a decimal number is not shown, and the line is
 * made here, never from a field's text.  The line ends with '.', which no
 * secret form begins with, so a masking filter between us and the
 * terminal (sc-mask holds back bytes that could begin one) passes it on at
 * once.
 */

#include <stddef.h>

struct sc_buf;
struct sc_record;

/*
 * Append to OUT the line for progress record R: a carriage return, an
 * erase to the end of the line, then "  model: answering M:SS, about N
 * tokens so far.".  -1 (OUT unchanged) when R is not a type=progress
 * record with decimal elapsed-ms and estimated-tokens.
 */
int sc_status_progress_line(const struct sc_record *r, struct sc_buf *out);

/*
 * Read progress records from FD and the model's standard error from
 * ERR_FD until both end.  Each record's line goes to OUT_FD as it
 * arrives; before anything from ERR_FD is passed on to OUT_FD, and at the
 * end, a line that is shown is erased, so a diagnostic never lands on the
 * status line's tail.  Bytes that are not records stop the showing, not
 * the reading: the writer never meets a closed pipe.  Records are capped
 * at 4 KiB (a progress record is about 100 bytes).  Errors writing OUT_FD
 * are ignored: the screen is a courtesy, the run's records are elsewhere.
 */
void sc_status_relay(int fd, int err_fd, int out_fd);

#endif
