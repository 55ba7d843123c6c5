/*
 * The record reader on arbitrary bytes: it must never crash, never read out
 * of bounds, and every record it accepts must encode back to exactly the
 * bytes it came from when those bytes were in the canonical form.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record rec, again;
	struct sc_buf out = SC_BUF_INIT;
	int status;

	sc_input_init_mem(&in, data, size);
	sc_reader_init(&rd, &in);
	rd.max = 4096; /* small, so the limit paths are reached too */
	sc_record_init(&rec);
	sc_record_init(&again);
	while ((status = sc_reader_next(&rd, &rec)) == SC_READ_RECORD) {
		struct sc_input in2;
		struct sc_reader rd2;

		if (rec.nr == 0 || strcmp(rec.fields[0].name, "type"))
			abort();
		sc_buf_reset(&out);
		sc_record_encode(&rec, &out);
		if (out.len != rec.wire_size)
			abort();
		/* Its encoding reads back as the same record. */
		sc_input_init_mem(&in2, out.data, out.len);
		sc_reader_init(&rd2, &in2);
		if (sc_reader_next(&rd2, &again) != SC_READ_RECORD ||
		    again.nr != rec.nr)
			abort();
		for (size_t i = 0; i < rec.nr; i++)
			if (again.fields[i].value_len != rec.fields[i].value_len ||
			    memcmp(again.fields[i].value, rec.fields[i].value,
				   rec.fields[i].value_len) ||
			    strcmp(again.fields[i].name, rec.fields[i].name))
				abort();
	}
	if (status != SC_READ_EOF && rec.nr != 0)
		abort(); /* never half a record */
	sc_buf_release(&out);
	sc_record_release(&rec);
	sc_record_release(&again);
	return 0;
}
