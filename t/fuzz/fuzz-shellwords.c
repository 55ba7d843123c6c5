/*
 * The shell lexer on arbitrary bytes: it must never crash, leak or read
 * out of bounds, and every word it returns is NUL-terminated.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "shellwords.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_sw_line l;
	struct sc_buf q = SC_BUF_INIT;
	char *s, **w;
	size_t i, k, n;
	const char *err;

	sc_sw_line_init(&l);
	sc_sw_parse((const char *)data, size, &l);
	for (i = 0; i < l.nr_cmds; i++)
		for (k = 0; k < l.cmds[i].nr_words; k++)
			if (l.cmds[i].words[k].s[l.cmds[i].words[k].len] != '\0')
				abort();
	for (i = 0; i < l.nr_subs; i++) {
		struct sc_sw_line inner;

		sc_sw_line_init(&inner);
		sc_sw_parse(l.subs[i], strlen(l.subs[i]), &inner);
		sc_sw_line_release(&inner);
	}
	sc_sw_line_release(&l);

	/* the config splitter, and quote -> split round trips */
	s = sc_xmemdup(data, size);
	if (sc_sw_split(s, &w, &n, &err) == 0) {
		for (i = 0; i < n; i++) {
			if (i)
				sc_buf_addch(&q, ' ');
			sc_sw_quote(&q, w[i], strlen(w[i]));
		}
		if (!memchr(q.data ? q.data : "", '\n', q.len)) {
			char **w2;
			size_t n2;

			if (sc_sw_split(q.data ? q.data : "", &w2, &n2, &err) != 0 ||
			    n2 != n)
				abort();
			for (i = 0; i < n; i++)
				if (strcmp(w[i], w2[i]))
					abort();
			sc_sw_split_free(w2);
		}
		sc_sw_split_free(w);
	}
	sc_buf_release(&q);
	free(s);
	return 0;
}
