#ifndef SC_TERMTEXT_H
#define SC_TERMTEXT_H

/*
 * Text for a terminal.  Everything speccoder shows a person (an approval
 * question, a model's words, a diagnostic) may hold bytes the model or an
 * input chose; a terminal acts on some of them: it moves the cursor,
 * repaints lines, sets the title, writes the clipboard, reorders text.  The
 * one function below turns any bytes into text that is only printed:
 *
 *   - C0 controls (U+0000-U+001F), DEL, and C1 controls (U+0080-U+009F),
 *     in UTF-8 or as raw bytes, become '?'.  Every escape sequence starts
 *     with one (ESC, or CSI, OSC, DCS, ... in C1), so it loses what makes
 *     it act, while the rest of it stays visible: cleaning never hides text
 *     a person is asked about;
 *   - bidirectional overrides, embeddings and isolates (U+202A-U+202E,
 *     U+2066-U+2069), marks (U+200E, U+200F, U+061C), zero-width and
 *     invisible format characters (U+200B-U+200D, U+2060-U+2064, U+FEFF,
 *     U+FFF9-U+FFFB), line and paragraph separators (U+2028, U+2029)
 *     become '?';
 *   - a byte that is not part of valid UTF-8 (overlong, surrogate, past
 *     U+10FFFF, cut short) becomes '?';
 *   - everything else (printable ASCII, other valid UTF-8) is kept.
 *
 * Every tool shows text through sc_term_clean(), directly or through
 * sc_sanitize() (diag.h), which uses it.
 */

#include <stddef.h>

struct sc_buf;

/* Append LEN bytes of S to OUT, cleaned as above. */
void sc_term_clean(struct sc_buf *out, const char *s, size_t len);

enum {
	SC_TERM_KEEP_NEWLINE = 1,  /* keep '\n': multi-line text */
	SC_TERM_KEEP_TAB = 2,      /* keep '\t' */
};

/*
 * The same, keeping what FLAGS names: newlines and tabs of multi-line
 * text, or of a record value a table shows quoted (rectable.h).
 */
void sc_term_clean_keep(struct sc_buf *out, const char *s, size_t len,
			int flags);

/*
 * The same into DST (DSTSZ bytes, NUL-terminated): whole characters only,
 * as many as fit, and nothing allocated.  Returns the length written.
 */
size_t sc_term_clean_into(char *dst, size_t dstsz, const char *s, size_t len);

/*
 * How many bytes at the end of S (LEN bytes) start a UTF-8 character that
 * is not complete yet (0 to 3): a reader of a stream keeps them for the
 * next read rather than cleaning half a character.
 */
size_t sc_term_partial(const char *s, size_t len);

/*
 * Decode one UTF-8 character at S (LEN > 0 bytes left): its code point,
 * with its length in *USED, or -1 when the bytes are not valid UTF-8
 * (overlong, surrogate, past U+10FFFF, cut short).
 */
long sc_utf8_next(const unsigned char *s, size_t len, size_t *used);

/* 1 when all LEN bytes of S are valid UTF-8 (NUL included), as
 * sc_utf8_next() reads it: what sc-rec --to-json writes as a string
 * rather than base64 (recjson.h). */
int sc_utf8_valid(const char *s, size_t len);

/* 1 for a character that reorders or hides text without being seen (the
 * set listed above); html.h shows the same set. */
int sc_char_invisible(long cp);

#endif
