#ifndef SC_GITKEYS_H
#define SC_GITKEYS_H

/*
 * git configuration keys that make git run a program, or change what it
 * reads and trusts: one table, used by the policy (a `git -c KEY=...` or
 * `git config KEY` of such a key is deny.git-exec) and by hooks-guard/sc-git
 * (through `sc-classify --git-neutral`, which names the repository's keys to
 * override so that git runs none of them).  Adding a key is one edit, here.
 *
 * Keys are matched in any letter case; a '*' in the table stands for a
 * subsection or a name, dots included.
 */

struct sc_input;
struct sc_output;

enum sc_gitkey_kind {
	SC_GITKEY_NONE,   /* not in the table */
	SC_GITKEY_FIXED,  /* names a program; sc-git's own -c options set it */
	SC_GITKEY_RUNS,   /* names a program; sc-git overrides it */
	SC_GITKEY_RISKY,  /* changes what git reads, trusts or contacts */
};

/*
 * The kind of KEY ("section.name" or "section.subsection.name").  For
 * SC_GITKEY_RUNS, *NEUTRAL (when NEUTRAL is set) is the value that turns
 * it off ("" or "false").
 */
enum sc_gitkey_kind sc_gitkey_kind(const char *key, const char **neutral);

/*
 * sc-classify --git-neutral: read config names, NUL-separated (`git config
 * --name-only -z --list`), from IN; for each one that names a program sc-git
 * must override, write a record type=git-neutral key=NAME value=NEUTRAL.
 * 0, or -1 with a diagnostic when a name is empty or longer than 64 KiB or
 * the output failed.
 */
int sc_gitkeys_neutralise(struct sc_input *in, struct sc_output *out);

#endif
