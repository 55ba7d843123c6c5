#include "../lib/tap.h"

#include <string.h>

#include "eventstream.h"
#include "sse.h"

struct seen {
	char text[256];
	int n;
};

static int on_event(void *ctx, const char *event, const char *data,
		    size_t len)
{
	struct seen *s = ctx;
	size_t used = strlen(s->text);

	snprintf(s->text + used, sizeof(s->text) - used, "[%s|%.*s]", event,
		 (int)len, data);
	s->n++;
	return 0;
}

/* Any cut of the bytes gives the same events: CRLF split, data joined. */
static void test_sse_pieces(void **state)
{
	const char in[] = ": hi\r\nevent: a\r\ndata: 1\r\ndata:2\r\n\r\n"
			  "data: x\n\nevent: nodata\n\nid: 7\ndata: y\r\r";
	size_t cut;

	(void)state;
	for (cut = 0; cut < sizeof(in) - 1; cut++) {
		struct seen seen = { "", 0 };
		struct sc_sse s;

		sc_sse_init(&s, on_event, &seen);
		assert_int_equal(sc_sse_feed(&s, in, cut), 0);
		assert_int_equal(sc_sse_feed(&s, in + cut, sizeof(in) - 1 - cut), 0);
		assert_string_equal(seen.text, "[a|1\n2][|x][|y]");
		assert_true(sc_sse_idle(&s));
		sc_sse_release(&s);
	}
}

static void test_sse_half_event_is_not_idle(void **state)
{
	struct seen seen = { "", 0 };
	struct sc_sse s;

	(void)state;
	sc_sse_init(&s, on_event, &seen);
	assert_int_equal(sc_sse_feed(&s, "data: {\"a\":", 11), 0);
	assert_false(sc_sse_idle(&s));
	sc_sse_reset(&s);
	assert_true(sc_sse_idle(&s));
	assert_int_equal(sc_sse_feed(&s, "da\0ta", 5), -1);
	sc_sse_release(&s);
	assert_int_equal(seen.n, 0);
}

static void test_crc32(void **state)
{
	(void)state;
	assert_int_equal(sc_crc32(0, "123456789", 9), 0xCBF43926u);
	assert_int_equal(sc_crc32(sc_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u);
}

static int on_message(void *ctx, const struct sc_es_message *m)
{
	struct seen *s = ctx;

	snprintf(s->text, sizeof(s->text), "%s/%s/%.*s", m->message_type,
		 m->event_type, (int)m->payload_len, (const char *)m->payload);
	s->n++;
	return 0;
}

static size_t put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
	return 4;
}

/* One message built by hand, fed a byte at a time, then corrupted. */
static void test_eventstream_message(void **state)
{
	static const unsigned char hdr[] =
		"\x0d:message-type\x07\x00\x05" "event"
		"\x0b:event-type\x07\x00\x05" "chunk";
	const size_t hlen = sizeof(hdr) - 1, plen = 2;
	unsigned char msg[128];
	size_t total = 12 + hlen + plen + 4, i;
	struct seen seen = { "", 0 };
	struct sc_es e;

	(void)state;
	put32(msg, (uint32_t)total);
	put32(msg + 4, (uint32_t)hlen);
	put32(msg + 8, sc_crc32(0, msg, 8));
	memcpy(msg + 12, hdr, hlen);
	memcpy(msg + 12 + hlen, "{}", plen);
	put32(msg + total - 4, sc_crc32(0, msg, total - 4));
	sc_es_init(&e, on_message, &seen);
	for (i = 0; i < total; i++)
		assert_int_equal(sc_es_feed(&e, msg + i, 1), 0);
	assert_int_equal(seen.n, 1);
	assert_string_equal(seen.text, "event/chunk/{}");
	assert_true(sc_es_idle(&e));
	msg[12 + hlen] = '[';
	assert_int_equal(sc_es_feed(&e, msg, total), -1);
	assert_string_equal(e.why, "a message's CRC does not match");
	sc_es_reset(&e);
	put32(msg, 1u << 30);
	assert_int_equal(sc_es_feed(&e, msg, 13), -1);
	assert_string_equal(e.why, "a message's length is out of bounds");
	sc_es_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sse_pieces),
		cmocka_unit_test(test_sse_half_event_is_not_idle),
		cmocka_unit_test(test_crc32),
		cmocka_unit_test(test_eventstream_message),
	};

	return SC_RUN_TESTS(tests);
}
