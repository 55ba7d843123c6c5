#ifndef SC_NETPROXY_H
#define SC_NETPROXY_H

/*
 * The host proxy of sc-sandbox-exec --network hosts.
 *
 * The command runs in a network namespace of its own with only a loopback
 * interface.  The namespace's init opens a listener on 127.0.0.1:3128
 * there and hands it (SCM_RIGHTS) to a proxy process that runs outside,
 * in the host's network: the listener is the one way out, and no socket or
 * route of the host is reachable from inside.  The proxy accepts from the
 * listener (the accepted sockets live in the namespace; their bytes reach
 * the proxy without any forwarder) and serves each connection in a process
 * of its own:
 *
 *  - it reads one request head (at most 16 KiB, within 10 s): CONNECT
 *    host:port, a SOCKS5 CONNECT (no authentication), or a plain http://
 *    request;
 *  - judges the host against the host list before resolving anything, so
 *    an unlisted name never reaches a resolver;
 *  - resolves a listed name itself and connects only to an address that
 *    is not internal (loopback, private, link-local, metadata...) unless
 *    the list names that address; it connects to the address it checked,
 *    so a second answer (DNS rebinding) changes nothing;
 *  - for CONNECT, reads the client's first bytes: a TLS ClientHello must
 *    name the same host (SNI) or the tunnel is closed before one byte
 *    reaches the server;
 *  - relays (splice, no copy) until either side ends;
 *  - writes one type=connection record per connection (host, port,
 *    decision, reason, address, bytes each way) to the log descriptor,
 *    and names every refusal on stderr and in a 403 reply.
 *
 * The proxy process runs with no_new_privs, Landlock allowing no write and
 * the sandbox's seccomp filter (inet sockets allowed);
 * it dies with sc-sandbox-exec (PR_SET_PDEATHSIG) and its connections
 * with it.
 */

#include <sys/types.h>

#include "hostlist.h"

/* Where the proxy listens inside the namespace. */
#define SC_NETPROXY_ADDR "127.0.0.1"
#define SC_NETPROXY_PORT 3128

/* How long the proxy's connections may take to end and write their
 * records once the command has ended. */
#define SC_NETPROXY_GRACE_MS 500

/* Connections served at once; more wait in the listener's backlog. */
#define SC_NETPROXY_MAX_CONNS 64

struct sc_netproxy {
	pid_t pid;       /* the proxy process; 0 when none */
	int inside;      /* the end the namespace's init hands the listener
			    over; -1 once closed */
};

/*
 * Start the proxy process serving HOSTS and writing records to LOG_FD
 * (-1: none).  It waits for the listener on NP->inside.  0, or -1 with a
 * diagnostic.
 */
int sc_netproxy_start(struct sc_netproxy *np, const struct sc_hostlist *hosts,
		      int log_fd);

/*
 * In the namespace (after loopback is up): open the listener and hand it
 * over through FD, then close both.  0, or -1 with a diagnostic.
 */
int sc_netproxy_listen_inside(int fd);

/*
 * Open where connection records go: "N" (digits) a copy of descriptor N,
 * else a file, created 0600 or appended to, never through a symlink.  The
 * descriptor (the caller closes it), or -1 with error[BAD-CONNECTIONS].
 */
int sc_netproxy_open_log(const char *where);

/*
 * A copy of ENV (NULL-terminated, as sc_env_build makes) with the proxy
 * variables of sc_netproxy_env() in place of any the caller had.  Free it
 * with sc_env_free.
 */
char **sc_netproxy_env_apply(char *const *env);

/* Kill the proxy and every connection it serves; wait for it. */
void sc_netproxy_stop(struct sc_netproxy *np);

/*
 * The environment a command under --network hosts gets: HTTP_PROXY,
 * HTTPS_PROXY, ALL_PROXY and NO_PROXY, upper and lower case.  NULL
 * terminated, static.
 */
const char *const *sc_netproxy_env(void);

#endif
