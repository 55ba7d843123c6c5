#ifndef SC_RECORD_H
#define SC_RECORD_H

/*
 * sc-record(5): the NUL-delimited record stream every tool reads and writes.
 *
 *   record = field* NUL            (the empty field ends the record)
 *   field  = NAME "=" VALUE NUL    (VALUE holds no NUL)
 *          | NAME ":" LEN "=" LEN-bytes NUL
 *   NAME   = [a-z][a-z0-9_.-]*
 *
 * The first field of every record is "type".  A repeated name is an ordered
 * list.  Writers use the length form exactly when a value holds a NUL;
 * readers accept both forms.
 */

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "io.h"

/*
 * The largest record, in bytes on the wire, a reader accepts.  It bounds
 * the memory of every tool; 16 MiB holds any file a tool call carries
 * while keeping a hostile stream from growing a tool without limit.
 */
#define SC_RECORD_MAX ((size_t)16 << 20)

struct sc_field {
	const char *name;   /* NUL-terminated */
	size_t name_len;
	const char *value;  /* value[value_len] == '\0'; may hold NULs */
	size_t value_len;
};

/*
 * A record owns its bytes.  Field pointers stay valid until the record is
 * changed, reset or released.
 */
struct sc_record {
	struct sc_buf store;
	struct sc_field *fields;
	size_t nr, alloc;
	size_t wire_size;   /* bytes the record takes when written */
};

void sc_record_init(struct sc_record *r);
void sc_record_release(struct sc_record *r);
void sc_record_reset(struct sc_record *r);

/* 1 when NAME (LEN bytes) is a valid field name. */
int sc_field_name_valid(const char *name, size_t len);

/* Append a field.  NAME must be valid (checked by the caller). */
void sc_record_add(struct sc_record *r, const char *name,
		   const void *value, size_t len);
void sc_record_adds(struct sc_record *r, const char *name, const char *value);
/* Append a field holding V in decimal: counts, sizes, token numbers. */
void sc_record_addu(struct sc_record *r, const char *name,
		    unsigned long long v);

/* The first field called NAME, or NULL. */
const struct sc_field *sc_record_get(const struct sc_record *r,
				     const char *name);
/* The value of the first field called NAME when it holds no NUL, or NULL. */
const char *sc_record_str(const struct sc_record *r, const char *name);
/* The record's type, or NULL when the record is empty. */
const char *sc_record_type(const struct sc_record *r);

/* Append the wire form of R to OUT. */
void sc_record_encode(const struct sc_record *r, struct sc_buf *out);
/*
 * Append R's table row for a person, newline included, to OUT: its type in
 * the first column, then NAME=VALUE, each value cleaned for a terminal
 * (termtext.h) and quoted with C escapes when it holds a space, a quote,
 * a backslash, a newline or a tab, or is empty.
 */
void sc_record_show(const struct sc_record *r, struct sc_buf *out);
/*
 * Append R to OUT's buffer, written at the next flush: its wire form, or
 * its table row when OUT shows records to a person (rectable.h).
 */
void sc_record_queue(struct sc_output *out, const struct sc_record *r);
/* Queue R on OUT as one unit; -1 when the output failed. */
int sc_record_write(struct sc_output *out, const struct sc_record *r);

enum sc_read_status {
	SC_READ_RECORD = 1,
	SC_READ_EOF = 0,
	SC_READ_MALFORMED = -1,  /* error[MALFORMED-RECORD], exit 3 */
	SC_READ_TOO_LARGE = -2,  /* error[RECORD-TOO-LARGE], exit 3 */
	SC_READ_IO = -3,         /* error[READ-FAILED], exit 5 */
};

struct sc_reader {
	struct sc_input *in;
	size_t max;             /* SC_RECORD_MAX unless a test lowers it */
	int status;             /* sticky once an error happened */
	uint64_t err_offset;    /* where the fault is, counted from 0 */
	const char *err_what;   /* a fixed text; never input bytes */
	int err_errno;
};

void sc_reader_init(struct sc_reader *rd, struct sc_input *in);
/*
 * Read the next whole record into REC (reset first).  Returns an
 * sc_read_status.  After an error every later call returns it again.
 */
int sc_reader_next(struct sc_reader *rd, struct sc_record *rec);
/*
 * Print the diagnostic for STATUS: -1 after it for an error, 0 for
 * SC_READ_RECORD and SC_READ_EOF.  The exit status is the caller's run
 * function's to decide, from STATUS (the comments above).
 */
int sc_reader_report(const struct sc_reader *rd, int status);

#endif
