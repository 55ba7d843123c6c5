#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "approve.h"
#include "buf.h"
#include "diag.h"
#include "hostlist.h"
#include "io.h"
#include "termtext.h"

int sc_asker_open(struct sc_asker *a, const char *script)
{
	a->script = NULL;
	a->tty = -1;
	a->out = -1;
	if (script) {
		a->script = fopen(script, "re");
		if (!a->script)
			return sc_error_errno("ANSWERS-UNREADABLE",
					      "cannot open the answers file");
		a->out = STDERR_FILENO;
		return 0;
	}
	a->tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	a->out = a->tty;
	return 0;
}

void sc_asker_close(struct sc_asker *a)
{
	if (a->script)
		fclose(a->script);
	if (a->tty >= 0)
		close(a->tty);
	a->script = NULL;
	a->tty = -1;
}

const char *sc_answer_name(enum sc_answer ans)
{
	switch (ans) {
	case SC_ANSWER_ONCE: return "once";
	case SC_ANSWER_RUN: return "run";
	case SC_ANSWER_STOP: return "stop";
	default: return "no";
	}
}

/* The length of WORD or its first letter when LINE starts with it, alone
 * or followed by a blank; else 0. */
static size_t answer_word(const char *line, const char *word)
{
	size_t n = strlen(word);

	if (!strncmp(line, word, n) && (!line[n] || line[n] == ' '))
		return n;
	if (line[0] == word[0] && (!line[1] || line[1] == ' '))
		return 1;
	return 0;
}

/*
 * The hosts after an "h" answer: entries separated by blanks or commas,
 * each checked as --allow-host checks it.  0, or -1 with *WHY.
 */
static int answer_hosts(const char *p, struct sc_strlist *hosts,
			const char **why)
{
	char entry[SC_ASK_LINE_MAX];
	size_t n, count = 0;

	for (;;) {
		p += strspn(p, " ,");
		if (!*p)
			break;
		n = strcspn(p, " ,");
		if (++count > SC_ASK_MAX_HOSTS) {
			*why = "more hosts than one answer may name";
			return -1;
		}
		memcpy(entry, p, n);   /* n < SC_ASK_LINE_MAX: p is a line */
		entry[n] = '\0';
		if (sc_host_entry_check(entry, why) < 0)
			return -1;
		sc_strlist_add(hosts, entry);
		p += n;
	}
	if (!count) {
		*why = "an answer of hosts names one at least";
		return -1;
	}
	return 0;
}

/*
 * The answers: a word or its first letter, then, where HOSTS is not 0,
 * hosts (1: may follow, 2: must).  Hosts after "o" are for this call,
 * after "r" for every call of the object in this run.
 */
static const struct {
	const char *word;
	enum sc_answer ans;
	int hosts;
} answers[] = {
	{ "once", SC_ANSWER_ONCE, 1 },
	{ "hosts", SC_ANSWER_ONCE, 2 },
	{ "run", SC_ANSWER_RUN, 1 },
	{ "stop", SC_ANSWER_STOP, 0 },
};

enum sc_answer sc_answer_parse(const char *line, struct sc_strlist *hosts,
			       const char **why)
{
	struct sc_strlist got = { NULL, 0, 0 };
	const char *unused;
	size_t k, n = 0;

	if (!why)
		why = &unused;
	*why = NULL;
	for (k = 0; k < sizeof(answers) / sizeof(*answers); k++)
		if ((n = answer_word(line, answers[k].word)))
			break;
	if (k == sizeof(answers) / sizeof(*answers))
		return SC_ANSWER_NO;   /* anything else refuses: no answer is yes */
	if (!line[n] && answers[k].hosts < 2)
		return answers[k].ans;
	if (!answers[k].hosts)
		return SC_ANSWER_NO;
	if (!hosts) {
		*why = "this call cannot be given hosts";
		return SC_ANSWER_NO;
	}
	/* All or nothing: a list with one bad entry grants none. */
	if (answer_hosts(line + n, &got, why) < 0) {
		sc_strlist_release(&got);
		return SC_ANSWER_NO;
	}
	for (size_t i = 0; i < got.nr; i++)
		sc_strlist_add(hosts, got.v[i]);
	sc_strlist_release(&got);
	return answers[k].ans;
}

/* The next byte of the terminal FD (as an int), or EOF. */
static int tty_getc(void *fd)
{
	unsigned char c;
	ssize_t n;

	while ((n = read(*(int *)fd, &c, 1)) < 0 && errno == EINTR)
		;
	return n == 1 ? c : EOF;
}

static int file_getc(void *f)
{
	return getc((FILE *)f);
}

/*
 * One line from GET(SRC), without its newline (nor a carriage return
 * before it): 0, 1 when it was longer than SIZE - 1 (the rest read and
 * dropped: LINE holds no answer then), -1 at the end or on an error.
 */
static int read_line(int (*get)(void *), void *src, char *line, size_t size)
{
	size_t len = 0;
	int c, over = 0;

	while ((c = get(src)) != EOF && c != '\n') {
		if (len + 1 < size)
			line[len++] = (char)c;
		else
			over = 1;
	}
	if (c == EOF && !len && !over)
		return -1;
	if (len && line[len - 1] == '\r')
		len--;
	line[over ? 0 : len] = '\0';
	return over;
}

static void show(int fd, const char *label, const char *text)
{
	struct sc_buf b = SC_BUF_INIT;

	/*
	 * The object and the call are the model's words: cleaned of every
	 * control, escape and bidi override, and all of them: a cut would
	 * let a long harmless start hide what the person is really asked to
	 * allow.
	 */
	sc_buf_addf(&b, "  %-8s ", label);
	sc_term_clean(&b, text ? text : "", text ? strlen(text) : 0);
	sc_buf_addch(&b, '\n');
	if (sc_write_all(fd, b.data, b.len) < 0) {
		/* A question nobody can see is answered no by the caller. */
	}
	sc_buf_release(&b);
}

static void show_parts(int fd, const struct sc_ask_part *parts, size_t nr)
{
	char label[48];
	size_t k;

	for (k = 0; k < nr; k++) {
		if (nr > 1) {
			snprintf(label, sizeof(label), "%zu of %zu", k + 1, nr);
			show(fd, "part:", label);
		}
		show(fd, "object:", parts[k].object);
		show(fd, "rule:", parts[k].rule);
	}
}

enum sc_answer sc_ask(struct sc_asker *a, const char *what,
		      const struct sc_ask_part *parts, size_t nr,
		      const char *reason, struct sc_strlist *hosts,
		      const char **how)
{
	struct sc_buf q = SC_BUF_INIT;
	char line[SC_ASK_LINE_MAX];
	const char *why = NULL;
	enum sc_answer ans;
	int failed, got;

	if (a->out < 0) {
		*how = "no-terminal";
		return SC_ANSWER_NO;
	}
	show(a->out, "asks:", what);
	show_parts(a->out, parts, nr);
	show(a->out, "why:", reason);
	if (hosts)
		/* The command gets no network unless the answer names hosts:
		 * a person who knows it needs a registry says which. */
		sc_buf_adds(&q, "  hosts after o or r (o HOST[:PORT],...) give "
			    "it the network to those hosts only\n");
	if (nr > 1)
		sc_buf_addf(&q, "  allow all %zu parts [o]nce, for this [r]un, "
			    "[n]o, or [s]top the attempt? ", nr);
	else
		sc_buf_adds(&q, "  allow it [o]nce, for this [r]un, [n]o, or "
			    "[s]top the attempt? ");
	failed = sc_write_all(a->out, q.data, q.len) < 0;
	sc_buf_release(&q);
	if (failed) {
		*how = "no-terminal";
		return SC_ANSWER_NO;
	}
	if (a->script) {
		char clean[SC_ASK_LINE_MAX + 1];

		got = read_line(file_getc, a->script, line, sizeof(line));
		*how = got < 0 ? "script-exhausted" : "script";
		if (got < 0)
			line[0] = '\0';
		/* Echo the scripted answer where a person's would appear. */
		sc_term_clean_into(clean, sizeof(clean) - 1, line, strlen(line));
		strcat(clean, "\n");
		if (write(a->out, clean, strlen(clean)) < 0)
			*how = "no-terminal";
	} else {
		got = read_line(tty_getc, &a->tty, line, sizeof(line));
		*how = got < 0 ? "no-terminal" : "person";
		if (got < 0)
			line[0] = '\0';
	}
	if (got > 0) {
		ans = SC_ANSWER_NO;
		why = "the answer is longer than an answer can be";
	} else {
		ans = sc_answer_parse(line, hosts, &why);
	}
	if (why) {
		struct sc_buf m = SC_BUF_INIT;

		sc_buf_addf(&m, "  refused: %s; nothing is allowed\n", why);
		if (sc_write_all(a->out, m.data, m.len) < 0) {
			/* the answer stays no either way */
		}
		sc_buf_release(&m);
	}
	return ans;
}
