#ifndef SC_MASK_H
#define SC_MASK_H

/*
 * The streaming masker of sc-mask(1).
 *
 * A mask set holds every printable form of every secret: the value; its
 * base64 (standard and URL-safe, at stream offsets 0, 1 and 2, only the
 * characters the value alone decides, so padding and the bytes around it
 * change nothing); hex in both cases; percent-encoding (also with '+' for
 * space), matched in any mix of upper and lower case; JSON string escaping
 * in the spellings common encoders choose; and, for a multi-line value,
 * each line of 8 bytes or more.  The forms are compiled once into two
 * Vectorscan literal databases in streaming mode, which report every
 * match, overlapping ones included: the base64 and hex forms run over the
 * unwrapped stream (the input without the line breaks, "\n" or "\r\n",
 * and the indentation after them), so an encoding wrapped at any width
 * still matches whole, wherever the value sits in the encoded text; the
 * other forms run over the input itself.
 *
 * A masker runs one stream through a set.  Each match [end - len, end) is
 * merged into a sorted list of disjoint ranges (overlapping and touching
 * ranges become one); a range becomes one "[redacted:NAME]", NAME being the
 * secret of the longest match in it.  Output is written as soon as it is
 * final: a match not yet seen ends after the bytes fed so far, so it starts
 * at most (longest form - 1) bytes before their end (in the unwrapped
 * stream for its forms, which is at most 19 times as many input bytes: a
 * removed gap is one line break and at most 16 spaces or tabs), and only
 * those bytes are held back.  When the input is idle, sc_masker_idle releases even those,
 * except from the first byte that could begin a form.  Memory is bounded by
 * the forms, not by the input.
 */

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "secrets.h"

struct sc_mask_set;
struct sc_masker;

/*
 * Build the forms of every secret of S that is strong enough (see
 * sc_secrets_value_too_weak; each weak one gets warning[SHORT-SECRET] once
 * by name when WARN is set) and compile them.  Returns NULL with
 * error[MATCHER] when Vectorscan refuses.  A set with no secret is valid:
 * its maskers copy their input.
 */
struct sc_mask_set *sc_mask_set_build(const struct sc_secrets *s, int warn);
void sc_mask_set_free(struct sc_mask_set *set);
size_t sc_mask_set_forms(const struct sc_mask_set *set);
/* The longest form: without line breaks, at most this less 1 is held back. */
size_t sc_mask_set_longest(const struct sc_mask_set *set);
/* The name of secret I of the set (the index given to hit hooks). */
const char *sc_mask_set_name(const struct sc_mask_set *set, size_t i);
size_t sc_mask_set_secrets(const struct sc_mask_set *set);
/* Form I of the set (for tests and fuzzing): its bytes and *LEN. */
const char *sc_mask_set_form(const struct sc_mask_set *set, size_t i,
			     size_t *len);
/* 1 when the N bytes at P are a proper prefix of some form of the set. */
int sc_mask_set_begins_form(const struct sc_mask_set *set, const char *p,
			    size_t n);

/* Called for every match with the index of its secret. */
typedef void (*sc_mask_hit_fn)(void *ctx, size_t secret);

/* NULL with error[MATCHER] when Vectorscan cannot allocate a stream. */
struct sc_masker *sc_masker_new(const struct sc_mask_set *set);
const struct sc_mask_set *sc_masker_get_set(const struct sc_masker *m);
void sc_masker_set_hit(struct sc_masker *m, sc_mask_hit_fn fn, void *ctx);
/* Feed LEN bytes; append to OUT whatever is final.  -1 on a matcher error. */
int sc_masker_feed(struct sc_masker *m, const void *data, size_t len,
		   struct sc_buf *out);
/* The input is idle: release every held byte that cannot begin a form. */
int sc_masker_idle(struct sc_masker *m, struct sc_buf *out);
/* End of the stream: write the rest; the masker is ready for a new stream. */
int sc_masker_finish(struct sc_masker *m, struct sc_buf *out);
/* Bytes held back now (for tests of the hold-back bound). */
size_t sc_masker_held(const struct sc_masker *m);
void sc_masker_free(struct sc_masker *m);

/* Mask one whole buffer: a fresh stream through M, appended to OUT. */
int sc_masker_mask(struct sc_masker *m, const void *data, size_t len,
		   struct sc_buf *out);

#endif
