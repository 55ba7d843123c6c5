/*
 * What a sandboxed client sends the host proxy, and host list entries, on
 * arbitrary bytes: the request-head parser, the SOCKS5 parser, the TLS
 * server-name reader,
 * the host judge.  None may crash, leak or read out of bounds; a parsed
 * head lies within the input; a host the list allows parses again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "hostlist.h"
#include "proxyreq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_proxy_req r;
	struct sc_hostlist hl = SC_HOSTLIST_INIT;
	struct sc_host_req hr;
	char sni[256], *s;
	const char *why;
	size_t need;
	int ret;

	sc_proxy_req_init(&r);
	ret = sc_proxy_req_parse((const char *)data, size, &r, &why);
	if (ret > 0 && (r.head_len > size || !r.port || strlen(r.host) > 255))
		abort();
	if (ret > 0 && sc_host_req_parse(r.host, strlen(r.host), &hr, &why) == 0 &&
	    sc_hostlist_add(&hl, "*.example.com", &why) == 0)
		(void)sc_hostlist_allows(&hl, &hr, r.port);
	sc_proxy_req_release(&r);

	sc_proxy_req_init(&r);
	ret = sc_socks5_parse(data, size, &r, &need, &why);
	if (ret == 1 && (r.head_len > size || !r.port || strlen(r.host) > 255))
		abort();
	sc_proxy_req_release(&r);

	ret = sc_tls_sni(data, size, sni, sizeof(sni), &need);
	if (ret == 1 && strlen(sni) >= sizeof(sni))
		abort();
	if (ret == 2 && need <= size)
		abort();

	/* the input as a host list entry, and as a requested host */
	s = sc_xmemdup(data, size);
	if (strlen(s) == size && sc_hostlist_add(&hl, s, &why) == 0) {
		const struct sc_host_entry *e = &hl.v[hl.nr - 1];

		if (e->name && sc_host_req_parse(e->name, strlen(e->name), &hr,
						 &why) == 0 && !e->wildcard &&
		    !sc_hostlist_allows(&hl, &hr, e->port ? e->port : 443))
			abort();
	}
	if (sc_host_req_parse((const char *)data, size, &hr, &why) == 0)
		(void)sc_hostlist_allows(&hl, &hr, 443);
	free(s);
	sc_hostlist_release(&hl);
	return 0;
}
