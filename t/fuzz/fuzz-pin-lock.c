/* The lock of sc-pin through libgit2 and the entry checks, on arbitrary
 * text; then every entry that parsed is written back and read again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "pin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_pin_lock lock, again;
	struct sc_buf text = SC_BUF_INIT;
	static int init;
	size_t i;

	if (!init) {
		sc_diag_init("fuzz-pin-lock");
		init = 1;
	}
	sc_pin_lock_init(&lock);
	sc_pin_lock_init(&again);
	if (sc_pin_lock_read_mem(&lock, (const char *)data, size) ==
	    SC_PIN_LOCK_OK) {
		for (i = 0; i < lock.nr; i++)
			if (!lock.pins[i].why &&
			    (!lock.pins[i].digest || !sc_pin_lock_find(&lock,
							lock.pins[i].key)))
				abort();
		/* What sc-pin writes, it reads back the same. */
		sc_pin_lock_format(&lock, &text);
		if (sc_pin_lock_read_mem(&again, text.data, text.len) !=
		    SC_PIN_LOCK_OK)
			abort();
		for (i = 0; i < again.nr; i++) {
			const struct sc_pin_lock_entry *p =
				sc_pin_lock_find(&lock, again.pins[i].key);

			if (again.pins[i].why || !p || p->why ||
			    strcmp(p->digest, again.pins[i].digest))
				abort();
		}
	}
	sc_buf_release(&text);
	sc_pin_lock_release(&again);
	sc_pin_lock_release(&lock);
	return 0;
}
