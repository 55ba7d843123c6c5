/*
 * DSSE envelopes: parse (strictly: duplicate keys, bad base64 and wrong
 * member types are errors), encode canonically, and the PAE.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "alloc.h"
#include "dsse.h"
#include "encode.h"
#include "intoto.h"

void sc_dsse_init(struct sc_dsse *e)
{
	memset(e, 0, sizeof(*e));
}

void sc_dsse_release(struct sc_dsse *e)
{
	size_t i;

	free(e->payload_type);
	sc_buf_release(&e->payload);
	for (i = 0; i < e->nr; i++) {
		free(e->sigs[i].keyid);
		sc_buf_release(&e->sigs[i].sig);
	}
	free(e->sigs);
	sc_dsse_init(e);
}

void sc_dsse_add_sig(struct sc_dsse *e, const char *keyid, const void *sig,
		     size_t len)
{
	struct sc_dsse_sig *s;

	SC_ALLOC_GROW(e->sigs, e->nr + 1, e->alloc);
	s = &e->sigs[e->nr++];
	s->keyid = keyid ? sc_xstrdup(keyid) : NULL;
	sc_buf_init(&s->sig);
	sc_buf_add(&s->sig, sig, len);
}

static int b64_member(const json_t *obj, const char *key, struct sc_buf *out)
{
	const json_t *v = json_object_get(obj, key);

	if (!json_is_string(v))
		return -1;
	return sc_base64_decode(out, json_string_value(v), json_string_length(v));
}

static int parse_sigs(struct sc_dsse *e, const json_t *sigs, const char **why)
{
	size_t i;
	json_t *s;

	if (!json_is_array(sigs))
		return *why = "signatures is not an array", -1;
	if (json_array_size(sigs) > SC_DSSE_SIGS_MAX)
		return *why = "more than 16 signatures", -1;
	json_array_foreach(sigs, i, s) {
		const json_t *keyid = json_object_get(s, "keyid");
		struct sc_buf sig = SC_BUF_INIT;

		if (!json_is_object(s) || (keyid && !json_is_string(keyid)))
			return *why = "bad signature entry", -1;
		if (b64_member(s, "sig", &sig)) {
			sc_buf_release(&sig);
			return *why = "sig is not base64", -1;
		}
		sc_dsse_add_sig(e, keyid ? json_string_value(keyid) : NULL,
				sig.data, sig.len);
		sc_buf_release(&sig);
	}
	return 0;
}

int sc_dsse_parse(struct sc_dsse *e, const char *text, size_t len,
		  const char **why)
{
	json_error_t jerr;
	json_t *root;
	const char *type;
	int ret = -1;

	sc_dsse_init(e);
	if (len > SC_DSSE_LINE_MAX)
		return *why = "envelope larger than 4 MiB", -1;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!json_is_object(root))
		*why = "envelope is not a JSON object";
	else if (!(type = json_string_value(json_object_get(root, "payloadType"))))
		*why = "envelope without payloadType";
	else if (b64_member(root, "payload", &e->payload))
		*why = "payload is not base64";
	else if (!parse_sigs(e, json_object_get(root, "signatures"), why)) {
		e->payload_type = sc_xstrdup(type);
		ret = 0;
	}
	json_decref(root);
	if (ret)
		sc_dsse_release(e);
	return ret;
}

void sc_dsse_pae(struct sc_buf *out, const char *type, const void *payload,
		 size_t len)
{
	sc_buf_addf(out, "DSSEv1 %zu %s %zu ", strlen(type), type, len);
	sc_buf_add(out, payload, len);
}

int sc_dsse_encode(const struct sc_dsse *e, struct sc_buf *out)
{
	struct sc_buf b64 = SC_BUF_INIT;
	json_t *root, *sigs;
	size_t i;
	int ret;

	sigs = json_array();
	for (i = 0; i < e->nr; i++) {
		json_t *s = json_object();

		sc_buf_reset(&b64);
		sc_base64_encode(&b64, e->sigs[i].sig.data, e->sigs[i].sig.len, 0);
		json_object_set_new(s, "sig", json_stringn(b64.data ? b64.data :
							    "", b64.len));
		if (e->sigs[i].keyid)
			json_object_set_new(s, "keyid",
					    json_string(e->sigs[i].keyid));
		json_array_append_new(sigs, s);
	}
	sc_buf_reset(&b64);
	sc_base64_encode(&b64, e->payload.data, e->payload.len, 0);
	root = json_pack("{s:s%, s:s, s:o}", "payload",
			 b64.data ? b64.data : "", b64.len,
			 "payloadType", e->payload_type, "signatures", sigs);
	ret = root ? sc_canonical_json(root, out) : -1;
	json_decref(root);
	sc_buf_release(&b64);
	return ret;
}
