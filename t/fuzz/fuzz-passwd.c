/*
 * The /etc/passwd reader on any bytes, for a few uids: no crash, no read
 * past the input, and a home it reports is an absolute path copied from
 * the input, with no colon, newline or NUL in it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "passwd.h"

static void check(const char *data, size_t size, uid_t uid)
{
	char *home = NULL;
	int r = sc_passwd_parse_home(data, size, uid, &home);

	if (r == SC_PASSWD_NOT_FOUND) {
		if (home)
			abort();
		return;
	}
	if (r != SC_PASSWD_FOUND || !home || home[0] != '/' ||
	    strlen(home) > size || strpbrk(home, ":\n") ||
	    !memmem(data, size, home, strlen(home)))
		abort();
	free(home);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uid_t uids[] = { 0, 1, 1000, 4294967294u };
	/* A copy of exactly SIZE bytes, so ASan sees any read past it. */
	char *copy = malloc(size ? size : 1);
	size_t i;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	for (i = 0; i < sizeof(uids) / sizeof(*uids); i++)
		check(copy, size, uids[i]);
	free(copy);
	return 0;
}
