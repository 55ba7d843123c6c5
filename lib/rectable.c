#include <string.h>
#include <unistd.h>

#include "rectable.h"
#include "termtext.h"

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

int sc_records_write_encoded(int fd, const void *data, size_t len,
			     int force_records)
{
	struct sc_output out;
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record r;
	int ret;

	if (force_records || !isatty(fd))
		return sc_write_all(fd, data, len);
	sc_output_init_records(&out, fd, 0);
	sc_input_init_mem(&in, data, len);
	sc_reader_init(&rd, &in);
	sc_record_init(&r);
	while (sc_reader_next(&rd, &r) == SC_READ_RECORD)
		sc_record_queue(&out, &r);
	ret = sc_output_flush(&out);
	sc_record_release(&r);
	sc_output_release(&out);
	return ret;
}

void sc_output_init_records(struct sc_output *out, int fd, int force_records)
{
	sc_output_init(out, fd);
	out->table = !force_records && isatty(fd);
}
