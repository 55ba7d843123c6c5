/*
 * Host lists: parsing entries, judging requested hosts, classifying
 * addresses.  See hostlist.h for the syntax and the rules.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "alloc.h"
#include "hostlist.h"

#define NAME_MAX_LEN 253
#define LABEL_MAX_LEN 63
/* "[" + 39 bytes of IPv6 + "]:" + 5 digits, or a name and a port. */
#define ENTRY_MAX_LEN (NAME_MAX_LEN + 2 + 1 + 6)

void sc_hostlist_release(struct sc_hostlist *hl)
{
	size_t i;

	for (i = 0; i < hl->nr; i++)
		free(hl->v[i].name);
	free(hl->v);
	hl->v = NULL;
	hl->nr = hl->alloc = 0;
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int is_ldh(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
	       c == '-';
}

int sc_port_parse(const char *s, size_t n, unsigned *port)
{
	unsigned long v = 0;
	size_t i;

	if (!n || n > 5 || s[0] == '0')
		return -1;
	for (i = 0; i < n; i++) {
		if (!is_digit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v > 65535)
		return -1;
	*port = (unsigned)v;
	return 0;
}

/* An address literal in canonical form: dotted quad, or IPv6. */
static int parse_addr(const char *s, size_t n, int *family, unsigned char *addr)
{
	char tmp[64];

	if (n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (inet_pton(AF_INET, tmp, addr) == 1) {
		*family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, tmp, addr) == 1) {
		*family = AF_INET6;
		return 0;
	}
	return -1;
}

/*
 * Check the DNS name S (N bytes, no wildcard) and write it lowercased,
 * without a trailing dot, into OUT (NAME_MAX_LEN + 1 bytes).  Names that
 * libc would read as an IPv4 address in some other spelling are refused:
 * a last label made of digits (or "0x..."), and names made only of digits,
 * dots and '-' (an address range such as 10.0.0.1-9).
 */
static int parse_name(const char *s, size_t n, char *out, const char **why)
{
	size_t i, label = 0, last = 0;
	int odd = 0, only_numeric = 1;
	struct in_addr a;

	if (n && s[n - 1] == '.')
		n--;
	if (!n || n > NAME_MAX_LEN) {
		*why = "a host name has 1 to 253 bytes";
		return -1;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x80) {
			*why = "non-ASCII host name: write it in punycode (xn--)";
			return -1;
		}
		if (c == '.') {
			if (!label || s[i - 1] == '-') {
				*why = "empty label or a label ending in '-'";
				return -1;
			}
			label = 0;
			last = i + 1;
			out[i] = '.';
			continue;
		}
		if (!is_ldh(c)) {
			*why = "a host name holds only letters, digits, '-' and '.'";
			return -1;
		}
		if (!label && c == '-') {
			*why = "a label starting with '-'";
			return -1;
		}
		if (++label > LABEL_MAX_LEN) {
			*why = "a label longer than 63 bytes";
			return -1;
		}
		if (!is_digit(c) && c != '-')
			only_numeric = 0;
		out[i] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	if (s[n - 1] == '-') {
		*why = "a label ending in '-'";
		return -1;
	}
	out[n] = '\0';
	for (i = last; i < n; i++)
		if (!is_digit((unsigned char)out[i]))
			odd = 1;
	if (!odd || !strncmp(out + last, "0x", 2) || only_numeric ||
	    inet_aton(out, &a)) {
		*why = "not a host name, and not an address in dotted-quad form";
		return -1;
	}
	return 0;
}

/* Split "HOST[:PORT]" / "[V6][:PORT]" / "V6"; HOST is [*H, *H + *HN). */
static int split_port(const char *e, const char **h, size_t *hn,
		      unsigned *port, const char **why)
{
	const char *colon;
	size_t n = strlen(e);

	*port = 0;
	if (e[0] == '[') {
		const char *end = strchr(e, ']');

		if (!end) {
			*why = "an unclosed '['";
			return -1;
		}
		*h = e + 1;
		*hn = (size_t)(end - e - 1);
		if (!end[1])
			return 0;
		if (end[1] != ':' || sc_port_parse(end + 2, strlen(end + 2), port)) {
			*why = "a port is a number from 1 to 65535";
			return -1;
		}
		return 0;
	}
	colon = strchr(e, ':');
	if (colon && strchr(colon + 1, ':')) {
		/* Two colons: an IPv6 address without brackets, no port. */
		*h = e;
		*hn = n;
		return 0;
	}
	*h = e;
	*hn = colon ? (size_t)(colon - e) : n;
	if (colon && sc_port_parse(colon + 1, strlen(colon + 1), port)) {
		*why = "a port is a number from 1 to 65535";
		return -1;
	}
	return 0;
}

/* Shapes that are not a host at all, named for the person who wrote one. */
static const char *refuse_shape(const char *e)
{
	size_t i;

	if (!*e)
		return "an empty host";
	if (strlen(e) > ENTRY_MAX_LEN)
		return "longer than any host name";
	if (strstr(e, "://"))
		return "a scheme: write the host name only";
	if (strchr(e, '/'))
		return "a path or an address range: write one host";
	if (strchr(e, '@'))
		return "user information: write the host name only";
	for (i = 0; e[i]; i++) {
		unsigned char c = (unsigned char)e[i];

		if (c >= 0x80)
			return "non-ASCII host name: write it in punycode (xn--)";
		if (c <= ' ' || c == 0x7f)
			return "a space or control character";
	}
	if (!strcmp(e, "*") || !strncmp(e, "*:", 2))
		return "a bare '*' would allow every host";
	if (strchr(e + (e[0] == '*'), '*'))
		return "'*' is allowed only as a leading '*.'";
	return NULL;
}

int sc_hostlist_add(struct sc_hostlist *hl, const char *e, const char **why)
{
	struct sc_host_entry ent;
	char name[NAME_MAX_LEN + 1];
	const char *h;
	size_t hn;

	memset(&ent, 0, sizeof(ent));
	if ((*why = refuse_shape(e)) || split_port(e, &h, &hn, &ent.port, why))
		return -1;
	if (hn >= 2 && !strncmp(h, "*.", 2)) {
		ent.wildcard = 1;
		h += 2;
		hn -= 2;
		if (!memchr(h, '.', hn) || (hn && h[hn - 1] == '.' &&
					    !memchr(h, '.', hn - 1))) {
			*why = "'*.' must be followed by two labels at least";
			return -1;
		}
	} else if (hn && h[0] == '*') {
		*why = "'*' is allowed only as a leading '*.'";
		return -1;
	}
	if (!ent.wildcard && !parse_addr(h, hn, &ent.family, ent.addr) &&
	    (e[0] != '[' || ent.family == AF_INET6)) {
		/* ok: an address; brackets only around IPv6 */
	} else if (memchr(h, ':', hn) || e[0] == '[') {
		*why = "not an IPv6 address";
		return -1;
	} else if (parse_name(h, hn, name, why) < 0) {
		return -1;
	} else {
		ent.name = sc_xstrdup(name);
	}
	SC_ALLOC_GROW(hl->v, hl->nr + 1, hl->alloc);
	hl->v[hl->nr++] = ent;
	return 0;
}

int sc_host_entry_check(const char *entry, const char **why)
{
	struct sc_hostlist hl = SC_HOSTLIST_INIT;
	int ret = sc_hostlist_add(&hl, entry, why);

	sc_hostlist_release(&hl);
	return ret;
}

int sc_host_req_parse(const char *host, size_t len, struct sc_host_req *req,
		      const char **why)
{
	size_t i;

	memset(req, 0, sizeof(*req));
	for (i = 0; i < len; i++)
		if (!host[i]) {
			*why = "a NUL byte in the host";
			return -1;
		}
	if (!parse_addr(host, len, &req->family, req->addr))
		return 0;
	if (memchr(host, ':', len)) {
		*why = "not an IPv6 address";
		return -1;
	}
	return parse_name(host, len, req->name, why);
}

static int port_ok(unsigned want, unsigned port)
{
	return want ? want == port : port == 80 || port == 443;
}

static int name_ok(const struct sc_host_entry *e, const char *name)
{
	size_t n = strlen(name), m = strlen(e->name);

	if (!e->wildcard)
		return !strcmp(e->name, name);
	return n > m + 1 && name[n - m - 1] == '.' && !strcmp(name + n - m, e->name);
}

int sc_hostlist_allows(const struct sc_hostlist *hl,
		       const struct sc_host_req *req, unsigned port)
{
	size_t i;

	for (i = 0; i < hl->nr; i++) {
		const struct sc_host_entry *e = &hl->v[i];

		if (!port_ok(e->port, port))
			continue;
		if (req->family ? (!e->name && e->family == req->family &&
				   !memcmp(e->addr, req->addr,
					   req->family == AF_INET ? 4 : 16))
				: (e->name && name_ok(e, req->name)))
			return 1;
	}
	return 0;
}

int sc_hostlist_lists_addr(const struct sc_hostlist *hl,
			   const struct sockaddr *sa, unsigned port)
{
	struct sc_host_req req;

	memset(&req, 0, sizeof(req));
	req.family = sa->sa_family;
	if (sa->sa_family == AF_INET)
		memcpy(req.addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	else if (sa->sa_family == AF_INET6)
		memcpy(req.addr, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
	else
		return 0;
	return sc_hostlist_allows(hl, &req, port);
}

/* A prefix of LEN bits of a 32-bit IPv4 address, host order. */
struct v4net { uint32_t net; unsigned len; };

static int v4_internal(uint32_t a)
{
	static const struct v4net nets[] = {
		{ 0x00000000, 8 },   /* "this network" */
		{ 0x0a000000, 8 },   /* private */
		{ 0x64400000, 10 },  /* shared address space (CGNAT) */
		{ 0x7f000000, 8 },   /* loopback */
		{ 0xa9fe0000, 16 },  /* link-local, cloud metadata */
		{ 0xac100000, 12 },  /* private */
		{ 0xc0000000, 24 },  /* IETF protocol assignments */
		{ 0xc0000200, 24 },  /* documentation */
		{ 0xc0a80000, 16 },  /* private */
		{ 0xc6120000, 15 },  /* benchmarking */
		{ 0xc6336400, 24 },  /* documentation */
		{ 0xcb007100, 24 },  /* documentation */
		{ 0xe0000000, 4 },   /* multicast */
		{ 0xf0000000, 4 },   /* reserved, broadcast */
	};
	size_t i;

	for (i = 0; i < sizeof(nets) / sizeof(*nets); i++) {
		uint32_t mask = 0xffffffffU << (32 - nets[i].len);

		if ((a & mask) == nets[i].net)
			return 1;
	}
	return 0;
}

static uint32_t load_v4(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static int v6_internal(const unsigned char *a)
{
	static const unsigned char zero[12] = { 0 };
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
						  0xff, 0xff };
	static const unsigned char nat64[12] = { 0, 0x64, 0xff, 0x9b };

	/* ::/96 (unspecified, loopback, old compatible forms) */
	if (!memcmp(a, zero, 12))
		return 1;
	if (!memcmp(a, mapped, 12) || !memcmp(a, nat64, 12))
		return v4_internal(load_v4(a + 12));
	if (a[0] == 0x20 && a[1] == 0x02)          /* 6to4 carries an IPv4 */
		return v4_internal(load_v4(a + 2));
	if ((a[0] & 0xfe) == 0xfc)                 /* unique local */
		return 1;
	if (a[0] == 0xfe && (a[1] & 0xc0) >= 0x80) /* link and site local */
		return 1;
	if (a[0] == 0xff)                          /* multicast */
		return 1;
	if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8)
		return 1;                          /* documentation */
	if (a[0] == 0x01 && !a[1] && !memcmp(a + 2, zero, 6))
		return 1;                          /* discard-only 100::/64 */
	return 0;
}

int sc_addr_is_internal(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return v4_internal(ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr));
	if (sa->sa_family == AF_INET6)
		return v6_internal(((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr);
	return 1;   /* any other family is nothing a host list names */
}
