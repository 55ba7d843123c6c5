#ifndef SC_RECJSON_H
#define SC_RECJSON_H

/*
 * Records as JSON objects (sc-rec(1) --to-json / --from-json).
 *
 * A name seen once maps to a string, a repeated name to an array of strings
 * in record order.  When any value of a name is not valid UTF-8, every value
 * of that name is written base64 (standard, padded) under "NAME@base64", so
 * one list never splits across two members.  Members appear in the order
 * their names first appear; "type" is always first.
 */

#include <stddef.h>

#include "buf.h"
#include "record.h"

/* Append REC as one line of compact JSON (no newline) to OUT. */
void sc_record_to_json(const struct sc_record *rec, struct sc_buf *out);

enum sc_json_status {
	SC_JSON_OK = 0,
	SC_JSON_MALFORMED = -1,   /* error[MALFORMED-JSON] */
	SC_JSON_TOO_LARGE = -2,   /* error[RECORD-TOO-LARGE] */
};

struct sc_json_error {
	const char *what;    /* a fixed text, never input bytes */
	char name[64];       /* the member concerned, when it is a valid name */
	int column;          /* 1-based, 0 when unknown */
};

/* Parse one JSON object (LEN bytes at TEXT) into REC (reset first). */
int sc_record_from_json(const char *text, size_t len, struct sc_record *rec,
			struct sc_json_error *err);

#endif
