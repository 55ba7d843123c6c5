/*
 * in-toto Statements in canonical JSON, with jansson.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "intoto.h"

int sc_canonical_json(const json_t *j, struct sc_buf *out)
{
	char *text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT |
				   JSON_ENCODE_ANY);

	if (!text)
		return -1;
	sc_buf_adds(out, text);
	free(text);
	return 0;
}

static int hex40(const char *s)
{
	size_t i;

	if (!s || strlen(s) != 40)
		return 0;
	for (i = 0; i < 40; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

json_t *sc_intoto_statement(const char *name, const char *commit_hex,
			    const char *tree_hex, const char *predicate_type,
			    json_t *predicate)
{
	json_t *st;

	if (!name || !hex40(commit_hex) || !hex40(tree_hex) ||
	    !predicate_type || !json_is_object(predicate))
		return NULL;
	st = json_pack("{s:s, s:[{s:s, s:{s:s, s:s}}], s:s, s:O}",
		       "_type", SC_INTOTO_STATEMENT_TYPE,
		       "subject", "name", name, "digest",
		       "gitCommit", commit_hex, "gitTree", tree_hex,
		       "predicateType", predicate_type,
		       "predicate", predicate);
	return st;
}

/* ---- predicate rules ---- */

static int string_array(const json_t *a, int nonempty)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a) || (nonempty && !json_array_size(a)))
		return 0;
	json_array_foreach(a, i, v)
		if (!json_is_string(v))
			return 0;
	return 1;
}

static int opt_string_array(const json_t *obj, const char *key)
{
	const json_t *a = json_object_get(obj, key);

	return !a || string_array(a, 0);
}

static int check_test_result(const json_t *p, const char **why)
{
	const char *r = json_string_value(json_object_get(p, "result"));
	const json_t *conf = json_object_get(p, "configuration");

	if (!r || (strcmp(r, "PASSED") && strcmp(r, "WARNED") &&
		   strcmp(r, "FAILED")))
		return *why = "test-result: result must be PASSED, WARNED or "
			      "FAILED", -1;
	if (conf && !json_is_array(conf))
		return *why = "test-result: configuration must be an array", -1;
	if (!opt_string_array(p, "passedTests") ||
	    !opt_string_array(p, "warnedTests") ||
	    !opt_string_array(p, "failedTests"))
		return *why = "test-result: test lists must be string arrays", -1;
	return 0;
}

static int check_checks(const json_t *checks)
{
	size_t i;
	json_t *c;

	if (!json_is_array(checks))
		return 0;
	json_array_foreach(checks, i, c)
		if (!json_is_object(c) ||
		    !string_array(json_object_get(c, "argv"), 1) ||
		    !json_is_integer(json_object_get(c, "exitStatus")))
			return 0;
	return 1;
}

/* A JSON integer from 0 to MAX. */
static int count_le(const json_t *v, json_int_t max)
{
	return json_is_integer(v) && json_integer_value(v) >= 0 &&
	       json_integer_value(v) <= max;
}

/*
 * "mutation-score": {"killed":K,"total":T[,"minimum":PERCENT]}, K at
 * most T.  NULL passes (no mutation tool ran).
 */
static int check_mutation(const json_t *m)
{
	const json_t *k, *t, *min;

	if (!m)
		return 1;
	k = json_object_get(m, "killed");
	t = json_object_get(m, "total");
	min = json_object_get(m, "minimum");
	if (!json_is_object(m) || !count_le(t, (json_int_t)1 << 53) ||
	    !count_le(k, json_integer_value(t)))
		return 0;
	return !min || count_le(min, 100);
}

static int opt_strings(const json_t *obj, const char *const *keys)
{
	for (; *keys; keys++) {
		const json_t *v = json_object_get(obj, *keys);

		if (v && !json_is_string(v))
			return 0;
	}
	return 1;
}

static int check_task(const json_t *p, const char **why)
{
	static const char *const model_keys[] = { "provider", "name", NULL };
	const json_t *task = json_object_get(p, "task");
	const json_t *sandbox = json_object_get(p, "sandbox");
	const json_t *held = json_object_get(p, "heldOut");
	const json_t *model = json_object_get(p, "model");
	const json_t *policy = json_object_get(p, "policy");

	if (!json_is_string(json_object_get(p, "feature")))
		return *why = "task-verification: feature must be a string", -1;
	if (!json_is_object(task) ||
	    !json_is_string(json_object_get(task, "id")) ||
	    !json_is_string(json_object_get(task, "line")))
		return *why = "task-verification: task needs id and line", -1;
	if (!check_checks(json_object_get(p, "checks")))
		return *why = "task-verification: each check needs argv and "
			      "exitStatus", -1;
	if (json_object_get(p, "acceptance") &&
	    !check_checks(json_object_get(p, "acceptance")))
		return *why = "task-verification: each acceptance test needs "
			      "argv and exitStatus", -1;
	if (!check_mutation(json_object_get(p, SC_PREDICATE_MUTATION)))
		return *why = "task-verification: mutation-score needs killed "
			      "and total (killed at most total) and a minimum "
			      "from 0 to 100", -1;
	if (!json_is_object(sandbox) ||
	    !json_is_string(json_object_get(sandbox, "tier")) ||
	    !opt_string_array(sandbox, "enforced"))
		return *why = "task-verification: sandbox needs tier and "
			      "enforced", -1;
	if (held && !json_is_object(held))
		return *why = "task-verification: heldOut must be an object", -1;
	if (held && !json_is_string(json_object_get(held, "result")))
		return *why = "task-verification: heldOut needs result", -1;
	if (model && (!json_is_object(model) || !opt_strings(model, model_keys)))
		return *why = "task-verification: model has provider and name",
		       -1;
	if (policy && (!json_is_object(policy) ||
		       !json_is_object(json_object_get(policy, "configDigest"))))
		return *why = "task-verification: policy needs configDigest", -1;
	return 0;
}

int sc_intoto_check_predicate(const char *predicate_type,
			      const json_t *predicate, const char **why)
{
	if (!json_is_object(predicate))
		return *why = "the predicate must be a JSON object", -1;
	if (!strcmp(predicate_type, SC_PREDICATE_TEST_RESULT))
		return check_test_result(predicate, why);
	if (!strcmp(predicate_type, SC_PREDICATE_TASK))
		return check_task(predicate, why);
	return 0;
}

/* ---- checking a statement against a commit ---- */

static int subject_status(const json_t *subject, const char *commit_hex,
			  const char *tree_hex, const char **why)
{
	size_t i;
	json_t *s;
	int found = 0;

	if (!json_is_array(subject) || !json_array_size(subject))
		return *why = "statement has no subject", SC_SUBJECT_MALFORMED;
	json_array_foreach(subject, i, s) {
		const json_t *digest = json_object_get(s, "digest");
		const char *c, *t;

		if (!json_is_object(s) || !json_is_object(digest))
			return *why = "subject without digest",
			       SC_SUBJECT_MALFORMED;
		c = json_string_value(json_object_get(digest, "gitCommit"));
		t = json_string_value(json_object_get(digest, "gitTree"));
		if (!c || strcmp(c, commit_hex))
			continue;
		if (json_object_get(digest, "gitTree") && (!t || strcmp(t, tree_hex)))
			return *why = "subject names this commit with another tree",
			       SC_SUBJECT_MISMATCH;
		found = 1;
	}
	if (!found)
		return *why = "statement is about another commit",
		       SC_SUBJECT_MISMATCH;
	return SC_SUBJECT_MATCH;
}

int sc_intoto_check_subject(const void *payload, size_t len,
			    const char *commit_hex, const char *tree_hex,
			    char **predicate_type, const char **why)
{
	json_error_t jerr;
	json_t *st = json_loadb(payload, len, JSON_REJECT_DUPLICATES, &jerr);
	const char *type, *ptype;
	int ret;

	*predicate_type = NULL;
	if (!json_is_object(st)) {
		json_decref(st);
		return *why = "payload is not a JSON object", SC_SUBJECT_MALFORMED;
	}
	type = json_string_value(json_object_get(st, "_type"));
	ptype = json_string_value(json_object_get(st, "predicateType"));
	if (!type || strcmp(type, SC_INTOTO_STATEMENT_TYPE))
		ret = SC_SUBJECT_MALFORMED, *why = "not an in-toto v1 statement";
	else if (!ptype || !json_is_object(json_object_get(st, "predicate")))
		ret = SC_SUBJECT_MALFORMED,
		*why = "statement without predicateType or predicate";
	else
		ret = subject_status(json_object_get(st, "subject"), commit_hex,
				     tree_hex, why);
	if (ret != SC_SUBJECT_MALFORMED)
		*predicate_type = sc_xstrdup(ptype);
	json_decref(st);
	return ret;
}

int sc_intoto_mutation_score(const void *payload, size_t len,
			     long long *killed, long long *total)
{
	json_t *st = json_loadb(payload, len, JSON_REJECT_DUPLICATES, NULL);
	const json_t *p = json_object_get(st, "predicate");
	const json_t *m = json_object_get(p, SC_PREDICATE_MUTATION);
	const char *ptype = json_string_value(json_object_get(st,
							      "predicateType"));
	int ret = -1;

	if (ptype && !strcmp(ptype, SC_PREDICATE_TASK) && check_mutation(m) &&
	    m) {
		*killed = json_integer_value(json_object_get(m, "killed"));
		*total = json_integer_value(json_object_get(m, "total"));
		ret = 0;
	}
	json_decref(st);
	return ret;
}
