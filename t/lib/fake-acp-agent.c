/*
 * fake-acp-agent: an Agent Client Protocol agent for sc-acp's tests,
 * scripted step by step, well-behaved or not.
 *
 *   fake-acp-agent SCRIPT LOG
 *
 * Every line it receives is appended to LOG.  SCRIPT holds one step a line
 * (blank lines and lines starting with # are skipped):
 *
 *   expect METHOD     read the next message; it must be a request or
 *                     notification of METHOD (else exit 3); a request's
 *                     id becomes the one `reply` answers
 *   reply JSON        answer that request with result JSON
 *   reply-error CODE MESSAGE
 *   reply-id N JSON   answer with id N instead (a wrong id)
 *   request METHOD JSON   send a request (ids 100, 101, ...) and wait for
 *                     its response (other lines are only logged)
 *   notify METHOD JSON    send a notification
 *   say TEXT          session/update agent_message_chunk for session s1
 *   raw TEXT          write TEXT and a newline as they are
 *   huge N            write one line of N bytes inside a JSON string
 *   bigwrite PATH N   request fs/write_text_file of PATH with N bytes of
 *                     content (session s1) and wait for its response
 *   flood N           send N tool_call_update notifications for one call
 *   write FILE TEXT   write TEXT to FILE (a settings change)
 *   copy SRC DST      read SRC itself (not through ACP) into DST
 *   symlink TARGET LINK   make LINK a symlink to TARGET
 *   env FILE          write its environment to FILE, one variable a line
 *   child PIDFILE     start `sleep 300` in the background, in the agent's
 *                     process group, with its pid in PIDFILE
 *   sleep N           sleep N seconds
 *   hang              stop answering: sleep until killed
 *   exit N            exit with status N at once
 *
 * After the last step it logs its input until EOF, then exits 0.  An
 * alarm ends it after 120 seconds whatever happens.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

struct agent {
	FILE *log;
	long long last_id;     /* the id of the last expected request */
	int have_id;
	long long next_id;
};

static void fail(const char *what, const char *detail)
{
	fprintf(stderr, "fake-acp-agent: %s%s%s\n", what, detail ? ": " : "",
		detail ? detail : "");
	exit(3);
}

/* Read one line from stdin into *LINE, logging it; 0 at EOF. */
static int get_line(struct agent *ag, char **line, size_t *cap)
{
	ssize_t n = getline(line, cap, stdin);

	if (n < 0)
		return 0;
	fputs(*line, ag->log);
	if ((*line)[n - 1] != '\n')
		fputc('\n', ag->log);
	fflush(ag->log);
	return 1;
}

static void put(const char *text)
{
	if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF ||
	    fflush(stdout) == EOF)
		exit(errno == EPIPE ? 0 : 4);
}

/* The value of the first "id": member of LINE, when it is a number. */
static int find_id(const char *line, long long *id)
{
	const char *p = strstr(line, "\"id\":");
	char *end;

	if (!p)
		return 0;
	*id = strtoll(p + 5, &end, 10);
	return end != p + 5;
}

/* 1 when LINE is a message of METHOD. */
static int has_method(const char *line, const char *method)
{
	char want[256];

	snprintf(want, sizeof(want), "\"method\":\"%s\"", method);
	return strstr(line, want) != NULL;
}

static void expect(struct agent *ag, const char *method)
{
	char *line = NULL;
	size_t cap = 0;

	if (!get_line(ag, &line, &cap))
		fail("input ended, expected", method);
	if (!has_method(line, method))
		fail("unexpected message, expected", method);
	ag->have_id = find_id(line, &ag->last_id);
	free(line);
}

static void reply(long long id, const char *json)
{
	char *buf;

	if (asprintf(&buf, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"result\":%s}", id,
		     json) < 0)
		fail("out of memory", NULL);
	put(buf);
	free(buf);
}

static void reply_error(struct agent *ag, const char *rest)
{
	char *end, *buf;
	long code = strtol(rest, &end, 10);

	if (asprintf(&buf, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"error\":"
		     "{\"code\":%ld,\"message\":\"%s\"}}", ag->last_id, code,
		     *end ? end + 1 : "") < 0)
		fail("out of memory", NULL);
	put(buf);
	free(buf);
}

/* Split "WORD REST" in place: returns REST ("" when none). */
static char *split(char *s)
{
	char *sp = strchr(s, ' ');

	if (!sp)
		return s + strlen(s);
	*sp = '\0';
	return sp + 1;
}

static void request(struct agent *ag, char *rest)
{
	char *params = split(rest), *buf, *line = NULL;
	size_t cap = 0;
	long long id = ag->next_id++, got;

	if (asprintf(&buf, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"method\":\"%s\","
		     "\"params\":%s}", id, rest, *params ? params : "{}") < 0)
		fail("out of memory", NULL);
	put(buf);
	free(buf);
	for (;;) {
		if (!get_line(ag, &line, &cap))
			fail("input ended, waiting for the response to", rest);
		if (!strstr(line, "\"method\":") && find_id(line, &got) &&
		    got == id)
			break;
	}
	free(line);
}

static void notify(const char *method, const char *params)
{
	char *buf;

	if (asprintf(&buf, "{\"jsonrpc\":\"2.0\",\"method\":\"%s\","
		     "\"params\":%s}", method, *params ? params : "{}") < 0)
		fail("out of memory", NULL);
	put(buf);
	free(buf);
}

static void say(const char *text)
{
	char *buf;

	if (asprintf(&buf, "{\"sessionId\":\"s1\",\"update\":{\"sessionUpdate\":"
		     "\"agent_message_chunk\",\"content\":{\"type\":\"text\","
		     "\"text\":\"%s\"}}}", text) < 0)
		fail("out of memory", NULL);
	notify("session/update", buf);
	free(buf);
}

static void huge(const char *count)
{
	static const char head[] = "{\"jsonrpc\":\"2.0\",\"method\":\"x\","
				   "\"params\":{\"x\":\"";
	size_t n = strtoul(count, NULL, 10), h = sizeof(head) - 1;
	char *buf = malloc(h + n + 4);

	if (!buf)
		fail("out of memory", NULL);
	memcpy(buf, head, h);
	memset(buf + h, 'x', n);
	strcpy(buf + h + n, "\"}}");
	put(buf);
	free(buf);
}

static void bigwrite(struct agent *ag, char *rest)
{
	char *count = split(rest), *params;
	size_t n = strtoul(count, NULL, 10), off;
	static const char head[] = "{\"sessionId\":\"s1\",\"path\":\"";

	params = malloc(strlen(head) + strlen(rest) + n + 32);
	if (!params)
		fail("out of memory", NULL);
	strcpy(params, head);
	strcat(params, rest);
	strcat(params, "\",\"content\":\"");
	off = strlen(params);
	memset(params + off, 'x', n);
	strcpy(params + off + n, "\"}");
	{
		char *req;

		if (asprintf(&req, "fs/write_text_file %s", params) < 0)
			fail("out of memory", NULL);
		free(params);
		request(ag, req);
		free(req);
	}
}

static void flood(const char *count)
{
	unsigned long n = strtoul(count, NULL, 10), i;
	char buf[256];

	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "{\"sessionId\":\"s1\",\"update\":"
			 "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":"
			 "\"flood\",\"title\":\"step %lu\"}}", i);
		notify("session/update", buf);
	}
}

static void write_file(char *rest)
{
	char *text = split(rest);
	FILE *f = fopen(rest, "w");

	if (!f || fputs(text, f) == EOF || fclose(f) == EOF)
		fail("cannot write", rest);
}

/* Read SRC with the agent's own rights (not through ACP) into DST, as an
 * agent's built-in file tool would; "unreadable" when it cannot. */
static void copy_file(char *rest)
{
	char *dst = split(rest), buf[4096];
	FILE *in = fopen(rest, "r"), *out = fopen(dst, "w");
	size_t n;

	if (!out)
		fail("cannot write", dst);
	if (!in)
		fputs("unreadable\n", out);
	while (in && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	if (in)
		fclose(in);
	if (fclose(out) == EOF)
		fail("cannot write", dst);
}

extern char **environ;

static void dump_env(const char *file)
{
	FILE *f = fopen(file, "w");
	char **e;

	if (!f)
		fail("cannot write", file);
	for (e = environ; *e; e++)
		fprintf(f, "%s\n", *e);
	if (fclose(f) == EOF)
		fail("cannot write", file);
}

static void child(const char *pidfile)
{
	pid_t pid = fork();
	FILE *f;

	if (pid < 0)
		fail("cannot fork", NULL);
	if (pid == 0) {
		execlp("sleep", "sleep", "300", (char *)NULL);
		_exit(127);
	}
	f = fopen(pidfile, "w");
	if (!f || fprintf(f, "%ld\n", (long)pid) < 0 || fclose(f) == EOF)
		fail("cannot write", pidfile);
}

static void step(struct agent *ag, char *line)
{
	char *rest = split(line);

	if (!strcmp(line, "expect"))
		expect(ag, rest);
	else if (!strcmp(line, "reply"))
		reply(ag->last_id, *rest ? rest : "{}");
	else if (!strcmp(line, "reply-error"))
		reply_error(ag, rest);
	else if (!strcmp(line, "reply-id")) {
		char *json = split(rest);

		reply(strtoll(rest, NULL, 10), json);
	} else if (!strcmp(line, "request"))
		request(ag, rest);
	else if (!strcmp(line, "notify")) {
		char *params = split(rest);

		notify(rest, params);
	} else if (!strcmp(line, "say"))
		say(rest);
	else if (!strcmp(line, "raw"))
		put(rest);
	else if (!strcmp(line, "huge"))
		huge(rest);
	else if (!strcmp(line, "bigwrite"))
		bigwrite(ag, rest);
	else if (!strcmp(line, "flood"))
		flood(rest);
	else if (!strcmp(line, "write"))
		write_file(rest);
	else if (!strcmp(line, "copy"))
		copy_file(rest);
	else if (!strcmp(line, "symlink")) {
		char *link = split(rest);

		if (symlink(rest, link) < 0)
			fail("cannot symlink", link);
	} else if (!strcmp(line, "env"))
		dump_env(rest);
	else if (!strcmp(line, "child"))
		child(rest);
	else if (!strcmp(line, "sleep"))
		sleep((unsigned)strtoul(rest, NULL, 10));
	else if (!strcmp(line, "hang"))
		for (;;)
			pause();
	else if (!strcmp(line, "exit"))
		exit((int)strtol(rest, NULL, 10));
	else
		fail("unknown step", line);
}

int main(int argc, char *argv[])
{
	struct agent ag = { NULL, 0, 0, 100 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *script;

	if (argc != 3)
		fail("usage: fake-acp-agent SCRIPT LOG", NULL);
	alarm(120);
	signal(SIGPIPE, SIG_IGN);
	script = fopen(argv[1], "r");
	ag.log = fopen(argv[2], "a");
	if (!script || !ag.log)
		fail("cannot open the script or the log", NULL);
	while ((n = getline(&line, &cap, script)) >= 0) {
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (!n || line[0] == '#')
			continue;
		step(&ag, line);
	}
	fclose(script);
	while (get_line(&ag, &line, &cap))
		;
	free(line);
	return 0;
}
