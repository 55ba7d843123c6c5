/*
 * The JSON -> record converter on arbitrary text: no crash, and whatever it
 * accepts converts back to JSON that converts to the same record bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recjson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_record rec, back;
	struct sc_buf json = SC_BUF_INIT, a = SC_BUF_INIT, b = SC_BUF_INIT;
	struct sc_json_error err;

	sc_record_init(&rec);
	sc_record_init(&back);
	if (sc_record_from_json((const char *)data, size, &rec, &err) ==
	    SC_JSON_OK) {
		sc_record_to_json(&rec, &json);
		if (sc_record_from_json(json.data, json.len, &back, &err) !=
		    SC_JSON_OK)
			abort();
		sc_record_encode(&rec, &a);
		sc_record_encode(&back, &b);
		if (a.len != b.len || memcmp(a.data, b.data, a.len))
			abort();
	} else if (rec.nr != 0 || !err.what) {
		abort();
	}
	sc_buf_release(&json);
	sc_buf_release(&a);
	sc_buf_release(&b);
	sc_record_release(&rec);
	sc_record_release(&back);
	return 0;
}
