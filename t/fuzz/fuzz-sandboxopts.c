/*
 * Fuzz sc-sandbox-exec's options both ways (sandboxopts.h): any argv (the
 * input split at NUL bytes) is refused or makes a policy; that policy
 * printed as options must be accepted, and print the same words again.
 * --config and --profile are dropped: the fuzzer must not read the host's
 * files, and the unit test covers what they add.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxopts.h"
#include "strlist.h"

enum { MAX_ARGS = 64 };

/* ARGV's options into OUT: 0, or -1 when refused. */
static int policy_of(struct sc_strlist *argv, struct sc_sandbox_policy *out)
{
	struct sc_sandbox_cmdline cl;
	int end, ret;

	sc_sandbox_cmdline_init(&cl);
	ret = sc_sandbox_cmdline_parse(&cl, (int)argv->nr, argv->v, &end);
	cl.profile = cl.config = NULL;
	if (!ret)
		ret = sc_sandbox_cmdline_policy(&cl, "/proc/self/exe", out);
	sc_sandbox_cmdline_release(&cl);
	return ret;
}

static void printed(const struct sc_sandbox_policy *pol,
		    struct sc_strlist *argv)
{
	sc_strlist_add(argv, "sc-sandbox-exec");
	sc_sandbox_policy_to_argv(pol, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_strlist in = { 0 }, once = { 0 }, twice = { 0 };
	struct sc_sandbox_policy pol, back;
	size_t at = 0, i;

	sc_strlist_add(&in, "sc-sandbox-exec");
	while (at < size && in.nr < MAX_ARGS) {
		const uint8_t *nul = memchr(data + at, 0, size - at);
		size_t len = nul ? (size_t)(nul - (data + at)) : size - at;

		sc_strlist_addn(&in, (const char *)data + at, len);
		at += len + 1;
	}
	if (policy_of(&in, &pol) == 0) {
		printed(&pol, &once);
		if (policy_of(&once, &back) < 0)
			abort();
		printed(&back, &twice);
		if (once.nr != twice.nr)
			abort();
		for (i = 0; i < once.nr; i++)
			if (strcmp(once.v[i], twice.v[i]))
				abort();
		sc_sandbox_policy_release(&back);
		sc_sandbox_policy_release(&pol);
	}
	sc_strlist_release(&in);
	sc_strlist_release(&once);
	sc_strlist_release(&twice);
	return 0;
}
