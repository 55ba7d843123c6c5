#ifndef SC_USAGE_H
#define SC_USAGE_H

/*
 * The model's usage of a run, summed from its type=usage records
 * (sc-record(5)), for both of sc-report's views (sc-report(1)): what it
 * read and wrote, what the prompt cache read and wrote, and what the cache
 * saved, in input tokens at the providers' documented rates:
 *
 *   anthropic, bedrock (and any provider but openai): a cache read costs
 *   0.1 of an input token, a cache write 1.25, so a read saves 0.9 and a
 *   write costs 0.25 more; the input billed is input + read + write;
 *   openai: a cached token costs 0.5, so it saves 0.5; the input billed is
 *   input (cached tokens are counted in it).
 *
 * The records come from an untrusted run.  A count is read as jq 1.6's
 * "tonumber? // 0" reads the member of sc-rec --to-json (the text view
 * was jq before it was C, and prints the same bytes): a decimal or
 * exponent number, a sign, inf/infinity/nan in any case but a leading
 * lowercase n; a field that is absent, repeated, not UTF-8 or not a
 * number counts 0 and changes no other sum.  Sums are doubles, as jq's:
 * a hostile 1e308 gives infinity, never a wrapped integer.
 */

#include "buf.h"
#include "record.h"

/* The provider whose cached tokens count at OpenAI's rate. */
#define SC_USAGE_OPENAI "openai"

struct sc_usage {
	unsigned long turns;          /* type=usage records */
	double in, out, read, write;  /* their tokens, summed */
	double saved;                 /* input tokens the cache saved */
	double all;                   /* input tokens billed, cached ones included */
};

#define SC_USAGE_INIT { 0, 0, 0, 0, 0, 0, 0 }

/* Add REC when it is a usage record (exactly one type field, "usage");
 * 1 when it was one, 0 otherwise. */
int sc_usage_add(struct sc_usage *u, const struct sc_record *rec);

/*
 * Append the text view's two lines to OUT (nothing when no usage record
 * was seen):
 *
 *   usage: TURNS model turns, IN input tokens, OUT output tokens
 *     cache: READ read, WRITE written; saved about SAVED input tokens (P% of ALL)
 *
 * SAVED and P are rounded down; P is 0 when ALL is not above 0.
 */
void sc_usage_text(const struct sc_usage *u, struct sc_buf *out);

/* The number in the field NAME of REC, as described above: 0 when REC has
 * none, or more than one (jq sees an array), or its value is not UTF-8. */
double sc_usage_count(const struct sc_record *rec, const char *name);

/* The number in the string S (up to its first NUL), as jq's tonumber
 * reads it; 0 when it is not one. */
double sc_usage_number(const char *s);

/* Append D as jq 1.6 prints a number: the shortest digits that read back
 * as D, an exponent past 17 digits or below 0.0001, infinities as the
 * largest double, NaN as "null". */
void sc_usage_format(struct sc_buf *out, double d);

/* D rounded down (floor(3), without libm). */
double sc_usage_floor(double d);

#endif
