#include "../lib/tap.h"

#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "hostlist.h"
#include "proxyreq.h"

static int add(struct sc_hostlist *hl, const char *e)
{
	const char *why = NULL;
	int r = sc_hostlist_add(hl, e, &why);

	if (r < 0)
		assert_non_null(why);
	return r;
}

static int allows(const struct sc_hostlist *hl, const char *host, unsigned port)
{
	struct sc_host_req req;
	const char *why;

	if (sc_host_req_parse(host, strlen(host), &req, &why) < 0)
		return -1;
	return sc_hostlist_allows(hl, &req, port);
}

static void test_entries_refused(void **state)
{
	static const char *const bad[] = {
		"", "*", "*:443", "https://example.com", "example.com/path",
		"10.0.0.0/8", "10.0.0.1-9", "exa*mple.com", "*.com", "**.example.com",
		"example.com:0", "example.com:65536", "example.com:99999",
		"example.com:+80", "example.com:08", "b\xc3\xbc" "cher.de", "a b.com",
		"user@example.com", "-a.example.com", "a-.example.com", "a..b",
		"127.1", "0x7f.0.0.1", "2130706433", "0x7f000001", "[::1",
		"[::1]x", "[example.com]", "foo.1", "a_b.example.com", ".",
		"example.com:", "*.example.com.com:ab",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com",
		NULL,
	};
	struct sc_hostlist hl = SC_HOSTLIST_INIT;
	size_t i;

	(void)state;
	for (i = 0; bad[i]; i++) {
		if (add(&hl, bad[i]) != -1)
			fail_msg("accepted '%s'", bad[i]);
	}
	assert_int_equal(hl.nr, 0);
}

static void test_entries_accepted(void **state)
{
	static const char *const good[] = {
		"example.com", "Registry.NPMjs.org:443", "*.crates.io", "a.b.c:8080",
		"127.0.0.1:18080", "::1", "[::1]:8080", "xn--bcher-kva.de",
		"example.com.", "1.2.3.4", "10.0.0.1:65535", NULL,
	};
	struct sc_hostlist hl = SC_HOSTLIST_INIT;
	size_t i;

	(void)state;
	for (i = 0; good[i]; i++)
		if (add(&hl, good[i]) != 0)
			fail_msg("refused '%s'", good[i]);
	assert_int_equal(hl.nr, 11);
	assert_string_equal(hl.v[1].name, "registry.npmjs.org");
	assert_int_equal(hl.v[1].port, 443);
	assert_true(hl.v[2].wildcard);
	assert_null(hl.v[4].name);
	assert_int_equal(hl.v[4].family, AF_INET);
	assert_int_equal(hl.v[6].family, AF_INET6);
	assert_int_equal(hl.v[6].port, 8080);
	sc_hostlist_release(&hl);
}

static void test_matching(void **state)
{
	struct sc_hostlist hl = SC_HOSTLIST_INIT;

	(void)state;
	assert_int_equal(add(&hl, "registry.npmjs.org"), 0);
	assert_int_equal(add(&hl, "*.example.com:8443"), 0);
	assert_int_equal(add(&hl, "127.0.0.1:18080"), 0);
	/* no port: 80 and 443 only */
	assert_int_equal(allows(&hl, "registry.npmjs.org", 443), 1);
	assert_int_equal(allows(&hl, "REGISTRY.npmjs.org.", 80), 1);
	assert_int_equal(allows(&hl, "registry.npmjs.org", 22), 0);
	/* a neighbour, a suffix trick, a parent */
	assert_int_equal(allows(&hl, "evil-registry.npmjs.org", 443), 0);
	assert_int_equal(allows(&hl, "registry.npmjs.org.evil.com", 443), 0);
	assert_int_equal(allows(&hl, "npmjs.org", 443), 0);
	/* wildcard: strictly beneath, on its port */
	assert_int_equal(allows(&hl, "a.b.example.com", 8443), 1);
	assert_int_equal(allows(&hl, "example.com", 8443), 0);
	assert_int_equal(allows(&hl, "xexample.com", 8443), 0);
	assert_int_equal(allows(&hl, "a.example.com", 443), 0);
	/* addresses: only as listed, never another spelling */
	assert_int_equal(allows(&hl, "127.0.0.1", 18080), 1);
	assert_int_equal(allows(&hl, "127.0.0.1", 18081), 0);
	assert_int_equal(allows(&hl, "127.1", 18080), -1);
	assert_int_equal(allows(&hl, "2130706433", 18080), -1);
	assert_int_equal(allows(&hl, "0x7f.0.0.1", 18080), -1);
	assert_int_equal(allows(&hl, "::ffff:127.0.0.1", 18080), 0);
	assert_int_equal(allows(&hl, "localhost", 18080), 0);
	sc_hostlist_release(&hl);
}

static int internal(const char *addr)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;

	memset(&sin, 0, sizeof(sin));
	memset(&sin6, 0, sizeof(sin6));
	if (inet_pton(AF_INET, addr, &sin.sin_addr) == 1) {
		sin.sin_family = AF_INET;
		return sc_addr_is_internal((struct sockaddr *)&sin);
	}
	assert_int_equal(inet_pton(AF_INET6, addr, &sin6.sin6_addr), 1);
	sin6.sin6_family = AF_INET6;
	return sc_addr_is_internal((struct sockaddr *)&sin6);
}

static void test_internal_addresses(void **state)
{
	static const char *const in[] = {
		"127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "172.31.255.255",
		"192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
		"224.0.0.1", "255.255.255.255", "::", "::1", "::ffff:127.0.0.1",
		"::ffff:169.254.169.254", "64:ff9b::a00:1", "2002:a00:1::",
		"fd00:ec2::254", "fe80::1", "ff02::1", "2001:db8::1", NULL,
	};
	static const char *const out[] = {
		"93.184.216.34", "172.32.0.1", "8.8.8.8", "2606:4700::1111",
		"::ffff:8.8.8.8", "2002:808:808::", NULL,
	};
	size_t i;

	(void)state;
	for (i = 0; in[i]; i++)
		if (internal(in[i]) != 1)
			fail_msg("'%s' not internal", in[i]);
	for (i = 0; out[i]; i++)
		if (internal(out[i]) != 0)
			fail_msg("'%s' internal", out[i]);
}

static int req(const char *head, struct sc_proxy_req *r)
{
	const char *why;

	sc_proxy_req_init(r);
	return sc_proxy_req_parse(head, strlen(head), r, &why);
}

static void test_request_connect(void **state)
{
	struct sc_proxy_req r;

	(void)state;
	assert_int_equal(req("CONNECT example.com:443 HTTP/1.1\r\nHost: x\r\n\r\nTLS", &r), 1);
	assert_int_equal(r.kind, SC_PROXY_CONNECT);
	assert_string_equal(r.host, "example.com");
	assert_int_equal(r.port, 443);
	assert_int_equal(r.head_len, strlen("CONNECT example.com:443 HTTP/1.1\r\nHost: x\r\n\r\n"));
	sc_proxy_req_release(&r);
	assert_int_equal(req("CONNECT [::1]:8080 HTTP/1.1\r\n\r\n", &r), 1);
	assert_string_equal(r.host, "::1");
	sc_proxy_req_release(&r);
	/* incomplete, then refused shapes */
	assert_int_equal(req("CONNECT example.com:443 HTTP/1.1\r\n", &r), 0);
	sc_proxy_req_release(&r);
	assert_int_equal(req("CONNECT example.com HTTP/1.1\r\n\r\n", &r), -1);
	sc_proxy_req_release(&r);
	assert_int_equal(req("CONNECT example.com:0 HTTP/1.1\r\n\r\n", &r), -1);
	sc_proxy_req_release(&r);
	assert_int_equal(req("CONNECT a@example.com:443 HTTP/1.1\r\n\r\n", &r), -1);
	sc_proxy_req_release(&r);
	assert_int_equal(req("\x16\x03\x01\x02\x00", &r), -1);
	sc_proxy_req_release(&r);
}

static void test_request_http(void **state)
{
	struct sc_proxy_req r;
	const char *want = "GET /a/b?c HTTP/1.1\r\nAccept: */*\r\n"
			   "Host: Example.com:8080\r\nConnection: close\r\n\r\n";

	(void)state;
	assert_int_equal(req("GET http://Example.com:8080/a/b?c#frag HTTP/1.1\r\n"
			     "Host: example.com:8080\r\nProxy-Connection: keep-alive\r\n"
			     "Proxy-Authorization: Basic eA==\r\nAccept: */*\r\n\r\n", &r), 1);
	assert_int_equal(r.kind, SC_PROXY_HTTP);
	assert_string_equal(r.host, "Example.com");
	assert_int_equal(r.port, 8080);
	assert_int_equal(r.upstream.len, strlen(want));
	assert_memory_equal(r.upstream.data, want, strlen(want));
	sc_proxy_req_release(&r);
	/* a Host naming another host, two Hosts, a folded field, https */
	assert_int_equal(req("GET http://a.com/ HTTP/1.1\r\nHost: b.com\r\n\r\n", &r), -1);
	sc_proxy_req_release(&r);
	assert_int_equal(req("GET http://a.com/ HTTP/1.1\r\nHost: a.com\r\nHost: a.com\r\n\r\n", &r), -1);
	sc_proxy_req_release(&r);
	assert_int_equal(req("GET http://a.com/ HTTP/1.1\r\nX: 1\r\n folded\r\n\r\n", &r), -1);
	sc_proxy_req_release(&r);
	assert_int_equal(req("GET https://a.com/ HTTP/1.1\r\n\r\n", &r), -1);
	sc_proxy_req_release(&r);
	assert_int_equal(req("GET /local HTTP/1.1\r\nHost: a.com\r\n\r\n", &r), -1);
	sc_proxy_req_release(&r);
	assert_int_equal(req("GET http://a.com/ HTTP/2.0\r\n\r\n", &r), -1);
	sc_proxy_req_release(&r);
}

/* A minimal ClientHello naming NAME (NULL: no extension). */
static size_t hello(unsigned char *b, const char *name)
{
	size_t n = 0, nl = name ? strlen(name) : 0, ext = name ? 9 + nl : 0;
	size_t body = 2 + 32 + 1 + 2 + 2 + 1 + 1 + (name ? 2 + ext : 0);

	b[n++] = 0x16; b[n++] = 3; b[n++] = 1;
	b[n++] = (unsigned char)((body + 4) >> 8); b[n++] = (unsigned char)(body + 4);
	b[n++] = 1; b[n++] = 0; b[n++] = (unsigned char)(body >> 8); b[n++] = (unsigned char)body;
	b[n++] = 3; b[n++] = 3;
	memset(b + n, 0xab, 32); n += 32;
	b[n++] = 0;                       /* session id */
	b[n++] = 0; b[n++] = 2; b[n++] = 0x13; b[n++] = 0x01;
	b[n++] = 1; b[n++] = 0;           /* compression */
	if (name) {
		b[n++] = (unsigned char)(ext >> 8); b[n++] = (unsigned char)ext;
		b[n++] = 0; b[n++] = 0;   /* server_name */
		b[n++] = (unsigned char)((nl + 5) >> 8); b[n++] = (unsigned char)(nl + 5);
		b[n++] = (unsigned char)((nl + 3) >> 8); b[n++] = (unsigned char)(nl + 3);
		b[n++] = 0;
		b[n++] = (unsigned char)(nl >> 8); b[n++] = (unsigned char)nl;
		memcpy(b + n, name, nl); n += nl;
	}
	return n;
}

static void test_sni(void **state)
{
	unsigned char b[512];
	char out[256];
	size_t n, need;

	(void)state;
	n = hello(b, "registry.npmjs.org");
	assert_int_equal(sc_tls_sni(b, n, out, sizeof(out), &need), 1);
	assert_string_equal(out, "registry.npmjs.org");
	/* a partial record asks for the rest */
	assert_int_equal(sc_tls_sni(b, 3, out, sizeof(out), &need), 2);
	assert_int_equal(sc_tls_sni(b, 20, out, sizeof(out), &need), 2);
	assert_int_equal(need, n);
	n = hello(b, NULL);
	assert_int_equal(sc_tls_sni(b, n, out, sizeof(out), &need), 0);
	/* not TLS at all */
	assert_int_equal(sc_tls_sni((const unsigned char *)"SSH-2.0", 7, out,
				    sizeof(out), &need), 0);
	/* a lying length is refused */
	n = hello(b, "a.com");
	b[8] ^= 1;
	assert_int_equal(sc_tls_sni(b, n, out, sizeof(out), &need), -1);
}

static void test_socks5(void **state)
{
	static const unsigned char name[] = "\x05\x01\x00" "\x05\x01\x00\x03\x0b" "example.com" "\x01\xbb";
	static const unsigned char v4[] = "\x05\x02\x02\x00" "\x05\x01\x00\x01\x7f\x00\x00\x01\x1f\x90";
	struct sc_proxy_req r;
	const char *why;
	size_t g = 0;

	(void)state;
	sc_proxy_req_init(&r);
	assert_int_equal(sc_socks5_parse(name, 1, &r, &g, &why), 0);
	assert_int_equal(sc_socks5_parse(name, 3, &r, &g, &why), 3);
	assert_int_equal(g, 3);
	assert_int_equal(sc_socks5_parse(name, sizeof(name) - 2, &r, &g, &why), 3);
	assert_int_equal(sc_socks5_parse(name, sizeof(name) - 1, &r, &g, &why), 1);
	assert_int_equal(r.kind, SC_PROXY_SOCKS);
	assert_string_equal(r.host, "example.com");
	assert_int_equal(r.port, 443);
	assert_int_equal(r.head_len, sizeof(name) - 1);
	assert_int_equal(sc_socks5_parse(v4, sizeof(v4) - 1, &r, &g, &why), 1);
	assert_string_equal(r.host, "127.0.0.1");
	assert_int_equal(r.port, 8080);
	/* only user/password offered; BIND; a NUL in the name; version 4 */
	assert_int_equal(sc_socks5_parse((const unsigned char *)"\x05\x01\x02", 3, &r, &g, &why), -1);
	assert_int_equal(sc_socks5_parse((const unsigned char *)"\x05\x01\x00\x05\x02\x00\x01\x01\x02\x03\x04\x00\x50", 13, &r, &g, &why), -1);
	assert_int_equal(sc_socks5_parse((const unsigned char *)"\x05\x01\x00\x05\x01\x00\x03\x03\x61\x00\x62\x00\x50", 13, &r, &g, &why), -1);
	assert_int_equal(sc_socks5_parse((const unsigned char *)"\x04\x01", 2, &r, &g, &why), -1);
	sc_proxy_req_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries_refused),
		cmocka_unit_test(test_entries_accepted),
		cmocka_unit_test(test_matching),
		cmocka_unit_test(test_internal_addresses),
		cmocka_unit_test(test_request_connect),
		cmocka_unit_test(test_request_http),
		cmocka_unit_test(test_sni),
		cmocka_unit_test(test_socks5),
	};

	return SC_RUN_TESTS(tests);
}
