/*
 * static-server: a tiny HTTP file server standing in for a package
 * registry in the --network hosts tests.  It listens on 127.0.0.1 only,
 * serves the files under DIR (GET and HEAD; "/a/b" is DIR/a/b, or
 * DIR/a/b/index.json when that is a directory, as a registry's package
 * document beside its tarballs; the query dropped, ".." refused), one process per connection, and appends each
 * request line and Host field to LOG.
 *
 *   static-server PORTFILE DIR LOG
 *
 * PORTFILE receives the port once the server listens.  An alarm ends the
 * server after 120 seconds whatever happens, so a test that fails never
 * leaves it behind.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void reply(int fd, const char *status, const char *type, off_t len)
{
	char head[256];
	int n = snprintf(head, sizeof(head), "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
			 "Content-Length: %lld\r\nConnection: close\r\n\r\n",
			 status, type, (long long)len);

	if (write(fd, head, (size_t)n) != n)
		exit(0);
}

static void serve(int fd, const char *dir, const char *log)
{
	char req[8192], path[4096], *sp, *end, *host;
	size_t len = 0;
	ssize_t n;
	struct stat st;
	int file, head, lf;

	while (len < sizeof(req) - 1 && (n = read(fd, req + len, sizeof(req) - 1 - len)) > 0) {
		len += (size_t)n;
		req[len] = '\0';
		if (strstr(req, "\r\n\r\n"))
			break;
	}
	req[len] = '\0';
	lf = open(log, O_WRONLY | O_APPEND | O_CREAT, 0600);
	host = strcasestr(req, "\r\nhost:");
	if (lf >= 0) {
		dprintf(lf, "%.*s %.*s\n", (int)strcspn(req, "\r\n"), req,
			host ? (int)strcspn(host + 2, "\r\n") : 0, host ? host + 2 : "");
		close(lf);
	}
	head = !strncmp(req, "HEAD ", 5);
	if (strncmp(req, "GET ", 4) && !head)
		goto notfound;
	sp = req + (head ? 5 : 4);
	end = sp + strcspn(sp, " ?#");
	*end = '\0';
	if (*sp != '/' || strstr(sp, ".."))
		goto notfound;
	snprintf(path, sizeof(path), "%s%s", dir, sp);
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		strncat(path, "/index.json", sizeof(path) - strlen(path) - 1);
	file = open(path, O_RDONLY);
	if (file < 0 || fstat(file, &st) < 0 || !S_ISREG(st.st_mode))
		goto notfound;
	reply(fd, "200 OK", strstr(path, ".tgz") ? "application/octet-stream" :
	      "application/json", st.st_size);
	if (!head)
		for (off_t off = 0; off < st.st_size;)
			if (sendfile(fd, file, &off, (size_t)(st.st_size - off)) <= 0)
				break;
	return;
notfound:
	reply(fd, "404 Not Found", "text/plain", 0);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin;
	socklen_t slen = sizeof(sin);
	int lfd, one = 1;
	FILE *pf;

	if (argc != 4) {
		fprintf(stderr, "usage: static-server PORTFILE DIR LOG\n");
		return 2;
	}
	alarm(120);
	signal(SIGCHLD, SIG_IGN);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) < 0 || listen(lfd, 64) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&sin, &slen) < 0)
		die("listen");
	pf = fopen(argv[1], "w");
	if (!pf || fprintf(pf, "%d\n", ntohs(sin.sin_port)) < 0 || fclose(pf))
		die(argv[1]);
	for (;;) {
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0)
			continue;
		if (!fork()) {
			close(lfd);
			serve(fd, argv[2], argv[3]);
			close(fd);
			_exit(0);
		}
		close(fd);
	}
}
