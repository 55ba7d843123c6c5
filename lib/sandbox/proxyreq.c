/*
 * Parsing what a sandboxed client sends the host proxy.  Strict where
 * being lenient would let one request mean two things to two parsers (the
 * proxy and the upstream server): one Host, no folded fields, one request
 * per connection.
 */
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>

#include "bytes.h"
#include "hostlist.h"
#include "proxyreq.h"

/* A TLS record holds at most 2^14 bytes of plaintext (+2048 slack). */
#define TLS_RECORD_MAX (16384 + 2048)

void sc_proxy_req_init(struct sc_proxy_req *r)
{
	memset(r, 0, sizeof(*r));
	sc_buf_init(&r->upstream);
}

void sc_proxy_req_release(struct sc_proxy_req *r)
{
	sc_buf_release(&r->upstream);
}

static int is_tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* Where the head ends (after its blank line), or 0 when not yet. */
static size_t head_end(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (buf[i + 1] == '\n')
			return i + 2;
		if (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/* One line [*P, eol) without its CR LF; *P moves past it. */
static size_t next_line(const char **p, const char *end, const char **line)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	size_t n;

	*line = *p;
	if (!nl)
		nl = end;
	n = (size_t)(nl - *p);
	*p = nl < end ? nl + 1 : end;
	if (n && (*line)[n - 1] == '\r')
		n--;
	return n;
}

/*
 * AUTHORITY (N bytes) as host[:port] or [v6][:port] into HOST (256
 * bytes) and *PORT (DEFPORT when absent; 0 DEFPORT: a port is required).
 */
static int parse_authority(const char *a, size_t n, unsigned defport,
			   char *host, unsigned *port, const char **why)
{
	const char *h = a, *colon = NULL;
	size_t hn;

	*why = "a host[:port] is wanted";
	if (!n || memchr(a, '@', n)) {
		if (n)
			*why = "user information in the address is refused";
		return -1;
	}
	if (a[0] == '[') {
		const char *close = memchr(a, ']', n);

		if (!close)
			return -1;
		h = a + 1;
		hn = (size_t)(close - a - 1);
		if ((size_t)(close - a) + 1 < n) {
			if (close[1] != ':')
				return -1;
			colon = close + 1;
		}
	} else {
		colon = memchr(a, ':', n);
		hn = colon ? (size_t)(colon - a) : n;
	}
	if (!hn || hn > 255 || memchr(h, '\0', hn))
		return -1;
	if (colon) {
		if (sc_port_parse(colon + 1, (size_t)(a + n - colon - 1), port) < 0) {
			*why = "a port is a number from 1 to 65535";
			return -1;
		}
	} else if (defport) {
		*port = defport;
	} else {
		*why = "CONNECT wants host:port";
		return -1;
	}
	memcpy(host, h, hn);
	host[hn] = '\0';
	return 0;
}

/* Fields never forwarded: hop-by-hop, proxy credentials, and Host. */
static int dropped_field(const char *name, size_t n)
{
	static const char *const drop[] = {
		"connection", "proxy-connection", "keep-alive", "proxy-authorization",
		"proxy-authenticate", "te", "trailer", "upgrade", "host", NULL,
	};
	size_t i;

	for (i = 0; drop[i]; i++)
		if (strlen(drop[i]) == n && !strncasecmp(drop[i], name, n))
			return 1;
	return 0;
}

/* A Host field must name the request's host and port. */
static int host_field_ok(const char *v, size_t n, const struct sc_proxy_req *r)
{
	char host[256];
	unsigned port;
	const char *why;

	while (n && (*v == ' ' || *v == '\t'))
		v++, n--;
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	if (parse_authority(v, n, 80, host, &port, &why) < 0)
		return 0;
	return port == r->port && !strcasecmp(host, r->host);
}

static int parse_fields(const char *p, const char *end, struct sc_proxy_req *r,
			const char **why)
{
	int hosts = 0;
	const char *line;
	size_t n;

	while (p < end && (n = next_line(&p, end, &line)) > 0) {
		const char *colon = memchr(line, ':', n);
		size_t i, nn = colon ? (size_t)(colon - line) : 0;

		if (!nn) {
			*why = "a header field without a name";
			return -1;
		}
		for (i = 0; i < nn; i++)
			if (!is_tchar((unsigned char)line[i])) {
				*why = "a folded or malformed header field";
				return -1;
			}
		for (i = nn; i < n; i++)
			if ((unsigned char)line[i] < ' ' && line[i] != '\t') {
				*why = "a control character in a header field";
				return -1;
			}
		if (nn == 4 && !strncasecmp(line, "host", 4)) {
			if (++hosts > 1 || (r->kind == SC_PROXY_HTTP &&
			    !host_field_ok(colon + 1, n - nn - 1, r))) {
				*why = "the Host field names another host";
				return -1;
			}
		}
		if (r->kind == SC_PROXY_HTTP && !dropped_field(line, nn)) {
			sc_buf_add(&r->upstream, line, n);
			sc_buf_adds(&r->upstream, "\r\n");
		}
	}
	return 0;
}

/* "METHOD TARGET HTTP/1.x" into R; TARGET's path into the upstream head. */
static int parse_request_line(const char *line, size_t n,
			      struct sc_proxy_req *r, const char **why)
{
	const char *sp1 = memchr(line, ' ', n), *sp2, *t, *end = line + n;
	const char *path;
	size_t tn, i;

	*why = "not an HTTP proxy request";
	if (!sp1 || sp1 == line || sp1 - line > 16)
		return -1;
	for (t = line; t < sp1; t++)
		if (!is_tchar((unsigned char)*t))
			return -1;
	t = sp1 + 1;
	sp2 = memchr(t, ' ', (size_t)(end - t));
	if (!sp2 || (size_t)(end - sp2 - 1) != 8 ||
	    (strncmp(sp2 + 1, "HTTP/1.1", 8) && strncmp(sp2 + 1, "HTTP/1.0", 8)))
		return -1;
	tn = (size_t)(sp2 - t);
	for (i = 0; i < tn; i++)
		if ((unsigned char)t[i] <= ' ' || (unsigned char)t[i] >= 0x7f)
			return -1;
	if ((size_t)(sp1 - line) == 7 && !strncmp(line, "CONNECT", 7)) {
		r->kind = SC_PROXY_CONNECT;
		return parse_authority(t, tn, 0, r->host, &r->port, why);
	}
	if (tn < 7 || strncasecmp(t, "http://", 7)) {
		*why = "only CONNECT and http:// requests go through the proxy";
		return -1;
	}
	r->kind = SC_PROXY_HTTP;
	t += 7;
	tn -= 7;
	for (path = t; path < t + tn && !strchr("/?#", *path); path++)
		;
	if (parse_authority(t, (size_t)(path - t), 80, r->host, &r->port, why) < 0)
		return -1;
	sc_buf_add(&r->upstream, line, (size_t)(sp1 - line) + 1);
	if (path == t + tn || *path != '/')
		sc_buf_addch(&r->upstream, '/');
	/* A fragment is never sent to a server. */
	for (i = 0; path + i < t + tn && path[i] != '#'; i++)
		;
	sc_buf_add(&r->upstream, path, i);
	sc_buf_add(&r->upstream, sp2, 9);
	sc_buf_adds(&r->upstream, "\r\n");
	return 0;
}

/* Bytes no HTTP head holds: refuse garbage before a head is complete. */
static int looks_binary(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if ((c < ' ' && c != '\r' && c != '\n' && c != '\t') || c == 0x7f)
			return 1;
	}
	return 0;
}

int sc_proxy_req_parse(const char *buf, size_t len, struct sc_proxy_req *r,
		       const char **why)
{
	size_t end = head_end(buf, len > SC_PROXY_HEAD_MAX ? SC_PROXY_HEAD_MAX : len);
	const char *p = buf, *line;
	size_t n;

	sc_buf_reset(&r->upstream);
	r->kind = 0;
	if (looks_binary(buf, end ? end : len)) {
		*why = "not an HTTP proxy request";
		return -1;
	}
	if (!end) {
		if (len < SC_PROXY_HEAD_MAX)
			return 0;
		*why = "a request head longer than 16 KiB";
		return -1;
	}
	r->head_len = end;
	n = next_line(&p, buf + end, &line);
	if (parse_request_line(line, n, r, why) < 0 ||
	    parse_fields(p, buf + end, r, why) < 0)
		return -1;
	if (r->kind == SC_PROXY_HTTP) {
		const char *colon = strchr(r->host, ':');

		/* One Host, ours, and one request per connection. */
		sc_buf_addf(&r->upstream, "Host: %s%s%s", colon ? "[" : "",
			    r->host, colon ? "]" : "");
		if (r->port != 80)
			sc_buf_addf(&r->upstream, ":%u", r->port);
		sc_buf_adds(&r->upstream, "\r\nConnection: close\r\n\r\n");
	}
	return 1;
}

/* ---- SOCKS5 (RFC 1928), CONNECT with no authentication --------- */

int sc_socks5_parse(const unsigned char *buf, size_t len,
		    struct sc_proxy_req *r, size_t *greeting, const char **why)
{
	size_t g, need, alen;
	const unsigned char *q;

	*why = "not a SOCKS5 request";
	if (len < 1 || buf[0] != 5)
		return len ? -1 : 0;
	if (len < 2 || len < 2 + (size_t)buf[1])
		return 0;
	g = 2 + (size_t)buf[1];
	if (!memchr(buf + 2, 0, buf[1])) {
		*why = "a SOCKS5 client that offers no authentication-free method";
		return -1;
	}
	*greeting = g;
	q = buf + g;
	len -= g;
	if (len < 5)
		return 3;
	if (q[0] != 5 || q[2] != 0) {
		*why = "a malformed SOCKS5 request";
		return -1;
	}
	if (q[1] != 1) {
		*why = "only the SOCKS5 CONNECT command goes through the proxy";
		return -1;
	}
	switch (q[3]) {
	case 1: alen = 4; need = 4 + 4 + 2; break;
	case 4: alen = 16; need = 4 + 16 + 2; break;
	case 3: alen = q[4]; need = 4 + 1 + alen + 2; break;
	default:
		*why = "a SOCKS5 address type that is not IPv4, IPv6 or a name";
		return -1;
	}
	if (len < need)
		return 3;
	r->kind = SC_PROXY_SOCKS;
	if (q[3] == 3) {
		if (!alen || memchr(q + 5, 0, alen)) {
			*why = "an empty SOCKS5 host name or one holding NUL";
			return -1;
		}
		memcpy(r->host, q + 5, alen);
		r->host[alen] = '\0';
	} else if (!inet_ntop(q[3] == 1 ? AF_INET : AF_INET6, q + 4, r->host,
			      sizeof(r->host))) {
		return -1;
	}
	r->port = (unsigned)q[need - 2] << 8 | q[need - 1];
	if (!r->port) {
		*why = "a port is a number from 1 to 65535";
		return -1;
	}
	r->head_len = g + need;
	return 1;
}

/* ---- TLS ClientHello -------------------------------------------- */

/* The server_name extension's host_name; 1 found, -1 malformed. */
static int sni_name(struct sc_bytes ext, char *out, size_t outsz)
{
	struct sc_bytes list, name;
	size_t type, i;

	if (sc_bytes_vec(&ext, 2, &list) < 0 || ext.len)
		return -1;
	while (list.len) {
		if (sc_bytes_uint(&list, 1, &type) < 0 || sc_bytes_vec(&list, 2, &name) < 0)
			return -1;
		if (type != 0)
			continue;
		if (!name.len || name.len >= outsz)
			return -1;
		for (i = 0; i < name.len; i++)
			if (name.p[i] <= ' ' || name.p[i] >= 0x7f)
				return -1;
		memcpy(out, name.p, name.len);
		out[name.len] = '\0';
		return 1;
	}
	return -1;
}

static int parse_hello(struct sc_bytes c, char *out, size_t outsz)
{
	struct sc_bytes skip, exts, ext;
	size_t type, found = 0;
	int ret = 0;

	if (sc_bytes_take(&c, 2 + 32, NULL) < 0 || sc_bytes_vec(&c, 1, &skip) < 0 ||
	    sc_bytes_vec(&c, 2, &skip) < 0 || sc_bytes_vec(&c, 1, &skip) < 0)
		return -1;
	if (!c.len)
		return 0;   /* no extensions: no server name */
	if (sc_bytes_vec(&c, 2, &exts) < 0)
		return -1;
	while (exts.len) {
		if (sc_bytes_uint(&exts, 2, &type) < 0 || sc_bytes_vec(&exts, 2, &ext) < 0)
			return -1;
		if (type != 0)
			continue;
		/* Two server names would mean two things: refuse. */
		if (found++ || (ret = sni_name(ext, out, outsz)) < 0)
			return -1;
	}
	return ret;
}

int sc_tls_sni(const unsigned char *buf, size_t len, char *out, size_t outsz,
	       size_t *need)
{
	struct sc_bytes c, hs;
	size_t rec, type, hlen;

	*need = 5;
	if (!len || buf[0] != 0x16)
		return 0;
	if (len < 5)
		return 2;
	rec = (size_t)buf[3] << 8 | buf[4];
	if (buf[1] != 3 || rec < 4 || rec > TLS_RECORD_MAX)
		return -1;
	*need = 5 + rec;
	if (len < *need)
		return 2;
	c = (struct sc_bytes){ buf + 5, rec };
	/* A hello split over several records is refused, not guessed at. */
	if (sc_bytes_uint(&c, 1, &type) < 0 || type != 1 || sc_bytes_uint(&c, 3, &hlen) < 0 ||
	    hlen != c.len)
		return -1;
	hs = (struct sc_bytes){ c.p, hlen };
	return parse_hello(hs, out, outsz);
}
