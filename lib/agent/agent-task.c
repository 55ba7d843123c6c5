/*
 * One task of an attempt for sc-agent(1): everything its main did beyond
 * the options, so the main only parses them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent-programs.h"
#include "agent-task.h"
#include "alloc.h"
#include "approve.h"
#include "diag.h"
#include "io.h"
#include "record.h"
#include "rectable.h"

/* The largest message file: a spec or a check's output, 4 MiB. */
#define MESSAGE_MAX ((size_t)4 << 20)

/* The programs file, opened: its fd, or -1 after a diagnostic. */
static int open_programs(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		sc_error_errno("PROGRAMS-UNREADABLE", "cannot open '%s'", path);
	return fd;
}

/* The programs file FD (closed here) into P: 0, -1 after a diagnostic. */
static int read_programs(int fd, struct sc_agent_programs *p)
{
	struct sc_input *in = sc_xmalloc(sizeof(*in));
	int ret;

	sc_input_init_fd(in, fd);
	ret = sc_agent_programs_read(in, p);
	free(in);
	close(fd);
	return ret;
}

/* ---- opening the conversation -------------------------------------- */

/*
 * Add a record holding FILE's text to WIRE; a message's text is also added
 * to PROMPT (what an external agent is given), when PROMPT is set.
 */
static int add_text_record(struct sc_buf *wire, const char *type,
			   const char *label, const char *source,
			   const char *file, struct sc_buf *prompt)
{
	struct sc_buf text = SC_BUF_INIT;
	struct sc_record r;

	if (sc_read_file_or_error(file, MESSAGE_MAX, "MESSAGE-TOO-LARGE",
				  "MESSAGE-UNREADABLE", &text) < 0) {
		sc_buf_release(&text);
		return -1;
	}
	if (prompt) {
		if (prompt->len)
			sc_buf_adds(prompt, "\n\n");
		sc_buf_add(prompt, text.data ? text.data : "", text.len);
	}
	sc_record_init(&r);
	sc_record_adds(&r, "type", type);
	if (!strcmp(type, "message"))
		sc_record_adds(&r, "role", "user");
	sc_record_adds(&r, "label", label);
	sc_record_adds(&r, "source", source);
	sc_record_add(&r, "text", text.data ? text.data : "", text.len);
	sc_record_encode(&r, wire);
	sc_record_release(&r);
	sc_buf_release(&text);
	return 0;
}

/* The conversation opened for appending: its fd, or -1 after a diagnostic.
 * FRESH: it is empty, so it opens with the system prompt and the tools. */
static int open_conversation(const char *path, int *fresh)
{
	struct stat st;
	int fd;

	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0 || fstat(fd, &st) < 0) {
		sc_error_errno("CONVERSATION", "cannot open the conversation");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*fresh = st.st_size == 0;
	return fd;
}

/*
 * A new conversation opens with the system prompt and the tools; every run
 * then adds its messages.  Their records into WIRE, to be written whole or
 * not at all: 0, or -1 after a diagnostic.
 */
static int conversation_records(const struct sc_agent_task *t, int fresh,
				struct sc_buf *wire, struct sc_buf *prompt)
{
	if (fresh && t->system &&
	    add_text_record(wire, "system", "trusted", "speccoder", t->system,
			    NULL) < 0)
		return -1;
	if (fresh)
		sc_agent_tool_records(wire);
	for (size_t i = 0; i < t->nr_msgs; i++)
		if (add_text_record(wire, "message", t->msgs[i].label,
				    t->msgs[i].source, t->msgs[i].file,
				    prompt) < 0)
			return -1;
	return 0;
}

/* WIRE to the conversation FD (closed here): 0, -1 after a diagnostic. */
static int write_conversation(int fd, const struct sc_buf *wire)
{
	int ret = 0;

	if (wire->len && sc_write_all(fd, wire->data, wire->len) < 0)
		ret = sc_error_errno("CONVERSATION", "cannot write the "
				     "conversation");
	close(fd);
	return ret;
}

static void write_end(const struct sc_agent_opts *o,
		      const struct sc_agent_stats *s, int status)
{
	struct sc_output out;
	struct sc_record r;

	sc_output_init_records(&out, STDOUT_FILENO, o->force_records);
	sc_record_init(&r);
	sc_agent_end_record(o, s, status, &r);
	sc_record_write(&out, &r);
	sc_output_flush(&out);
	sc_output_release(&out);
	sc_record_release(&r);
}

int sc_agent_task_run(struct sc_agent_task *t)
{
	struct sc_agent_programs prog;
	struct sc_agent_stats stats;
	struct sc_asker asker;
	struct sc_buf prompt = SC_BUF_INIT, wire = SC_BUF_INIT;
	int fd, conv, fresh = 0, ret;

	memset(&prog, 0, sizeof(prog));
	memset(&stats, 0, sizeof(stats));
	if (t->before && sc_agent_read_before(t->before, &t->o.before) < 0)
		return SC_EXIT_UNAVAILABLE;
	if ((fd = open_programs(t->programs)) < 0)
		return SC_EXIT_UNAVAILABLE;
	if (read_programs(fd, &prog) < 0)
		ret = SC_EXIT_MALFORMED;
	else if ((conv = open_conversation(t->o.conversation, &fresh)) < 0)
		ret = SC_EXIT_UNAVAILABLE;
	else if (conversation_records(t, fresh, &wire, &prompt) < 0) {
		close(conv);
		ret = SC_EXIT_UNAVAILABLE;
	} else if (write_conversation(conv, &wire) < 0)
		ret = SC_EXIT_INTERNAL;
	else if (sc_asker_open(&asker, t->answers) < 0)
		ret = SC_EXIT_UNAVAILABLE;
	else {
		t->o.prompt = prompt.data;
		t->o.prompt_len = prompt.len;
		t->o.asker = &asker;
		t->o.events_fd = STDOUT_FILENO;
		t->o.progress_fd = t->progress ? STDERR_FILENO : -1;
		t->o.status_fd = t->status_line ? STDERR_FILENO : -1;
		ret = sc_agent_run(&t->o, &prog, &stats);
		if (ret <= SC_EXIT_NO || stats.code[0])
			write_end(&t->o, &stats, ret);
		if (ret == SC_EXIT_NO && stats.code[0])
			sc_error(stats.code, "%s", stats.reason.data);
		sc_asker_close(&asker);
	}
	sc_buf_release(&stats.reason);
	sc_buf_release(&wire);
	sc_buf_release(&prompt);
	sc_agent_programs_release(&prog);
	return ret;
}
