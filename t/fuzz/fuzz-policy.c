/*
 * The whole policy on an arbitrary call, against a small worktree made at
 * start (a .git, a secret, a Makefile, a symlink out): find and git walk
 * and resolve real files, and the walk must stay small and the same.
 *
 * The first byte picks the mode (bits 0-1), a write (bit 3), and how the
 * rest goes in: a shell line, one argv word (bit 2), or (bit 4) words split
 * at NUL after a program picked by bits 5-6 (find, git, sh -c, fd), which
 * reaches the find and git argument parsers with any words at all.  Each
 * call is judged twice and must get the same verdict.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy.h"
#include "record.h"

static void put(const char *root, const char *rel, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static const char *fixture(void)
{
	static char root[] = "/tmp/sc-fuzz-policy.XXXXXX";
	char path[4096];
	static const char *const dirs[] = { ".git", ".git/hooks", "src", NULL };
	size_t k;

	if (!mkdtemp(root))
		abort();
	for (k = 0; dirs[k]; k++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[k]);
		if (mkdir(path, 0700) < 0)
			abort();
	}
	put(root, ".git/config", "[core]\n");
	put(root, ".env", "TOKEN=x\n");
	put(root, "Makefile", "all:\n");
	put(root, "src/main.c", "int main(void){return 0;}\n");
	snprintf(path, sizeof(path), "%s/escape", root);
	if (symlink("/etc", path) < 0)
		abort();
	return root;
}

static void judge(const struct sc_policy *p, const uint8_t *data, size_t size,
		  struct sc_verdict *v)
{
	static const char *const progs[] = { "find", "git", "sh", "fd" };
	struct sc_record call;
	size_t i = 1, k;

	sc_record_init(&call);
	sc_record_adds(&call, "type", "call");
	sc_record_adds(&call, "tool", (data[0] & 8) ? "write" : "run");
	if ((data[0] & 8) || !(data[0] & 16)) {
		sc_record_add(&call, (data[0] & 8) ? "path" : (data[0] & 4) ?
			      "argv" : "shell", data + 1, size - 1);
	} else {
		sc_record_adds(&call, "argv", progs[(data[0] >> 5) & 3]);
		if (((data[0] >> 5) & 3) == 2)
			sc_record_adds(&call, "argv", "-c");
		while (i < size) {
			for (k = i; k < size && data[k]; k++)
				;
			sc_record_add(&call, "argv", data + i, k - i);
			i = k + 1;
		}
	}
	sc_policy_judge(p, &call, v);
	sc_record_release(&call);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sc_policy p;
	static int ready;
	struct sc_verdict v, again;

	if (!size)
		return 0;
	if (!ready) {
		if (sc_policy_init(&p, fixture(), SC_MODE_WORKTREE, 0, NULL) < 0)
			abort();
		ready = 1;
	}
	p.mode = (enum sc_mode)(data[0] & 3);
	sc_verdict_init(&v);
	sc_verdict_init(&again);
	judge(&p, data, size, &v);
	judge(&p, data, size, &again);
	if (v.decision < 0 || v.decision > 2 || !v.rule)
		abort();
	if (v.decision != again.decision || strcmp(v.rule, again.rule) ||
	    v.object.len != again.object.len || v.nr_parts != again.nr_parts ||
	    (v.object.len && memcmp(v.object.data, again.object.data,
				    v.object.len)))
		abort();   /* the same call, another verdict */
	if (v.decision != SC_ASK && v.nr_parts)
		abort();
	sc_verdict_release(&v);
	sc_verdict_release(&again);
	return 0;
}
