#ifndef SC_PROXYREQ_H
#define SC_PROXYREQ_H

/*
 * What a sandboxed client asks the host proxy (lib/sandbox/netproxy.c): the head
 * of an HTTP proxy request, and the server name of a TLS ClientHello.
 * Pure parsers over bytes, fuzzed (t/fuzz/fuzz-proxyreq.c): every input
 * here comes from code the sandbox does not trust.
 */

#include <stddef.h>

#include "buf.h"

/* A request head is at most this long; a longer one is refused. */
#define SC_PROXY_HEAD_MAX 16384

enum sc_proxy_kind {
	SC_PROXY_CONNECT = 1,   /* CONNECT host:port: a tunnel */
	SC_PROXY_HTTP,          /* GET http://host/... : forwarded */
	SC_PROXY_SOCKS,         /* SOCKS5 CONNECT: a tunnel */
};

struct sc_proxy_req {
	int kind;
	char host[256];         /* as written, brackets removed; not judged */
	unsigned port;
	size_t head_len;        /* bytes of the head, the blank line included */
	/*
	 * SC_PROXY_HTTP: the head to send upstream: the request line in
	 * origin form, hop-by-hop and Proxy-* fields dropped, one Host field
	 * and "Connection: close", so one connection carries one request to
	 * one host.
	 */
	struct sc_buf upstream;
};

void sc_proxy_req_init(struct sc_proxy_req *r);
void sc_proxy_req_release(struct sc_proxy_req *r);

/*
 * Parse the head at the start of BUF (LEN bytes read so far).  1 when a
 * whole head was parsed into R, 0 when more bytes are needed, -1 with *WHY
 * (a static sentence) when it is refused: not HTTP, another method than
 * CONNECT for a tunnel, a scheme other than http, user information, a
 * Host field naming another host, folded or malformed fields, a head
 * longer than SC_PROXY_HEAD_MAX.
 */
int sc_proxy_req_parse(const char *buf, size_t len, struct sc_proxy_req *r,
		       const char **why);

/*
 * A SOCKS5 client's greeting and CONNECT request at the start of BUF (LEN
 * bytes so far).  -1 with *WHY when refused (not version 5, no "no
 * authentication" method offered, another command than CONNECT, a bad
 * address type); 0 when the greeting is not whole; 3 when the greeting
 * is whole (*GREETING its length: answer it) but the request is not; 1
 * when both are, with R filled (kind SC_PROXY_SOCKS, host, port, head_len
 * the bytes of both).
 */
int sc_socks5_parse(const unsigned char *buf, size_t len,
		    struct sc_proxy_req *r, size_t *greeting, const char **why);

/*
 * The server name (SNI) of the TLS ClientHello at the start of BUF.
 * 1 with the name in OUT (OUTSZ bytes, NUL-terminated), 0 when the bytes
 * are no TLS handshake or the hello names no server, 2 when more bytes are
 * needed (*NEED is the size of the whole record), -1 when it is a
 * handshake that cannot be read (refused: fail closed).
 */
int sc_tls_sni(const unsigned char *buf, size_t len, char *out, size_t outsz,
	       size_t *need);

#endif
