/*
 * --check-diff's unified diff parser on any bytes, its credential scan of
 * added lines included: no crash, no read past the input, and the
 * findings it writes never hold the secret.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "mask.h"
#include "maskio.h"
#include "scan.h"
#include "secrets.h"

#define SECRET "fuzz-secret-value-0001"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sc_mask_set *set;
	static struct sc_masker *m;
	static struct sc_scanner *sc;   /* the credential scan of added lines */
	struct sc_input in;
	struct sc_output out;
	char *copy = malloc(size ? size : 1);
	int fd;

	if (!copy)
		return 0;
	if (!set) {
		struct sc_secrets s;

		sc_secrets_init(&s);
		sc_secrets_add(&s, "FUZZ_TOKEN", SECRET, strlen(SECRET));
		set = sc_mask_set_build(&s, 0);
		m = set ? sc_masker_new(set) : NULL;
		sc_secrets_release(&s);
		sc = sc_scanner_new();
		if (!m || !sc)
			abort();
	}
	memcpy(copy, data, size);
	sc_input_init_mem(&in, copy, size);
	/* Output to a pipe nobody reads would block: /dev/null it is. */
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		abort();
	sc_output_init(&out, fd);
	(void)sc_mask_check_diff(m, sc, &in, &out);
	if (out.buf.len && memmem(out.buf.data, out.buf.len, SECRET,
				  strlen(SECRET)))
		abort();
	sc_output_release(&out);
	close(fd);
	free(copy);
	return 0;
}
