#include <jansson.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "encode.h"
#include "recjson.h"

#define B64_SUFFIX "@base64"

/* name -> array of field indexes, in order of first appearance. */
static json_t *group_fields(const struct sc_record *rec)
{
	json_t *groups = json_object();
	size_t i;

	if (!groups)
		sc_die(SC_EXIT_INTERNAL, "OUT-OF-MEMORY", "out of memory");
	for (i = 0; i < rec->nr; i++) {
		json_t *list = json_object_get(groups, rec->fields[i].name);

		if (!list) {
			list = json_array();
			if (!list || json_object_set_new(groups,
							 rec->fields[i].name,
							 list))
				sc_die(SC_EXIT_INTERNAL, "OUT-OF-MEMORY",
				       "out of memory");
		}
		if (json_array_append_new(list, json_integer((json_int_t)i)))
			sc_die(SC_EXIT_INTERNAL, "OUT-OF-MEMORY", "out of memory");
	}
	return groups;
}

/* The values of one name as JSON strings, or NULL if one is not UTF-8. */
static json_t *utf8_values(const struct sc_record *rec, json_t *indexes)
{
	json_t *values = json_array();
	size_t k;
	json_t *ix;

	json_array_foreach(indexes, k, ix) {
		const struct sc_field *f =
			&rec->fields[json_integer_value(ix)];
		json_t *s = json_stringn(f->value, f->value_len);

		if (!s) {
			json_decref(values);
			return NULL;
		}
		json_array_append_new(values, s);
	}
	return values;
}

static json_t *base64_values(const struct sc_record *rec, json_t *indexes)
{
	json_t *values = json_array();
	struct sc_buf b = SC_BUF_INIT;
	size_t k;
	json_t *ix;

	json_array_foreach(indexes, k, ix) {
		const struct sc_field *f =
			&rec->fields[json_integer_value(ix)];

		sc_buf_reset(&b);
		sc_base64_encode(&b, f->value, f->value_len, 0);
		json_array_append_new(values, json_stringn(b.data ? b.data : "",
							   b.len));
	}
	sc_buf_release(&b);
	return values;
}

void sc_record_to_json(const struct sc_record *rec, struct sc_buf *out)
{
	json_t *groups = group_fields(rec);
	json_t *obj = json_object();
	const char *name;
	json_t *indexes;
	char *text;

	json_object_foreach(groups, name, indexes) {
		json_t *values = utf8_values(rec, indexes);
		struct sc_buf key = SC_BUF_INIT;

		sc_buf_adds(&key, name);
		if (!values) {
			values = base64_values(rec, indexes);
			sc_buf_adds(&key, B64_SUFFIX);
		}
		if (json_array_size(values) == 1) {
			json_t *one = json_incref(json_array_get(values, 0));

			json_decref(values);
			values = one;
		}
		json_object_set_new(obj, key.data, values);
		sc_buf_release(&key);
	}
	text = json_dumps(obj, JSON_COMPACT | JSON_ENCODE_ANY);
	if (!text)
		sc_die(SC_EXIT_INTERNAL, "OUT-OF-MEMORY", "out of memory");
	sc_buf_adds(out, text);
	free(text);
	json_decref(obj);
	json_decref(groups);
}

static int json_fail(struct sc_json_error *err, const char *what,
		     const char *name, int column)
{
	err->what = what;
	err->name[0] = '\0';
	if (name && sc_field_name_valid(name, strlen(name)) &&
	    strlen(name) < sizeof(err->name))
		strcpy(err->name, name);
	err->column = column;
	return SC_JSON_MALFORMED;
}

static const char *syntax_text(const json_error_t *je)
{
	switch (json_error_code(je)) {
	case json_error_premature_end_of_input:
		return "unexpected end of JSON";
	case json_error_end_of_input_expected:
		return "text after the JSON object";
	case json_error_invalid_utf8:
		return "invalid UTF-8";
	case json_error_duplicate_key:
		return "duplicate member name";
	case json_error_null_character:
		return "NUL byte outside a string";
	case json_error_numeric_overflow:
		return "number out of range";
	case json_error_item_not_found:
	case json_error_wrong_type:
	case json_error_invalid_syntax:
	default:
		return "invalid JSON syntax";
	}
}

/* Add the fields of one member KEY = VALUE. */
static int add_member(struct sc_record *rec, const char *key, json_t *value,
		      struct sc_json_error *err)
{
	const char *at = strchr(key, '@');
	size_t name_len = at ? (size_t)(at - key) : strlen(key);
	int b64 = at && !strcmp(at, B64_SUFFIX);
	struct sc_buf name = SC_BUF_INIT, raw = SC_BUF_INIT;
	json_t *one = NULL, *list = value;
	size_t k;
	int ret = SC_JSON_OK;

	if ((at && !b64) || !sc_field_name_valid(key, name_len))
		return json_fail(err, "member name is not a field name", NULL,
				 0);
	sc_buf_add(&name, key, name_len);
	if (json_is_string(value)) {
		one = json_array();
		json_array_append(one, value);
		list = one;
	} else if (!json_is_array(value)) {
		ret = json_fail(err, "member is not a string or an array of strings",
				name.data, 0);
	}
	for (k = 0; !ret && k < json_array_size(list); k++) {
		json_t *s = json_array_get(list, k);
		const char *text = json_string_value(s);
		size_t len = json_string_length(s);

		if (!json_is_string(s)) {
			ret = json_fail(err, "array holds a value that is not a string",
					name.data, 0);
			break;
		}
		if (b64) {
			sc_buf_reset(&raw);
			if (sc_base64_decode(&raw, text, len) < 0) {
				ret = json_fail(err, "value is not canonical base64",
						name.data, 0);
				break;
			}
			text = raw.data ? raw.data : "";
			len = raw.len;
		}
		sc_record_add(rec, name.data, text, len);
		if (rec->wire_size > SC_RECORD_MAX) {
			err->what = "record too large";
			ret = SC_JSON_TOO_LARGE;
		}
	}
	json_decref(one);
	sc_buf_release(&name);
	sc_buf_release(&raw);
	return ret;
}

/* Both "NAME" and "NAME@base64" would make one list from two members. */
static int has_twin(json_t *obj, const char *key)
{
	const char *at = strchr(key, '@');
	struct sc_buf other = SC_BUF_INIT;
	int twin;

	if (at)
		sc_buf_add(&other, key, (size_t)(at - key));
	else {
		sc_buf_adds(&other, key);
		sc_buf_adds(&other, B64_SUFFIX);
	}
	twin = json_object_get(obj, other.data) != NULL;
	sc_buf_release(&other);
	return twin;
}

static int is_type_key(const char *key)
{
	return !strcmp(key, "type") || !strcmp(key, "type" B64_SUFFIX);
}

int sc_record_from_json(const char *text, size_t len, struct sc_record *rec,
			struct sc_json_error *err)
{
	json_error_t je;
	json_t *obj = json_loadb(text, len,
				 JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
	const char *key;
	json_t *value;
	int ret = SC_JSON_OK, pass;

	sc_record_reset(rec);
	if (!obj)
		return json_fail(err, syntax_text(&je), NULL, je.column);
	if (!json_is_object(obj)) {
		json_decref(obj);
		return json_fail(err, "not a JSON object", NULL, 0);
	}
	json_object_foreach(obj, key, value) {
		if (has_twin(obj, key)) {
			ret = json_fail(err, "member given both plain and base64",
					NULL, 0);
			goto out;
		}
	}
	/* "type" first, whatever the object's order, then the rest. */
	for (pass = 0; pass < 2 && !ret; pass++) {
		json_object_foreach(obj, key, value) {
			if (is_type_key(key) != !pass)
				continue;
			ret = add_member(rec, key, value, err);
			if (ret)
				break;
		}
		if (!pass && !ret && !rec->nr)
			ret = json_fail(err, "no type member", NULL, 0);
	}
out:
	json_decref(obj);
	if (ret)
		sc_record_reset(rec);
	return ret;
}
