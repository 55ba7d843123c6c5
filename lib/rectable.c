#include <string.h>
#include <unistd.h>

#include "rectable.h"

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
