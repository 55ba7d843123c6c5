/*
 * model-server: a tiny HTTP server for sc-model's tests.  It listens on
 * 127.0.0.1 only, answers one connection per response file, in order,
 * records each request's exact bytes, then exits.
 *
 *   model-server PORTFILE REQPREFIX RESPONSE...
 *
 * PORTFILE receives the port once the server listens.  Request N (from 1)
 * is written to REQPREFIX.N.  A response file is an HTTP response written
 * with plain newlines: the server turns the header lines' "\n" into "\r\n",
 * adds "Connection: close", replaces "Content-Length: auto" with the body's
 * length, and sends the body as it is.  Directives on the first lines:
 *
 *   @drop        read the request, then close without answering
 *   @sleep N     wait N seconds before answering
 *
 * In a body (which may be binary: it is sent as its bytes), for streams:
 *
 *   @@pause N@@  send what came before, wait N milliseconds, go on
 *   @@cut@@      send what came before, then close the connection
 *
 * An alarm ends the server after 60 seconds whatever happens, so a test
 * that fails never leaves it behind.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t cap = 0, n;

	if (!f)
		die(path);
	*len = 0;
	do {
		if (*len + 4096 > cap) {
			cap = cap * 2 + 8192;
			data = realloc(data, cap + 1);
			if (!data)
				die("realloc");
		}
		n = fread(data + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	data[*len] = '\0';
	return data;
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return;   /* the client went away: nothing to do */
		p += w;
		n -= (size_t)w;
	}
}

/* Read one request: headers, then Content-Length bytes of body. */
static char *read_request(int fd, size_t *len)
{
	size_t cap = 65536, need = 0;
	char *buf = malloc(cap + 1), *end;

	if (!buf)
		die("malloc");
	*len = 0;
	for (;;) {
		ssize_t r;

		buf[*len] = '\0';
		end = strstr(buf, "\r\n\r\n");
		if (end && !need) {
			const char *cl = strcasestr(buf, "\r\ncontent-length:");

			need = (size_t)(end + 4 - buf) +
			       (cl && cl < end ? strtoul(cl + 17, NULL, 10) : 0);
		}
		if (need && *len >= need)
			return buf;
		if (*len == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			if (!buf)
				die("realloc");
		}
		r = read(fd, buf + *len, cap - *len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return buf;
		*len += (size_t)r;
	}
}

static void save(const char *prefix, int n, const char *data, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s.%d", prefix, n);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		die(path);
}

/* Send a body of LEN bytes, honouring @@pause N@@ and @@cut@@. */
static void send_body(int fd, const char *body, size_t len)
{
	const char *end = body + len;

	while (body < end) {
		const char *m = memmem(body, (size_t)(end - body), "@@", 2);

		if (!m) {
			write_all(fd, body, (size_t)(end - body));
			return;
		}
		write_all(fd, body, (size_t)(m - body));
		if ((size_t)(end - m) >= 7 && !memcmp(m, "@@cut@@", 7))
			return;
		if ((size_t)(end - m) >= 9 && !memcmp(m, "@@pause ", 8)) {
			unsigned long ms = strtoul(m + 8, NULL, 10);
			const char *close_ = memmem(m + 8, (size_t)(end - m - 8),
						    "@@", 2);

			usleep((useconds_t)(ms * 1000));
			body = close_ ? close_ + 2 : end;
			continue;
		}
		write_all(fd, m, 2);
		body = m + 2;
	}
}

/* Send RESP (LEN bytes: a response file's text after its directives). */
static void answer(int fd, const char *resp, size_t len)
{
	const char *sep = memmem(resp, len, "\n\n", 2);
	const char *body = sep ? sep + 2 : resp + len;
	size_t hlen = sep ? (size_t)(sep - resp) : len;
	size_t blen = len - (size_t)(body - resp);
	char *head = strndup(resp, hlen), *line, *save_ptr = NULL;
	char num[64];

	if (!head)
		die("strndup");
	for (line = strtok_r(head, "\n", &save_ptr); line;
	     line = strtok_r(NULL, "\n", &save_ptr)) {
		if (!strcasecmp(line, "Content-Length: auto")) {
			snprintf(num, sizeof(num), "Content-Length: %zu", blen);
			line = num;
		}
		write_all(fd, line, strlen(line));
		write_all(fd, "\r\n", 2);
	}
	write_all(fd, "Connection: close\r\n\r\n", 21);
	send_body(fd, body, blen);
	free(head);
}

static void serve(int fd, const char *path)
{
	size_t len;
	char *resp = slurp(path, &len), *p = resp;

	for (;;) {
		if (!strncmp(p, "@drop\n", 6))
			goto out;
		if (!strncmp(p, "@sleep ", 7)) {
			sleep((unsigned)strtoul(p + 7, NULL, 10));
			p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
			continue;
		}
		break;
	}
	answer(fd, p, len - (size_t)(p - resp));
out:
	free(resp);
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr;
	socklen_t alen = sizeof(addr);
	char tmp[4096];
	FILE *f;
	int lfd, i, one = 1;

	if (argc < 4) {
		fprintf(stderr, "usage: model-server PORTFILE REQPREFIX RESPONSE...\n");
		return 2;
	}
	alarm(60);
	signal(SIGPIPE, SIG_IGN);   /* a client that timed out is not fatal */
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);   /* loopback only */
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(lfd, 8) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&addr, &alen) < 0)
		die("listen");
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%u\n", ntohs(addr.sin_port)) < 0 || fclose(f) ||
	    rename(tmp, argv[1]))
		die(argv[1]);
	for (i = 3; i < argc; i++) {
		size_t len;
		char *req;
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EINTR) {
				i--;
				continue;
			}
			die("accept");
		}
		req = read_request(fd, &len);
		save(argv[2], i - 2, req, len);
		free(req);
		serve(fd, argv[i]);
		shutdown(fd, SHUT_WR);
		close(fd);
	}
	close(lfd);
	return 0;
}
