#ifndef SC_TERMTEXT_H
#define SC_TERMTEXT_H

/*
 * Untrusted text made safe to show on a terminal: the one function every
 * tool and driver uses for commit subjects, file names, model text, check
 * output and record values (sc_term_clean; `sc-rec --clean` for the drivers).
 *
 * A terminal acts on more than C0 controls: ESC starts sequences that move
 * the cursor, retitle the window or write the clipboard; C1 controls (CSI,
 * OSC, DCS, U+0080-U+009F) do the same, raw or UTF-8 encoded; bidi
 * overrides and isolates reorder what is shown, so a line can read other
 * than what it holds.  Each becomes '?'; so does a byte that is not part
 * of valid UTF-8, so no decoder can make a control out of it.
 */

#include <stddef.h>

#include "buf.h"

enum {
	SC_TERM_KEEP_NEWLINE = 1,  /* keep '\n' (multi-line text) */
	SC_TERM_KEEP_TAB = 2,      /* keep '\t' */
	SC_TERM_MORE = 4,          /* sc_term_clean_some: more text follows */
};

/* Append the LEN bytes at TEXT to OUT, cleaned as above. */
void sc_term_clean(struct sc_buf *out, const char *text, size_t len,
		   int flags);

/*
 * The same for a stream read in pieces: with SC_TERM_MORE, a UTF-8
 * sequence cut at the end of TEXT is left for the next piece.  Returns
 * the number of bytes of TEXT used (all of them without SC_TERM_MORE).
 */
size_t sc_term_clean_some(struct sc_buf *out, const char *text, size_t len,
			  int flags);

/*
 * The same into DST (DSTSZ bytes, NUL-terminated; nothing allocated, so
 * error paths may use it): text that does not fit is cut before the
 * first piece that would not fit whole.  Returns the length written.
 */
size_t sc_term_clean_fixed(char *dst, size_t dstsz, const char *text,
			   size_t len, int flags);

#endif
