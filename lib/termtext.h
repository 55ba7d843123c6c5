#ifndef SC_TERMTEXT_H
#define SC_TERMTEXT_H

/*
 * Untrusted text made safe to show on a terminal: the one function every
 * tool and driver uses for commit subjects, file names, model text, check
 * output and record values (sc_term_clean; `sc-rec --clean` for scripts).
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
};

/* Append the LEN bytes at TEXT to OUT, cleaned as above. */
void sc_term_clean(struct sc_buf *out, const char *text, size_t len,
		   int flags);

#endif
