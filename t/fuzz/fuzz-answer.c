/* A person's answer to a question (sc_answer_parse) on arbitrary bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "approve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_strlist hosts = { NULL, 0, 0 };
	char line[SC_ASK_LINE_MAX];
	enum sc_answer ans;

	/* sc_ask hands over one line shorter than SC_ASK_LINE_MAX, no NUL */
	if (size >= sizeof(line) || memchr(data, '\0', size))
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	ans = sc_answer_parse(line, &hosts, NULL);
	/* hosts only ever come with an allow: once or for the run */
	if (hosts.nr && ans != SC_ANSWER_ONCE && ans != SC_ANSWER_RUN)
		abort();
	if (hosts.nr > SC_ASK_MAX_HOSTS)
		abort();
	sc_strlist_release(&hosts);
	return 0;
}
