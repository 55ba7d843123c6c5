/*
 * in-toto Statements in canonical JSON, with jansson.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "intoto.h"
#include "opt.h"
#include "record.h"

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

/* ---- the task-verification predicate from evidence records ---- */

/* The record types read once: the last one of each wins. */
enum last_kind {
	LAST_FEATURE, LAST_TASK, LAST_HOST, LAST_HELD, LAST_POLICY,
	LAST_MODEL, LAST_MUTATION, LAST_NR,
};

static const char *const last_types[LAST_NR] = {
	"feature", "task", "host", "held-out", "policy", "model",
	"mutation-score",
};

struct evidence {
	json_t *checks, *acceptance;  /* name -> {name, argv, exitStatus} */
	json_t *protections;          /* [[name, tier]], the enforced ones */
	struct sc_record last[LAST_NR];
	int seen[LAST_NR];
	unsigned long nr;             /* records read, for the messages */
};

static int bad(const struct evidence *e, const char *what)
{
	sc_error("EVIDENCE", "record %lu: %s", e->nr, what);
	return SC_EVIDENCE_MALFORMED;
}

/*
 * The one field NAME of R in *F (NULL when absent).  -1 when it is
 * repeated: a fact given twice in one record is not guessed at.
 */
static int one(const struct sc_record *r, const char *name,
	       const struct sc_field **f)
{
	size_t i;

	*f = NULL;
	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->fields[i].name, name)) {
			if (*f)
				return -1;
			*f = &r->fields[i];
		}
	return 0;
}

/* F's value as a JSON string: NULL when absent or not UTF-8. */
static json_t *jstr(const struct sc_field *f)
{
	return f ? json_stringn(f->value, f->value_len) : NULL;
}

/* 1 when F is present and its value is exactly S. */
static int is(const struct sc_field *f, const char *s)
{
	return f && f->value_len == strlen(s) && !memcmp(f->value, s, f->value_len);
}

/* A decimal count (sc_parse_uint's: no sign, no leading zero) into *N. */
static int integer(const struct sc_field *f, json_int_t *n)
{
	unsigned long long v;

	if (!f || strlen(f->value) != f->value_len ||
	    sc_parse_uint(f->value, (unsigned long long)1 << 53, &v))
		return -1;
	*n = (json_int_t)v;
	return 0;
}

/* type=evidence: the last record of a name stands for it. */
static int add_evidence(struct evidence *e, const struct sc_record *r)
{
	const struct sc_field *kind, *name, *status;
	json_t *map, *argv, *entry, *jname;
	json_int_t st;
	size_t i;

	if (one(r, "kind", &kind) || one(r, "name", &name) ||
	    one(r, "status", &status))
		return bad(e, "evidence with a repeated kind, name or status");
	if (!kind || is(kind, "check"))
		map = e->checks;
	else if (is(kind, "acceptance"))
		map = e->acceptance;
	else
		return 0;
	if (!name || memchr(name->value, '\0', name->value_len) ||
	    !(jname = jstr(name)))
		return bad(e, "evidence needs a name (UTF-8, no NUL)");
	if (integer(status, &st)) {
		json_decref(jname);
		return bad(e, "evidence needs a decimal status");
	}
	argv = json_array();
	for (i = 0; i < r->nr; i++) {
		json_t *arg;

		if (strcmp(r->fields[i].name, "argv"))
			continue;
		if (!(arg = jstr(&r->fields[i])) ||
		    json_array_append_new(argv, arg)) {
			json_decref(argv);
			json_decref(jname);
			return bad(e, "an evidence argv word is not UTF-8");
		}
	}
	entry = json_pack("{s:o, s:o, s:I}", "name", jname, "argv", argv,
			  "exitStatus", st);
	if (!entry || !json_array_size(argv)) {
		json_decref(entry);
		return bad(e, "evidence needs argv");
	}
	if (!json_object_get(map, name->value) &&
	    json_object_size(map) >= SC_EVIDENCE_NAMES) {
		json_decref(entry);
		return bad(e, "more evidence names than the limit");
	}
	return json_object_set_new(map, name->value, entry) ?
		bad(e, "evidence cannot be kept") : 0;
}

/* type=protection: the enforced ones, whatever their tier for now. */
static int add_protection(struct evidence *e, const struct sc_record *r)
{
	const struct sc_field *name, *tier, *enforced;
	json_t *pair;

	if (one(r, "name", &name) || one(r, "tier", &tier) ||
	    one(r, "enforced", &enforced) || !name || !tier || !enforced)
		return bad(e, "a protection needs one name, tier and enforced");
	if (!is(enforced, "yes"))
		return 0;
	if (json_array_size(e->protections) >= SC_EVIDENCE_PROTECTIONS)
		return bad(e, "more protections than the limit");
	pair = json_pack("[o, o]", jstr(name), jstr(tier));
	if (!pair)
		return bad(e, "a protection's name or tier is not UTF-8");
	json_array_append_new(e->protections, pair);
	return 0;
}

static int add_record(struct evidence *e, struct sc_record *r)
{
	const char *type = sc_record_str(r, "type");
	struct sc_record tmp;
	int k;

	if (!type)
		return 0;
	if (!strcmp(type, "evidence"))
		return add_evidence(e, r);
	if (!strcmp(type, "protection"))
		return add_protection(e, r);
	/* A probe's list starts at its host record: only the last probe's
	 * protections count, never ones that came before it in the stream. */
	if (!strcmp(type, "host"))
		json_array_clear(e->protections);
	for (k = 0; k < LAST_NR; k++)
		if (!strcmp(type, last_types[k])) {
			/* Keep it by swapping: R gets the old one's storage. */
			tmp = e->last[k];
			e->last[k] = *r;
			*r = tmp;
			e->seen[k] = 1;
			break;
		}
	return 0;
}

/* FIELD of the last record of kind K as a JSON string, or NULL. */
static json_t *last_str(const struct evidence *e, enum last_kind k,
			const char *field)
{
	const struct sc_field *f;

	return one(&e->last[k], field, &f) ? NULL : jstr(f);
}

/* The task's id: a leading T<digits> of its text (T003), else its number. */
static json_t *task_id(const struct evidence *e)
{
	const struct sc_field *text;
	size_t n = 1;

	if (!one(&e->last[LAST_TASK], "text", &text) && text &&
	    text->value_len > 1 && text->value[0] == 'T') {
		while (n < text->value_len && text->value[n] >= '0' &&
		       text->value[n] <= '9')
			n++;
		if (n > 1)
			return json_stringn(text->value, n);
	}
	return last_str(e, LAST_TASK, "n");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* MAP's values ordered by key, bytewise: the order of group_by in the
 * jq builder this replaced, which t/0525-attest-evidence.bats keeps. */
static json_t *sorted_values(json_t *map)
{
	const char **keys = sc_xcalloc(json_object_size(map) + 1, sizeof(*keys));
	json_t *a = json_array(), *v;
	const char *key;
	size_t n = 0, i;

	json_object_foreach(map, key, v)
		keys[n++] = key;
	qsort(keys, n, sizeof(*keys), cmp_str);
	for (i = 0; i < n; i++)
		json_array_append(a, json_object_get(map, keys[i]));
	free(keys);
	return a;
}

/* The host's tier and the protections enforced in it. */
static json_t *sandbox_object(const struct evidence *e)
{
	const struct sc_field *tier;
	json_t *enforced = json_array(), *pair;
	size_t i;

	if (one(&e->last[LAST_HOST], "tier", &tier) || !tier) {
		json_decref(enforced);
		return NULL;
	}
	json_array_foreach(e->protections, i, pair) {
		const char *t = json_string_value(json_array_get(pair, 1));

		if (json_string_length(json_array_get(pair, 1)) == tier->value_len &&
		    !memcmp(t, tier->value, tier->value_len))
			json_array_append(enforced, json_array_get(pair, 0));
	}
	return json_pack("{s:s, s:o}", "tier",
			 is(tier, "full") ? "full" : "degraded",
			 "enforced", enforced);
}

/* "mutation-score" from sc-mutation's record, or -1. */
static int mutation_object(const struct evidence *e, json_t **m)
{
	const struct sc_record *r = &e->last[LAST_MUTATION];
	const struct sc_field *k, *t, *min;
	json_int_t killed, total, minimum;

	if (one(r, "killed", &k) || one(r, "total", &t) ||
	    one(r, "minimum", &min) || integer(k, &killed) ||
	    integer(t, &total) || (min && integer(min, &minimum)))
		return -1;
	*m = json_pack("{s:I, s:I}", "killed", killed, "total", total);
	if (min)
		json_object_set_new(*m, "minimum", json_integer(minimum));
	return 0;
}

/* Set KEY of P to V; -1 (and V dropped) when V is NULL. */
static int put(json_t *p, const char *key, json_t *v)
{
	return v ? json_object_set_new(p, key, v) : -1;
}

static int build(struct evidence *e, json_t **out)
{
	json_t *p = json_object(), *m = NULL;
	const char *why;

	if (!e->seen[LAST_FEATURE] || put(p, "feature",
					  last_str(e, LAST_FEATURE, "name")))
		goto bad_feature;
	if (!e->seen[LAST_TASK] ||
	    put(p, "task", json_pack("{s:o, s:o}", "id", task_id(e), "line",
				     last_str(e, LAST_TASK, "line"))))
		goto bad_task;
	json_object_set_new(p, "checks", sorted_values(e->checks));
	json_object_set_new(p, "acceptance", sorted_values(e->acceptance));
	if (!e->seen[LAST_HOST] || put(p, "sandbox", sandbox_object(e)))
		goto bad_sandbox;
	put(p, "heldOut", json_pack("{s:o?}", "result", e->seen[LAST_HELD] ?
				    last_str(e, LAST_HELD, "result") :
				    json_string("NONE")));
	if (e->seen[LAST_POLICY] &&
	    put(p, "policy", json_pack("{s:{s:o}}", "configDigest", "sha256",
				       last_str(e, LAST_POLICY, "config-sha256"))))
		goto bad_policy;
	if (e->seen[LAST_MODEL])
		put(p, "model", json_pack("{s:o*, s:o*}", "provider",
					  last_str(e, LAST_MODEL, "provider"),
					  "name", last_str(e, LAST_MODEL, "name")));
	if (e->seen[LAST_MUTATION]) {
		if (mutation_object(e, &m))
			goto bad_mutation;
		json_object_set_new(p, SC_PREDICATE_MUTATION, m);
	}
	/* What is built is what verify checks: one definition. */
	if (sc_intoto_check_predicate(SC_PREDICATE_TASK, p, &why)) {
		json_decref(p);
		sc_error("EVIDENCE", "%s", why);
		return SC_EVIDENCE_MALFORMED;
	}
	*out = p;
	return 0;
bad_feature:
	why = "one type=feature record with a UTF-8 name is needed";
	goto fail;
bad_task:
	why = "one type=task record with line and n (or a T-numbered text) "
	      "is needed";
	goto fail;
bad_sandbox:
	why = "the sandbox probe's type=host record with a tier is needed";
	goto fail;
bad_policy:
	why = "type=policy needs config-sha256";
	goto fail;
bad_mutation:
	why = "type=mutation-score needs decimal killed and total";
fail:
	json_decref(p);
	sc_error("EVIDENCE", "%s", why);
	return SC_EVIDENCE_MALFORMED;
}

static void evidence_release(struct evidence *e)
{
	int k;

	json_decref(e->checks);
	json_decref(e->acceptance);
	json_decref(e->protections);
	for (k = 0; k < LAST_NR; k++)
		sc_record_release(&e->last[k]);
}

int sc_intoto_task_predicate(struct sc_input *in, json_t **predicate)
{
	struct evidence e;
	struct sc_reader rd;
	struct sc_record rec;
	int st, ret = 0, k;

	memset(&e, 0, sizeof(e));
	e.checks = json_object();
	e.acceptance = json_object();
	e.protections = json_array();
	for (k = 0; k < LAST_NR; k++)
		sc_record_init(&e.last[k]);
	sc_record_init(&rec);
	sc_reader_init(&rd, in);
	*predicate = NULL;
	while (!ret && (st = sc_reader_next(&rd, &rec)) == SC_READ_RECORD) {
		e.nr++;
		ret = add_record(&e, &rec);
	}
	if (!ret && st != SC_READ_EOF) {
		sc_reader_report(&rd, st);
		ret = st == SC_READ_IO ? SC_EVIDENCE_READ : SC_EVIDENCE_MALFORMED;
	}
	if (!ret)
		ret = build(&e, predicate);
	sc_record_release(&rec);
	evidence_release(&e);
	return ret;
}
