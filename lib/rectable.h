#ifndef SC_RECTABLE_H
#define SC_RECTABLE_H

/*
 * Records for a person: a tool whose output is records (sc-record(5))
 * writes them as they are to a pipe or a file, and as a readable table to
 * a terminal, as git prints --porcelain output only when asked.  -z (or
 * --records, where a tool has no other use for it) forces records.
 *
 * A table row is one record: its type in the first column, then each
 * field as NAME=VALUE, VALUE cleaned for the terminal (termtext.h) and
 * quoted with C escapes when it holds a space, a quote, a backslash, a
 * newline or a tab, or is empty.
 */

#include "buf.h"
#include "io.h"
#include "record.h"

/*
 * sc_output_init, and table rows instead of records when FD is a terminal
 * and FORCE_RECORDS is 0.
 */
void sc_output_init_records(struct sc_output *out, int fd, int force_records);

/*
 * Write LEN bytes of records already encoded at DATA to FD: as they are,
 * or as table rows when FD is a terminal and FORCE_RECORDS is 0.  -1 on
 * a write error (errno set).
 */
int sc_records_write_encoded(int fd, const void *data, size_t len,
			     int force_records);

#endif
