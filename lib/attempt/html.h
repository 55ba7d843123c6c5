#ifndef SC_HTML_H
#define SC_HTML_H

/*
 * Text for an HTML page.  Everything the report shows (file names, the
 * model's words, command output, rule reasons) may hold bytes the model
 * chose; a browser acts on some of them.  sc_html_text() turns any bytes
 * into text a browser only displays, in element content and in quoted
 * attribute values alike:
 *
 *   - & < > " ' become character references, so no byte opens a tag, an
 *     entity or leaves an attribute;
 *   - C0 controls other than newline and tab, DEL and C1 controls, NUL
 *     included, become a visible "\xNN" in a <span class="ctl">: a person
 *     sees that they were there (where a terminal would act on them);
 *   - bidirectional overrides, marks, isolates, zero-width and other
 *     invisible format characters (sc_char_invisible(), termtext.h) become a
 *     visible "\u{XXXX}" the same way, so text cannot be reordered;
 *   - a byte that is not part of valid UTF-8 becomes "\xNN";
 *   - everything else (printable ASCII, other valid UTF-8) is kept.
 *
 * The output is always valid UTF-8 and holds no markup but the span.
 */

#include <stddef.h>

struct sc_buf;

/* Append LEN bytes of S to OUT, escaped as above. */
void sc_html_text(struct sc_buf *out, const char *s, size_t len);
/* The same for a NUL-terminated string. */
void sc_html_texts(struct sc_buf *out, const char *s);

#endif
