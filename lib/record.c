#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "record.h"
#include "termtext.h"

void sc_record_init(struct sc_record *r)
{
	sc_buf_init(&r->store);
	r->fields = NULL;
	r->nr = r->alloc = 0;
	r->wire_size = 1;
}

void sc_record_release(struct sc_record *r)
{
	sc_buf_release(&r->store);
	free(r->fields);
	sc_record_init(r);
}

void sc_record_reset(struct sc_record *r)
{
	sc_buf_reset(&r->store);
	r->nr = 0;
	r->wire_size = 1;
}

static int name_start(unsigned char c)
{
	return c >= 'a' && c <= 'z';
}

static int name_char(unsigned char c)
{
	return name_start(c) || (c >= '0' && c <= '9') || c == '_' ||
	       c == '.' || c == '-';
}

int sc_field_name_valid(const char *name, size_t len)
{
	size_t i;

	if (!len || !name_start((unsigned char)name[0]))
		return 0;
	for (i = 1; i < len; i++)
		if (!name_char((unsigned char)name[i]))
			return 0;
	return 1;
}

static size_t decimal_digits(size_t n)
{
	size_t d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

static size_t field_wire_size(size_t name_len, const void *value, size_t len)
{
	size_t n = sc_st_add(sc_st_add(name_len, len), 2); /* '=' and NUL */

	if (memchr(value, '\0', len))
		n = sc_st_add(n, 1 + decimal_digits(len)); /* ':' LEN */
	return n;
}

/* The store moved: point every field at the new copy. */
static void rebase_fields(struct sc_record *r, const char *old)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		r->fields[i].name = r->store.data + (r->fields[i].name - old);
		r->fields[i].value = r->store.data + (r->fields[i].value - old);
	}
}

void sc_record_add(struct sc_record *r, const char *name,
		   const void *value, size_t len)
{
	size_t name_len = strlen(name);
	const char *old = r->store.data;
	struct sc_field *f;
	size_t name_off, value_off;

	sc_buf_grow(&r->store, sc_st_add(sc_st_add(name_len, len), 2));
	if (old && old != r->store.data)
		rebase_fields(r, old);
	name_off = r->store.len;
	sc_buf_add(&r->store, name, name_len + 1);
	value_off = r->store.len;
	sc_buf_add(&r->store, value, len);
	sc_buf_addch(&r->store, '\0');

	SC_ALLOC_GROW(r->fields, r->nr + 1, r->alloc);
	f = &r->fields[r->nr++];
	f->name = r->store.data + name_off;
	f->name_len = name_len;
	f->value = r->store.data + value_off;
	f->value_len = len;
	r->wire_size = sc_st_add(r->wire_size,
				 field_wire_size(name_len, value, len));
}

void sc_record_adds(struct sc_record *r, const char *name, const char *value)
{
	sc_record_add(r, name, value, strlen(value));
}

void sc_record_addu(struct sc_record *r, const char *name,
		    unsigned long long v)
{
	char text[24];   /* 20 digits at most */

	snprintf(text, sizeof(text), "%llu", v);
	sc_record_adds(r, name, text);
}

const struct sc_field *sc_record_get(const struct sc_record *r,
				     const char *name)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->fields[i].name, name))
			return &r->fields[i];
	return NULL;
}

const char *sc_record_str(const struct sc_record *r, const char *name)
{
	const struct sc_field *f = sc_record_get(r, name);

	if (!f || memchr(f->value, '\0', f->value_len))
		return NULL;
	return f->value;
}

const char *sc_record_type(const struct sc_record *r)
{
	return r->nr ? r->fields[0].value : NULL;
}

void sc_record_encode(const struct sc_record *r, struct sc_buf *out)
{
	size_t i;

	sc_buf_grow(out, r->wire_size);
	for (i = 0; i < r->nr; i++) {
		const struct sc_field *f = &r->fields[i];

		sc_buf_add(out, f->name, f->name_len);
		if (memchr(f->value, '\0', f->value_len))
			sc_buf_addf(out, ":%zu", f->value_len);
		sc_buf_addch(out, '=');
		sc_buf_add(out, f->value, f->value_len);
		sc_buf_addch(out, '\0');
	}
	sc_buf_addch(out, '\0');
}

/* ---- records for a person (sc-record(5), ON A TERMINAL) ---- */

/* The width of the type column: the longest type most tools write. */
#define TYPE_WIDTH 10

static int needs_quotes(const struct sc_buf *v)
{
	return !v->len || strpbrk(v->data, " \"\\\n\t") != NULL;
}

static void add_value(struct sc_buf *out, const struct sc_field *f)
{
	struct sc_buf v = SC_BUF_INIT;
	size_t i;

	sc_term_clean_keep(&v, f->value, f->value_len,
		      SC_TERM_KEEP_NEWLINE | SC_TERM_KEEP_TAB);
	if (!needs_quotes(&v)) {
		sc_buf_add(out, v.data, v.len);
		sc_buf_release(&v);
		return;
	}
	sc_buf_addch(out, '"');
	for (i = 0; i < v.len; i++) {
		char c = v.data[i];

		if (c == '\n')
			sc_buf_adds(out, "\\n");
		else if (c == '\t')
			sc_buf_adds(out, "\\t");
		else {
			if (c == '"' || c == '\\')
				sc_buf_addch(out, '\\');
			sc_buf_addch(out, c);
		}
	}
	sc_buf_addch(out, '"');
	sc_buf_release(&v);
}

void sc_record_show(const struct sc_record *r, struct sc_buf *out)
{
	size_t i, start = out->len, first = 0;

	if (r->nr && !strcmp(r->fields[0].name, "type")) {
		sc_term_clean(out, r->fields[0].value, r->fields[0].value_len);
		first = 1;
	}
	while (out->len - start < TYPE_WIDTH)
		sc_buf_addch(out, ' ');
	for (i = first; i < r->nr; i++) {
		sc_buf_addch(out, ' ');
		sc_buf_add(out, r->fields[i].name, r->fields[i].name_len);
		sc_buf_addch(out, '=');
		add_value(out, &r->fields[i]);
	}
	sc_buf_addch(out, '\n');
}

void sc_record_queue(struct sc_output *out, const struct sc_record *r)
{
	if (out->table)
		sc_record_show(r, &out->buf);
	else
		sc_record_encode(r, &out->buf);
}

int sc_record_write(struct sc_output *out, const struct sc_record *r)
{
	sc_record_queue(out, r);
	return sc_output_unit_done(out);
}

/* Reading. */

void sc_reader_init(struct sc_reader *rd, struct sc_input *in)
{
	rd->in = in;
	rd->max = SC_RECORD_MAX;
	rd->status = SC_READ_RECORD;
	rd->err_offset = 0;
	rd->err_what = NULL;
	rd->err_errno = 0;
}

static int fail(struct sc_reader *rd, int status, uint64_t offset,
		const char *what)
{
	rd->status = status;
	rd->err_offset = offset;
	rd->err_what = what;
	return status;
}

/* Next byte without consuming it: 0..255, -1 at end, -2 on a read error. */
static int peek(struct sc_reader *rd)
{
	long n = sc_input_fill(rd->in);

	if (n < 0) {
		rd->err_errno = errno;
		return -2;
	}
	if (n == 0)
		return -1;
	return (unsigned char)rd->in->data[rd->in->pos];
}

/* A byte was expected but the input ended or failed. */
static int truncated(struct sc_reader *rd, int c)
{
	if (c == -2)
		return fail(rd, SC_READ_IO, sc_input_offset(rd->in),
			    "read failed");
	return fail(rd, SC_READ_MALFORMED, sc_input_offset(rd->in),
		    "end of input inside a record");
}

struct field_parse {
	uint64_t record_start;
	size_t size;           /* wire bytes of the record so far */
	struct sc_buf name;
	struct sc_buf value;
};

static int grow_size(struct sc_reader *rd, struct field_parse *fp, size_t n)
{
	if (n > rd->max || fp->size > rd->max - n)
		return fail(rd, SC_READ_TOO_LARGE, fp->record_start,
			    "record too large");
	fp->size += n;
	return 0;
}

/*
 * Consume one byte of a name or a length, counting it against the limit.
 * Returns the byte (its offset in *AT), or -1 with rd->status set.
 */
static int take_byte(struct sc_reader *rd, struct field_parse *fp,
		     uint64_t *at)
{
	int c = peek(rd);

	*at = sc_input_offset(rd->in);
	if (c < 0) {
		truncated(rd, c);
		return -1;
	}
	if (grow_size(rd, fp, 1))
		return -1;
	rd->in->pos++;
	return c;
}

/*
 * Read a field name up to its '=' or ':' (consumed; returned in *SEP).
 * An empty name followed by NUL is the end of the record: *SEP = '\0'.
 */
static int read_name(struct sc_reader *rd, struct field_parse *fp, int *sep)
{
	sc_buf_reset(&fp->name);
	for (;;) {
		uint64_t at;
		int c = take_byte(rd, fp, &at);

		if (c < 0)
			return rd->status;
		if (c == '=' || c == ':' || c == '\0') {
			if (c == '\0' && fp->name.len)
				return fail(rd, SC_READ_MALFORMED, at,
					    "field without '='");
			if (c != '\0' && !fp->name.len)
				return fail(rd, SC_READ_MALFORMED, at,
					    "empty field name");
			*sep = c;
			return 0;
		}
		if (fp->name.len ? !name_char((unsigned char)c)
				 : !name_start((unsigned char)c))
			return fail(rd, SC_READ_MALFORMED, at,
				    "bad character in field name");
		sc_buf_addch(&fp->name, c);
	}
}

/* Read a value up to its NUL (consumed). */
static int read_plain_value(struct sc_reader *rd, struct field_parse *fp)
{
	sc_buf_reset(&fp->value);
	for (;;) {
		int c = peek(rd);
		struct sc_input *in = rd->in;
		const char *start, *nul;
		size_t avail, take;

		if (c < 0)
			return truncated(rd, c);
		start = in->data + in->pos;
		avail = in->end - in->pos;
		nul = memchr(start, '\0', avail);
		take = nul ? (size_t)(nul - start) : avail;
		if (grow_size(rd, fp, take + (nul ? 1 : 0)))
			return rd->status;
		sc_buf_add(&fp->value, start, take);
		in->pos += take;
		if (nul) {
			in->pos++;
			return 0;
		}
	}
}

/* Read the decimal LEN of "NAME:LEN=" and its '='. */
static int read_length(struct sc_reader *rd, struct field_parse *fp,
		       size_t *len)
{
	size_t n = 0, digits = 0;

	for (;;) {
		uint64_t at;
		int c = take_byte(rd, fp, &at);

		if (c < 0)
			return rd->status;
		if (c == '=' && digits) {
			*len = n;
			return 0;
		}
		if (c < '0' || c > '9')
			return fail(rd, SC_READ_MALFORMED, at,
				    "bad length in length-prefixed field");
		if (digits == 1 && n == 0)
			return fail(rd, SC_READ_MALFORMED, at,
				    "length with a leading zero");
		n = n * 10 + (size_t)(c - '0');
		digits++;
		/* Past the limit the field cannot fit: stop before overflow. */
		if (n > rd->max)
			return fail(rd, SC_READ_TOO_LARGE, fp->record_start,
				    "record too large");
	}
}

/* Read exactly LEN bytes of value and the NUL after them. */
static int read_counted_value(struct sc_reader *rd, struct field_parse *fp,
			      size_t len)
{
	int c;

	if (grow_size(rd, fp, len))
		return rd->status;
	sc_buf_reset(&fp->value);
	while (fp->value.len < len) {
		struct sc_input *in = rd->in;
		size_t avail, take;

		c = peek(rd);
		if (c < 0)
			return truncated(rd, c);
		avail = in->end - in->pos;
		take = len - fp->value.len;
		if (take > avail)
			take = avail;
		sc_buf_add(&fp->value, in->data + in->pos, take);
		in->pos += take;
	}
	c = peek(rd);
	if (c < 0)
		return truncated(rd, c);
	if (c != '\0')
		return fail(rd, SC_READ_MALFORMED, sc_input_offset(rd->in),
			    "length-prefixed value not followed by NUL");
	rd->in->pos++;
	return grow_size(rd, fp, 1);
}

static int read_fields(struct sc_reader *rd, struct sc_record *rec,
		       struct field_parse *fp)
{
	for (;;) {
		int sep = 0;
		size_t len = 0;

		if (read_name(rd, fp, &sep))
			return rd->status;
		if (sep == '\0') {
			if (!rec->nr)
				return fail(rd, SC_READ_MALFORMED,
					    fp->record_start,
					    "empty record (no type field)");
			return SC_READ_RECORD;
		}
		if (!rec->nr && strcmp(fp->name.data, "type"))
			return fail(rd, SC_READ_MALFORMED, fp->record_start,
				    "record does not start with type=");
		if (sep == ':') {
			if (read_length(rd, fp, &len) ||
			    read_counted_value(rd, fp, len))
				return rd->status;
		} else if (read_plain_value(rd, fp)) {
			return rd->status;
		}
		sc_record_add(rec, fp->name.data,
			      fp->value.data ? fp->value.data : "",
			      fp->value.len);
	}
}

int sc_reader_next(struct sc_reader *rd, struct sc_record *rec)
{
	struct field_parse fp = { 0, 0, SC_BUF_INIT, SC_BUF_INIT };
	int c, status;

	if (rd->status != SC_READ_RECORD)
		return rd->status;
	sc_record_reset(rec);
	c = peek(rd);
	if (c == -1)
		return SC_READ_EOF;
	if (c == -2)
		return truncated(rd, c);
	fp.record_start = sc_input_offset(rd->in);
	status = read_fields(rd, rec, &fp);
	sc_buf_release(&fp.name);
	sc_buf_release(&fp.value);
	if (status != SC_READ_RECORD)
		sc_record_reset(rec);
	return status;
}

int sc_reader_report(const struct sc_reader *rd, int status)
{
	switch (status) {
	case SC_READ_MALFORMED:
		return sc_error("MALFORMED-RECORD", "%s at byte %" PRIu64,
				rd->err_what, rd->err_offset);
	case SC_READ_TOO_LARGE:
		return sc_error("RECORD-TOO-LARGE", "record at byte %" PRIu64
				" is larger than %zu bytes", rd->err_offset,
				rd->max);
	case SC_READ_IO:
		errno = rd->err_errno;
		return sc_error_errno("READ-FAILED", "cannot read input at byte %"
				      PRIu64, rd->err_offset);
	default:
		return 0;
	}
}
