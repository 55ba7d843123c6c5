#ifndef SC_APPROVE_H
#define SC_APPROVE_H

/*
 * Asking a person about one call the policy could not decide.  The question
 * shows every part that asks, each with its resolved object and rule, and
 * the reason; the answer covers exactly those objects once, or for the
 * rest of the run, or refuses them, or stops the attempt.  Answers come from the terminal, or, for demonstrations and
 * tests, from a file of scripted answers the person wrote.
 */

#include <stdio.h>

#include "strlist.h"

enum sc_answer {
	SC_ANSWER_ONCE,
	SC_ANSWER_RUN,
	SC_ANSWER_NO,
	SC_ANSWER_STOP,
};

struct sc_asker {
	FILE *script;     /* scripted answers, one a line; NULL: the terminal */
	int tty;          /* the terminal, or -1 */
	int out;          /* where questions are printed */
};

/* Open the asker: SCRIPT names the answers file, or NULL for /dev/tty. */
int sc_asker_open(struct sc_asker *a, const char *script);
void sc_asker_close(struct sc_asker *a);

/* One part of a call that asks: the object a grant names, and its rule. */
struct sc_ask_part {
	const char *object;
	const char *rule;
};

/* The most hosts one answer may name, and the longest answer line. */
#define SC_ASK_MAX_HOSTS 16
#define SC_ASK_LINE_MAX 1024

/*
 * Ask about WHAT (a one-line description of the call), its NR PARTS (every
 * part that asks, each with its object and rule: the answer covers exactly
 * those) and REASON.  Everything shown is cleaned for the terminal
 * (termtext.h) and shown whole.  Without a terminal or a scripted answer
 * left, the answer is no; *HOW says where the answer came from ("person",
 * "script", "no-terminal", "script-exhausted").
 *
 * HOSTS, when not NULL (a command the sandbox can give a host list), lets
 * the answer name hosts: "o HOST[:PORT][,HOST[:PORT]]..." (or "h ...",
 * "hosts ...") allows this call once, "r HOST..." every call of the same
 * objects in this run, with the network to exactly those hosts, which
 * are added to HOSTS (checked as sc-sandbox-exec --allow-host checks
 * them).  A bad or missing host, more than SC_ASK_MAX_HOSTS, or a line
 * longer than SC_ASK_LINE_MAX is no, never a shorter list: a cut name is
 * another host.  With HOSTS NULL an answer naming hosts is no.
 */
enum sc_answer sc_ask(struct sc_asker *a, const char *what,
		      const struct sc_ask_part *parts, size_t nr,
		      const char *reason, struct sc_strlist *hosts,
		      const char **how);

/*
 * Parse one answer LINE into its answer; the hosts it names go to
 * HOSTS (NULL: refused).  On a refused host list, the answer is no and
 * *WHY (when not NULL) says why in a static sentence, the entry not named.
 */
enum sc_answer sc_answer_parse(const char *line, struct sc_strlist *hosts,
			       const char **why);

const char *sc_answer_name(enum sc_answer ans);

#endif
