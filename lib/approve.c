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

static enum sc_answer parse_answer(const char *line)
{
	if (!strcmp(line, "o") || !strcmp(line, "once"))
		return SC_ANSWER_ONCE;
	if (!strcmp(line, "r") || !strcmp(line, "run"))
		return SC_ANSWER_RUN;
	if (!strcmp(line, "s") || !strcmp(line, "stop"))
		return SC_ANSWER_STOP;
	return SC_ANSWER_NO;   /* anything else refuses: no answer is yes */
}

/* One line from FD, without its newline; -1 at the end or on an error. */
static int read_tty_line(int fd, char *line, size_t size)
{
	size_t len = 0;
	char c;

	for (;;) {
		ssize_t n = read(fd, &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return len ? 0 : -1;
		if (c == '\n')
			break;
		if (len + 1 < size)
			line[len++] = c;
	}
	line[len] = '\0';
	return 0;
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
		      const char *reason, const char **how)
{
	static const char question[] =
		"  allow it [o]nce, for this [r]un, [n]o, or [s]top the attempt? ";
	struct sc_buf q = SC_BUF_INIT;
	char line[64];
	int failed;

	if (a->out < 0) {
		*how = "no-terminal";
		return SC_ANSWER_NO;
	}
	show(a->out, "asks:", what);
	show_parts(a->out, parts, nr);
	show(a->out, "why:", reason);
	if (nr > 1)
		sc_buf_addf(&q, "  allow all %zu parts [o]nce, for this [r]un, "
			    "[n]o, or [s]top the attempt? ", nr);
	else
		sc_buf_adds(&q, question);
	failed = sc_write_all(a->out, q.data, q.len) < 0;
	sc_buf_release(&q);
	if (failed) {
		*how = "no-terminal";
		return SC_ANSWER_NO;
	}
	if (a->script) {
		char clean[64];

		if (!fgets(line, sizeof(line), a->script)) {
			*how = "script-exhausted";
			line[0] = '\0';
		} else {
			*how = "script";
			line[strcspn(line, "\r\n")] = '\0';
		}
		/* Echo the scripted answer where a person's would appear. */
		sc_term_clean_into(clean, sizeof(clean) - 1, line, strlen(line));
		strcat(clean, "\n");
		if (write(a->out, clean, strlen(clean)) < 0)
			*how = "no-terminal";
	} else if (read_tty_line(a->tty, line, sizeof(line)) < 0) {
		*how = "no-terminal";
		line[0] = '\0';
	} else {
		*how = "person";
	}
	return parse_answer(line);
}
