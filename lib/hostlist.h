#ifndef SC_HOSTLIST_H
#define SC_HOSTLIST_H

/*
 * A list of the hosts a sandboxed command may reach (sc-sandbox-exec
 * --network hosts, speccoder.conf's sandbox.networkHosts and
 * network.NAME.hosts), and the judgement of one requested host against it.
 *
 * An entry is HOST[:PORT]:
 *	HOST  a DNS name (letters, digits, '-', labels of 1 to 63 bytes, at
 *	      most 253 in all, letter case ignored, one trailing dot dropped);
 *	      "*.NAME" for every name strictly beneath NAME (NAME has two
 *	      labels at least); an IPv4 address in dotted-quad form; an IPv6
 *	      address, in brackets when a port follows.
 *	PORT  1 to 65535; without it, 80 and 443.
 * Refused: a scheme, a path, an address range, a bare or inner '*', a
 * port of 0 or above 65535, non-ASCII (write punycode), any other byte
 * outside the name syntax, and names that libc would read as an address
 * ("127.1", "0x7f.1"): a name must never be an address in disguise.
 *
 * A requested name passes only when an entry names it; a requested
 * address only when an entry lists that address.  Names are judged before
 * anything is resolved, so an unlisted name never reaches a resolver.
 */

#include <stddef.h>
#include <sys/socket.h>

struct sc_host_entry {
	char *name;             /* lowercase; for "*.x" just "x"; NULL: address */
	int wildcard;           /* 1: strictly beneath NAME */
	int family;             /* AF_INET or AF_INET6 when an address */
	unsigned char addr[16];
	unsigned port;          /* 0: 80 and 443 */
};

struct sc_hostlist {
	struct sc_host_entry *v;
	size_t nr, alloc;
};

#define SC_HOSTLIST_INIT { NULL, 0, 0 }

void sc_hostlist_release(struct sc_hostlist *hl);

/*
 * Add ENTRY.  0, or -1 with *WHY set to a static sentence saying what is
 * wrong (nothing printed: the caller names the file, line or option).
 */
int sc_hostlist_add(struct sc_hostlist *hl, const char *entry,
		    const char **why);

/*
 * A requested host as a client names it ("example.com", "127.0.0.1",
 * "::1"; no brackets, no port), normalised.
 */
struct sc_host_req {
	char name[254];         /* lowercase, no trailing dot; "" for an address */
	int family;             /* AF_INET or AF_INET6 for an address, else 0 */
	unsigned char addr[16];
};

/* PORT (N bytes): 1 to 65535, digits only, no sign, no leading zero.
 * 0 with *PORT set, or -1. */
int sc_port_parse(const char *s, size_t n, unsigned *port);

/* Check ENTRY alone, as sc_hostlist_add would.  0, or -1 with *WHY. */
int sc_host_entry_check(const char *entry, const char **why);

/* Parse HOST (LEN bytes).  0, or -1 with *WHY when it is no host. */
int sc_host_req_parse(const char *host, size_t len, struct sc_host_req *req,
		      const char **why);

/* 1 when an entry allows REQ on PORT. */
int sc_hostlist_allows(const struct sc_hostlist *hl,
		       const struct sc_host_req *req, unsigned port);

/* 1 when an entry lists the address in SA (any port entry or PORT). */
int sc_hostlist_lists_addr(const struct sc_hostlist *hl,
			   const struct sockaddr *sa, unsigned port);

/*
 * 1 when SA is an address a listed name must not lead to unless it is
 * listed itself: unspecified, loopback, private (RFC 1918, unique local),
 * shared (100.64/10), link-local (169.254/16 and so the cloud metadata
 * services, fe80::/10), multicast, reserved and documentation ranges, and
 * IPv6 forms that carry such an IPv4 address (mapped, NAT64, 6to4).
 */
int sc_addr_is_internal(const struct sockaddr *sa);

#endif
