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

/*
 * Ask about WHAT (a one-line description of the call), its NR PARTS (every
 * part that asks, each with its object and rule: the answer covers exactly
 * those) and REASON.  Everything shown is cleaned for the terminal
 * (termtext.h) and shown whole.  Without a terminal or a scripted answer
 * left, the answer is no; *HOW says where the answer came from ("person",
 * "script", "no-terminal", "script-exhausted").
 */
enum sc_answer sc_ask(struct sc_asker *a, const char *what,
		      const struct sc_ask_part *parts, size_t nr,
		      const char *reason, const char **how);

const char *sc_answer_name(enum sc_answer ans);

#endif
