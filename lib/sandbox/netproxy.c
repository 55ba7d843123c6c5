/*
 * The host proxy of --network hosts.  See netproxy.h for what it promises;
 * the comments below say why each step is where it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "io.h"
#include "landlock.h"
#include "netproxy.h"
#include "opt.h"
#include "proxyreq.h"
#include "record.h"
#include "seccomp-filter.h"

/* A client has this long to send its request head. */
#define HEAD_TIMEOUT_MS 10000
/* Connecting to one address may take this long. */
#define CONNECT_TIMEOUT_MS 10000
/*
 * Bytes in flight per direction: a pipe grown to 1 MiB (the default
 * /proc/sys/fs/pipe-max-size) moves a download in few system calls.
 */
#define RELAY_CHUNK (1 << 20)

static const char *const proxy_env[] = {
	"HTTP_PROXY=http://" SC_NETPROXY_ADDR ":3128",
	"HTTPS_PROXY=http://" SC_NETPROXY_ADDR ":3128",
	"ALL_PROXY=http://" SC_NETPROXY_ADDR ":3128",
	"http_proxy=http://" SC_NETPROXY_ADDR ":3128",
	"https_proxy=http://" SC_NETPROXY_ADDR ":3128",
	"all_proxy=http://" SC_NETPROXY_ADDR ":3128",
	/* The namespace's own loopback is reached directly, never proxied. */
	"NO_PROXY=localhost,127.0.0.1,::1",
	"no_proxy=localhost,127.0.0.1,::1",
	NULL,
};

const char *const *sc_netproxy_env(void)
{
	return proxy_env;
}

/* 1 when VAR ("NAME=value") sets a variable proxy_env sets. */
static int proxy_var(const char *var)
{
	size_t i, n = strcspn(var, "=");

	for (i = 0; proxy_env[i]; i++)
		if (!strncmp(proxy_env[i], var, n) && proxy_env[i][n] == '=')
			return 1;
	return 0;
}

char **sc_netproxy_env_apply(char *const *env)
{
	size_t n = 0, k = 0, i;
	char **out;

	while (env[n])
		n++;
	out = sc_xcalloc(n + sizeof(proxy_env) / sizeof(*proxy_env), sizeof(*out));
	for (i = 0; i < n; i++)
		if (!proxy_var(env[i]))
			out[k++] = sc_xstrdup(env[i]);
	for (i = 0; proxy_env[i]; i++)
		out[k++] = sc_xstrdup(proxy_env[i]);
	out[k] = NULL;
	return out;
}

int sc_netproxy_open_log(const char *where)
{
	unsigned long long n;
	int fd;

	if (*where && strspn(where, "0123456789") == strlen(where)) {
		if (sc_parse_uint(where, 1 << 20, &n) ||
		    (fd = fcntl((int)n, F_DUPFD_CLOEXEC, 3)) < 0)
			return sc_error_errno("BAD-CONNECTIONS", "--connections: "
					      "no descriptor %s", where);
		return fd;
	}
	fd = open(where, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return sc_error_errno("BAD-CONNECTIONS", "cannot open '%s'", where);
	return fd;
}

/* What happened to one connection: the record's fields. */
struct conn {
	int client, up;
	const struct sc_hostlist *hosts;
	int log_fd;
	struct sc_proxy_req req;
	char address[INET6_ADDRSTRLEN];
	const char *decision, *reason;
	unsigned long long bytes_out, bytes_in;
	int socks;                    /* 1: a SOCKS5 client; 2: greeted */
};

/* SOCKS5 replies (RFC 1928): the bound address is never told. */
static const char socks_ok[] = "\x05\x00\x00\x01\x00\x00\x00\x00\x00\x00";
static const char socks_denied[] = "\x05\x02\x00\x01\x00\x00\x00\x00\x00\x00";
static const char socks_unreachable[] = "\x05\x04\x00\x01\x00\x00\x00\x00\x00\x00";

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until FD has EVENTS or DEADLINE (ms, monotonic) passes: 1, 0, -1. */
static int wait_fd(int fd, short events, long long deadline)
{
	for (;;) {
		struct pollfd p = { fd, events, 0 };
		long long left = deadline - now_ms();
		int n;

		if (left <= 0)
			return 0;
		n = poll(&p, 1, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? -1 : n > 0;
	}
}

static void write_record(const struct conn *c)
{
	struct sc_record rec;
	struct sc_buf b = SC_BUF_INIT;
	char num[32];

	if (c->log_fd < 0)
		return;
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "connection");
	sc_record_adds(&rec, "method", c->req.kind == SC_PROXY_CONNECT ?
		       "connect" : c->req.kind == SC_PROXY_HTTP ? "http" :
		       c->req.kind == SC_PROXY_SOCKS ? "socks5" : "none");
	sc_record_adds(&rec, "host", c->req.host);
	snprintf(num, sizeof(num), "%u", c->req.port);
	sc_record_adds(&rec, "port", num);
	sc_record_adds(&rec, "decision", c->decision);
	if (c->reason)
		sc_record_adds(&rec, "reason", c->reason);
	if (c->address[0])
		sc_record_adds(&rec, "address", c->address);
	snprintf(num, sizeof(num), "%llu", c->bytes_out);
	sc_record_adds(&rec, "bytes-out", num);
	snprintf(num, sizeof(num), "%llu", c->bytes_in);
	sc_record_adds(&rec, "bytes-in", num);
	sc_record_encode(&rec, &b);
	/* One write: records of concurrent connections never interleave. */
	if (write(c->log_fd, b.data, b.len) != (ssize_t)b.len)
		sc_warning("LOG-FAILED", "cannot write a connection record");
	sc_buf_release(&b);
	sc_record_release(&rec);
}

/* Refuse: a 403 (or 502) the client shows, a warning, the record. */
static void refuse(struct conn *c, int status, const char *reason)
{
	struct sc_buf b = SC_BUF_INIT;
	char body[512];
	int n;

	/* 403: the list says no; 502: allowed, but it could not be reached. */
	c->decision = status == 403 ? "deny" : "error";
	c->reason = reason;
	n = snprintf(body, sizeof(body), "sc-sandbox-exec: refused %s:%u: %s\n",
		     c->req.host[0] ? c->req.host : "?", c->req.port, reason);
	if (n < 0 || (size_t)n >= sizeof(body))
		n = (int)strlen(body);
	if (c->socks == 1)   /* no method it offered is acceptable */
		sc_buf_add(&b, "\x05\xff", 2);
	else if (c->socks)
		sc_buf_add(&b, status == 403 ? socks_denied : socks_unreachable,
			   sizeof(socks_ok) - 1);
	else
		sc_buf_addf(&b, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\n"
			    "Connection: close\r\nContent-Length: %d\r\n\r\n%s",
			    status, status == 403 ? "Forbidden" : "Bad Gateway",
			    n, body);
	sc_write_all(c->client, b.data, b.len);
	sc_buf_release(&b);
	sc_warning(status == 403 ? "HOST-REFUSED" : "HOST-UNREACHABLE",
		   "%s %s:%u: %s", status == 403 ? "refused" : "cannot reach",
		   c->req.host[0] ? c->req.host : "?", c->req.port, reason);
	write_record(c);
}

/*
 * A SOCKS5 client (its first byte is 5): answer the greeting once it is
 * whole, then wait for the request.  As sc_socks5_parse.
 */
static int read_socks(struct conn *c, struct sc_buf *in, const char **why)
{
	size_t greeting;
	int r;

	if (!c->socks)
		c->socks = 1;
	r = sc_socks5_parse((const unsigned char *)in->data, in->len, &c->req,
			    &greeting, why);
	if ((r == 3 || r == 1) && c->socks == 1) {
		if (sc_write_all(c->client, "\x05\x00", 2) < 0) {
			*why = "cannot answer the client";
			return -1;
		}
		c->socks = 2;
	}
	return r == 0 ? 3 : r;
}

/* Read the request head into IN; 1 parsed, -1 refused (reason set). */
static int read_head(struct conn *c, struct sc_buf *in)
{
	long long deadline = now_ms() + HEAD_TIMEOUT_MS;
	const char *why = "not an HTTP proxy request";

	for (;;) {
		ssize_t n;
		int r = wait_fd(c->client, POLLIN, deadline);

		if (r <= 0) {
			c->reason = r ? "cannot read the request" :
				    "no request head within 10 seconds";
			return -1;
		}
		sc_buf_grow(in, 4096);
		n = read(c->client, in->data + in->len, 4096);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			c->reason = "the client closed before its request";
			return -1;
		}
		sc_buf_setlen(in, in->len + (size_t)n);
		if (in->data[0] == 5) {
			r = read_socks(c, in, &why);
			if (r == 3)
				continue;
		} else {
			r = sc_proxy_req_parse(in->data, in->len, &c->req, &why);
		}
		if (r > 0)
			return 1;
		if (r < 0) {
			c->reason = why;
			return -1;
		}
	}
}

static void set_port(struct sockaddr_storage *ss, unsigned port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
}

/* Connect to SA within the deadline; the socket, or -1. */
static int connect_addr(const struct sockaddr *sa, socklen_t len)
{
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int err = 0, one = 1;
	socklen_t elen = sizeof(err);

	if (fd < 0)
		return -1;
	if (connect(fd, sa, len) < 0 &&
	    (errno != EINPROGRESS ||
	     wait_fd(fd, POLLOUT, now_ms() + CONNECT_TIMEOUT_MS) <= 0 ||
	     getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0 || err)) {
		close(fd);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static void note_address(struct conn *c, const struct sockaddr *sa)
{
	const void *a = sa->sa_family == AF_INET ?
		(const void *)&((const struct sockaddr_in *)sa)->sin_addr :
		(const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr;

	if (!inet_ntop(sa->sa_family, a, c->address, sizeof(c->address)))
		c->address[0] = '\0';
}

/*
 * Try ADDR: refused when internal and not listed; else connected.
 * 1 connected, 0 skipped as internal, -1 could not connect.
 */
static int try_addr(struct conn *c, struct sockaddr_storage *ss, socklen_t len)
{
	set_port(ss, c->req.port);
	if (sc_addr_is_internal((struct sockaddr *)ss) &&
	    !sc_hostlist_lists_addr(c->hosts, (struct sockaddr *)ss, c->req.port))
		return 0;
	note_address(c, (struct sockaddr *)ss);
	c->up = connect_addr((struct sockaddr *)ss, len);
	return c->up >= 0 ? 1 : -1;
}

/*
 * The system's resolver, NSS modules and all.  The statically linked
 * sc-sandbox-exec must not load them (twin.h): its twin serves --network
 * hosts, and this copy refuses every name.
 */
static int resolve(const char *name, const struct addrinfo *hints,
		   struct addrinfo **res)
{
#ifdef SC_STATIC_EXE
	(void)name;
	(void)hints;
	*res = NULL;
	return EAI_FAIL;
#else
	return getaddrinfo(name, NULL, hints, res);
#endif
}

static void resolved_free(struct addrinfo *res)
{
#ifdef SC_STATIC_EXE
	(void)res;
#else
	freeaddrinfo(res);
#endif
}

/* Judge the host, resolve it ourselves, connect.  0, or -1 refused. */
static int open_upstream(struct conn *c, int *status)
{
	struct sc_host_req hr;
	struct addrinfo hints, *res = NULL, *ai;
	struct sockaddr_storage ss;
	const char *why;
	int internal = 0, r;

	*status = 403;
	if (sc_host_req_parse(c->req.host, strlen(c->req.host), &hr, &why) < 0) {
		c->reason = why;
		return -1;
	}
	/* Before any resolver sees the name: unlisted names go nowhere. */
	if (!sc_hostlist_allows(c->hosts, &hr, c->req.port)) {
		c->reason = "the host and port are not on the list";
		return -1;
	}
	memset(&ss, 0, sizeof(ss));
	if (hr.family) {
		ss.ss_family = (sa_family_t)hr.family;
		if (hr.family == AF_INET)
			memcpy(&((struct sockaddr_in *)&ss)->sin_addr, hr.addr, 4);
		else
			memcpy(&((struct sockaddr_in6 *)&ss)->sin6_addr, hr.addr, 16);
		r = try_addr(c, &ss, hr.family == AF_INET ?
			     sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
		if (r > 0)
			return 0;
		*status = 502;
		c->reason = "cannot connect";
		return -1;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (resolve(hr.name, &hints, &res) != 0) {
		*status = 502;
		c->reason = "cannot resolve the host";
		return -1;
	}
	for (ai = res, r = 0; ai && r <= 0; ai = ai->ai_next) {
		if (ai->ai_addrlen > sizeof(ss) ||
		    (ai->ai_family != AF_INET && ai->ai_family != AF_INET6))
			continue;
		memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
		r = try_addr(c, &ss, ai->ai_addrlen);
		internal |= !r;
	}
	resolved_free(res);
	if (r > 0)
		return 0;
	c->reason = internal && !c->address[0] ?
		    "the host resolves to an internal address" : "cannot connect";
	if (!internal || c->address[0])
		*status = 502;
	return -1;
}

/* One direction of the relay: FROM -> pipe -> TO, never copied to us. */
struct dir {
	int from, to;
	int p[2];
	size_t pending, cap;            /* in the pipe; what it holds */
	int eof, done;
	unsigned long long *count;
};

static int dir_open(struct dir *d, int from, int to, unsigned long long *count)
{
	int n;

	d->from = from;
	d->to = to;
	d->pending = 0;
	d->eof = d->done = 0;
	d->count = count;
	if (pipe2(d->p, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	/* A smaller pipe only costs more system calls; its real size keeps
	 * poll from waking for a source we cannot take from. */
	(void)fcntl(d->p[1], F_SETPIPE_SZ, RELAY_CHUNK);
	n = fcntl(d->p[1], F_GETPIPE_SZ);
	d->cap = n > 0 ? (size_t)n : 4096;
	return 0;
}

/*
 * Move what FROM has into the pipe, then at once what the pipe holds to
 * TO: a write that would block says so (EAGAIN), and trying it without
 * waiting for poll halves the rounds of a download.
 */
static void dir_step(struct dir *d, short rev_from)
{
	ssize_t n;

	if (!d->eof && d->pending < d->cap &&
	    (rev_from & (POLLIN | POLLHUP | POLLERR))) {
		n = splice(d->from, NULL, d->p[1], NULL, d->cap - d->pending,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0)
			d->pending += (size_t)n;
		else if (n == 0 || (errno != EAGAIN && errno != EINTR))
			d->eof = 1;
	}
	if (d->pending) {
		n = splice(d->p[0], NULL, d->to, NULL, d->pending,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0) {
			d->pending -= (size_t)n;
			*d->count += (unsigned long long)n;
		} else if (n < 0 && errno != EAGAIN && errno != EINTR) {
			d->eof = 1;
			d->pending = 0;   /* the reader is gone */
		}
	}
	if (d->eof && !d->pending && !d->done) {
		shutdown(d->to, SHUT_WR);
		d->done = 1;
	}
}

/* Relay both ways until both are done. */
static void relay(struct conn *c)
{
	struct dir d[2];

	if (dir_open(&d[0], c->client, c->up, &c->bytes_out) < 0)
		return;
	if (dir_open(&d[1], c->up, c->client, &c->bytes_in) < 0) {
		close(d[0].p[0]);
		close(d[0].p[1]);
		return;
	}
	fcntl(c->client, F_SETFL, fcntl(c->client, F_GETFL) | O_NONBLOCK);
	fcntl(c->up, F_SETFL, fcntl(c->up, F_GETFL) | O_NONBLOCK);
	while (!d[0].done || !d[1].done) {
		struct pollfd p[2] = { { c->client, 0, 0 }, { c->up, 0, 0 } };
		int i;

		for (i = 0; i < 2; i++) {
			int src = i == 0 ? 0 : 1, dst = 1 - src;

			if (!d[i].eof && d[i].pending < d[i].cap)
				p[src].events |= POLLIN;
			if (d[i].pending)
				p[dst].events |= POLLOUT;
		}
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		dir_step(&d[0], p[0].revents);
		dir_step(&d[1], p[1].revents);
		/* A side that failed for writing ends the other direction. */
		if ((p[0].revents | p[1].revents) & POLLERR)
			if (d[0].done || d[1].done)
				break;
	}
	for (int i = 0; i < 2; i++) {
		close(d[i].p[0]);
		close(d[i].p[1]);
	}
}

/*
 * The client's first bytes of a tunnel.  TLS clients speak first: a
 * ClientHello must name the CONNECT host.  When the server speaks first,
 * there is no hello to judge.  0 go on (bytes kept in FIRST), -1 refused.
 */
static int check_sni(struct conn *c, struct sc_buf *first)
{
	char sni[256];
	size_t need = 5, h = strlen(c->req.host);
	int r = 2;

	/* Bytes sent with the CONNECT are judged before any is read. */
	while (!first->len || (r = sc_tls_sni((const unsigned char *)first->data,
					       first->len, sni, sizeof(sni),
					       &need)) == 2) {
		struct pollfd p[2] = { { c->client, POLLIN, 0 }, { c->up, POLLIN, 0 } };
		size_t want = need > first->len ? need - first->len : 1;
		ssize_t n;

		if (!first->len) {
			if (poll(p, 2, -1) < 0) {
				if (errno == EINTR)
					continue;
				c->reason = "cannot wait for the client";
				return -1;
			}
			if (!p[0].revents && p[1].revents)
				return 0;   /* the server spoke first */
		}
		sc_buf_grow(first, want);
		n = read(c->client, first->data + first->len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			c->reason = "the client left in the middle of a TLS hello";
			return first->len ? -1 : 0;
		}
		sc_buf_setlen(first, first->len + (size_t)n);
	}
	if (r == 0)
		return 0;
	if (r < 0) {
		c->reason = "an unreadable TLS ClientHello";
		return -1;
	}
	/* The name as the CONNECT gave it, one trailing dot aside. */
	if (strcasecmp(sni, c->req.host) &&
	    !(strlen(sni) == h + 1 && sni[h] == '.' &&
	      !strncasecmp(sni, c->req.host, h))) {
		c->reason = "the TLS server name is not the CONNECT host";
		return -1;
	}
	return 0;
}

static const char established[] = "HTTP/1.1 200 Connection established\r\n\r\n";

static void serve_tunnel(struct conn *c, struct sc_buf *extra)
{
	const char *ok = c->socks ? socks_ok : established;
	size_t n = c->socks ? sizeof(socks_ok) - 1 : sizeof(established) - 1;

	if (sc_write_all(c->client, ok, n) < 0)
		return;
	if (check_sni(c, extra) < 0) {
		c->decision = "deny";
		sc_warning("HOST-REFUSED", "refused %s:%u: %s", c->req.host,
			   c->req.port, c->reason);
		return;
	}
	if (extra->len && sc_write_all(c->up, extra->data, extra->len) < 0)
		return;
	c->bytes_out += extra->len;
	relay(c);
}

static void serve_http(struct conn *c, struct sc_buf *extra)
{
	if (sc_write_all(c->up, c->req.upstream.data, c->req.upstream.len) < 0 ||
	    (extra->len && sc_write_all(c->up, extra->data, extra->len) < 0))
		return;
	c->bytes_out += c->req.upstream.len + extra->len;
	relay(c);
}

/* One connection, in a process of its own. */
static void serve(int client, const struct sc_hostlist *hosts, int log_fd)
{
	struct conn c;
	struct sc_buf in = SC_BUF_INIT, extra = SC_BUF_INIT;
	int status;

	memset(&c, 0, sizeof(c));
	c.client = client;
	c.up = -1;
	c.hosts = hosts;
	c.log_fd = log_fd;
	c.decision = "allow";
	sc_proxy_req_init(&c.req);
	if (read_head(&c, &in) < 0) {
		refuse(&c, 403, c.reason);
	} else if (open_upstream(&c, &status) < 0) {
		refuse(&c, status, c.reason);
	} else {
		sc_buf_add(&extra, in.data + c.req.head_len,
			   in.len - c.req.head_len);
		if (c.req.kind == SC_PROXY_CONNECT || c.req.kind == SC_PROXY_SOCKS)
			serve_tunnel(&c, &extra);
		else
			serve_http(&c, &extra);
		write_record(&c);
	}
	if (c.up >= 0)
		close(c.up);
	sc_proxy_req_release(&c.req);
	sc_buf_release(&in);
	sc_buf_release(&extra);
}

/* Reap ended connections without waiting; how many. */
static int reap(void)
{
	int n = 0;

	while (waitpid(-1, NULL, WNOHANG) > 0)
		n++;
	return n;
}

/*
 * SIGTERM: the command has ended, so every client socket is closed and
 * each connection ends as soon as its relay sees that.  Let them end and
 * write their records, then exit; sc_netproxy_stop kills what is left
 * after its grace.  Only async-signal-safe calls, and it never returns.
 */
static void drain_and_exit(int sig)
{
	(void)sig;
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	_exit(0);
}

static _Noreturn void accept_loop(int lfd, const struct sc_hostlist *hosts,
				  int log_fd)
{
	struct sigaction sa;
	int active = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = drain_and_exit;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);

	for (;;) {
		int fd;
		pid_t pid;

		active -= reap();
		/* At the cap, wait for one to end: the rest wait in the backlog. */
		while (active >= SC_NETPROXY_MAX_CONNS) {
			if (waitpid(-1, NULL, 0) > 0)
				active--;
			else if (errno == ECHILD)
				active = 0;   /* none left: never spin */
		}
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED ||
			    errno == EMFILE || errno == ENFILE || errno == ENOBUFS)
				continue;
			sc_error_errno("PROXY-FAILED", "cannot accept");
			_exit(1);
		}
		pid = fork();
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			signal(SIGTERM, SIG_DFL);
			close(lfd);
			serve(fd, hosts, log_fd);
			_exit(0);
		}
		if (pid > 0)
			active++;
		close(fd);
	}
}

/* Control data with room for one descriptor, aligned for a cmsghdr. */
union fd_cmsg {
	char buf[CMSG_SPACE(sizeof(int))];
	struct cmsghdr align;
};

/* MSG for the hand-over of the listener: the byte at IOV and U's room. */
static void fd_msg(struct msghdr *msg, struct iovec *iov, union fd_cmsg *u)
{
	memset(msg, 0, sizeof(*msg));
	memset(u, 0, sizeof(*u));
	msg->msg_iov = iov;
	msg->msg_iovlen = 1;
	msg->msg_control = u->buf;
	msg->msg_controllen = sizeof(u->buf);
}

/* Receive the listener the namespace's init hands over. */
static int recv_listener(int sock)
{
	char data;
	union fd_cmsg u;
	struct iovec iov = { &data, 1 };
	struct msghdr msg;
	struct cmsghdr *cm;
	int fd;

	fd_msg(&msg, &iov, &u);
	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) <= 0)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS ||
	    cm->cmsg_len != CMSG_LEN(sizeof(int)))
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/*
 * The proxy's own confinement: it parses bytes from the sandbox, so it
 * may write nothing (its log descriptor is already open), never gain
 * privileges, and makes none of the system calls the sandbox's filter
 * refuses (ptrace, io_uring, bpf, mounts, namespaces; inet sockets stay).
 * Reading stays: the resolver reads /etc.
 */
static int confine_proxy(void)
{
	struct sc_landlock ll = { 0, -1, 0 };
	int abi = sc_landlock_abi();

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return sc_error_errno("PROXY-FAILED", "cannot set no_new_privs");
	if (abi <= 0)
		return sc_seccomp_apply(SC_NET_LOOPBACK);
	if (sc_landlock_open(&ll, abi, 0) < 0 ||
	    sc_landlock_allow(&ll, "/", SC_LL_READ) < 0 ||
	    sc_landlock_enforce(&ll) < 0) {
		sc_landlock_close(&ll);
		return -1;
	}
	sc_landlock_close(&ll);
	return sc_seccomp_apply(SC_NET_LOOPBACK);
}

/* Close every descriptor above 2 but A and B (either may be -1). */
static void close_others(int a, int b)
{
	int keep[2] = { a < b ? a : b, a < b ? b : a }, i;
	unsigned from = 3;

	for (i = 0; i < 2; i++) {
		if (keep[i] < (int)from)
			continue;
		if ((unsigned)keep[i] > from)
			close_range(from, (unsigned)keep[i] - 1, 0);
		from = (unsigned)keep[i] + 1;
	}
	close_range(from, ~0U, 0);
}

/*
 * The caller's stdin and stdout are not the proxy's: holding them would
 * keep a pipe open that the caller waits on.  Stderr stays, for refusals.
 */
static void null_stdio(int log_fd)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	if (log_fd != STDIN_FILENO)
		dup2(fd, STDIN_FILENO);
	if (log_fd != STDOUT_FILENO)
		dup2(fd, STDOUT_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

static _Noreturn void proxy_main(pid_t parent, int sock,
				 const struct sc_hostlist *hosts, int log_fd)
{
	sigset_t none;
	int lfd;

	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent)
		_exit(1);
	/* Our own group: stopping the proxy kills its connections too. */
	setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGINT, SIG_IGN);   /* the supervisor decides when we end */
	signal(SIGTERM, SIG_DFL);
	close_others(sock, log_fd);
	null_stdio(log_fd);
	if (confine_proxy() < 0)
		_exit(1);
	lfd = recv_listener(sock);
	close(sock);
	if (lfd < 0)
		_exit(0);   /* the namespace never started */
	accept_loop(lfd, hosts, log_fd);
}

int sc_netproxy_start(struct sc_netproxy *np, const struct sc_hostlist *hosts,
		      int log_fd)
{
	pid_t parent = getpid();
	int sp[2];

	np->pid = 0;
	np->inside = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0)
		return sc_error_errno("PROXY-FAILED", "cannot make a socket pair");
	np->pid = fork();
	if (np->pid < 0) {
		np->pid = 0;
		close(sp[0]);
		close(sp[1]);
		return sc_error_errno("PROXY-FAILED", "cannot start the proxy");
	}
	if (np->pid == 0) {
		close(sp[1]);
		proxy_main(parent, sp[0], hosts, log_fd);
	}
	/* Either end may be the group leader's: set it from both sides. */
	setpgid(np->pid, np->pid);
	close(sp[0]);
	np->inside = sp[1];
	return 0;
}

int sc_netproxy_listen_inside(int fd)
{
	struct sockaddr_in sin;
	int lfd, one = 1, ret = 0;
	char data = 'L';
	union fd_cmsg u;
	struct iovec iov = { &data, 1 };
	struct msghdr msg;
	struct cmsghdr *cm;

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0) {
		close(fd);
		return sc_error_errno("NETWORK-FAILED", "cannot open the proxy's "
				      "listener");
	}
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(SC_NETPROXY_PORT);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ||
	    listen(lfd, 128) < 0) {
		ret = sc_error_errno("NETWORK-FAILED", "cannot listen on %s:%d",
				     SC_NETPROXY_ADDR, SC_NETPROXY_PORT);
	} else {
		fd_msg(&msg, &iov, &u);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &lfd, sizeof(int));
		if (sendmsg(fd, &msg, MSG_NOSIGNAL) != 1)
			ret = sc_error_errno("NETWORK-FAILED", "cannot hand the "
					     "listener to the proxy");
	}
	close(lfd);
	close(fd);
	return ret;
}

void sc_netproxy_stop(struct sc_netproxy *np)
{
	if (np->inside >= 0) {
		close(np->inside);
		np->inside = -1;
	}
	if (np->pid > 0) {
		/* Each connection writes its record as it ends: give them a
		 * moment (their clients are gone), then end what is left. */
		int waited = 0;
		pid_t w = 0;

		kill(np->pid, SIGTERM);
		while (waited < SC_NETPROXY_GRACE_MS &&
		       (w = waitpid(np->pid, NULL, WNOHANG)) == 0) {
			(void)poll(NULL, 0, 5);
			waited += 5;
		}
		/* Not reaped yet: its pid (and group) cannot be another's. */
		if (w != np->pid) {
			kill(-np->pid, SIGKILL);
			kill(np->pid, SIGKILL);
			while (waitpid(np->pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	}
	np->pid = 0;
}
