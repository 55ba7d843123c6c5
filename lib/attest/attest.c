/*
 * sc-attest's record, sign, show and verify over git notes, with libgit2.
 * Every command opens the repository through lib/gitopen (its own
 * configuration read as data, nothing of it ever run) and maps what fails
 * to its exit status itself; the helpers below return -1 with a
 * diagnostic (attest.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <git2.h>
#include <jansson.h>

#include "alloc.h"
#include "attest.h"
#include "gitopen.h"
#include "diag.h"
#include "dsse.h"
#include "intoto.h"
#include "record.h"
#include "signers.h"
#include "sshsig.h"

/* The identity of every notes commit: fixed, never a person's. */
#define NOTES_NAME "speccoder"
#define NOTES_EMAIL "speccoder@localhost"
/* A note larger than this is malformed: it bounds verify's memory. */
#define NOTE_MAX ((size_t)16 << 20)
#define LOCK_NAME "speccoder-notes.lock"

/* ---- the repository ---- */

/* Report libgit2's last error under CODE; -1. */
static int git_failed(const char *code, const char *what)
{
	const git_error *e = git_error_last();

	return sc_error(code, "%s: %s", what, e && e->message ? e->message :
					       "libgit2 error");
}

/* REV peeled to a commit.  0, or -1 with error[BAD-REVISION]. */
static int resolve_commit(git_repository *repo, const char *rev,
			  git_commit **commit)
{
	git_object *obj = NULL, *peeled = NULL;
	int ret = 0;

	if (git_revparse_single(&obj, repo, rev) < 0 ||
	    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0)
		ret = sc_error("BAD-REVISION", "'%s' does not name a commit", rev);
	else
		*commit = (git_commit *)peeled;
	git_object_free(obj);
	return ret;
}

static void oid_hex(const git_oid *id, char hex[GIT_OID_HEXSZ + 1])
{
	git_oid_tostr(hex, GIT_OID_HEXSZ + 1, id);
}

/* ---- record ---- */

/* Why reading the predicate failed, for the exit status. */
enum pred_fail { PRED_MALFORMED = 1, PRED_READ };

static int read_predicate_json(const char *path, json_t **pred)
{
	json_error_t jerr;

	if (!strcmp(path, "-"))
		*pred = json_loadf(stdin, JSON_REJECT_DUPLICATES, &jerr);
	else
		*pred = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!*pred)
		return sc_error("PREDICATE", "%s:%d: %s", path, jerr.line,
				jerr.text);
	if (!json_is_object(*pred)) {
		json_decref(*pred);
		*pred = NULL;
		return sc_error("PREDICATE", "%s: not a JSON object", path);
	}
	return 0;
}

/* The task-verification predicate built from the evidence records. */
static int build_predicate(const char *path, json_t **pred,
			   enum pred_fail *why)
{
	struct sc_input *in = sc_xmalloc(sizeof(*in));
	int fd = STDIN_FILENO, st;

	if (strcmp(path, "-") &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0) {
		free(in);
		*why = PRED_MALFORMED;
		return sc_error_errno("EVIDENCE", "cannot open '%s'", path);
	}
	sc_input_init_fd(in, fd);
	st = sc_intoto_task_predicate(in, pred);
	if (fd != STDIN_FILENO)
		close(fd);
	free(in);
	*why = st == SC_EVIDENCE_READ ? PRED_READ : PRED_MALFORMED;
	return st ? -1 : 0;
}

/*
 * The predicate of O, read (and checked against its type's rules) or
 * built from evidence.  0, or -1 with *WHY and a diagnostic.
 */
static int get_predicate(const struct sc_attest_record_opts *o, json_t **pred,
			 enum pred_fail *why)
{
	const char *text;

	*why = PRED_MALFORMED;
	if (o->evidence_path)
		return build_predicate(o->evidence_path, pred, why);
	if (read_predicate_json(o->predicate_path, pred))
		return -1;
	if (sc_intoto_check_predicate(o->predicate_type, *pred, &text)) {
		json_decref(*pred);
		*pred = NULL;
		return sc_error("PREDICATE", "%s: %s", o->predicate_path, text);
	}
	return 0;
}

/* The canonical statement about COMMIT, as the envelope's payload. */
static int make_payload(const struct sc_attest_record_opts *o,
			const char *predicate_type, git_commit *commit,
			json_t *pred, struct sc_buf *payload)
{
	char chex[GIT_OID_HEXSZ + 1], thex[GIT_OID_HEXSZ + 1];
	json_t *st;
	int ret;

	oid_hex(git_commit_id(commit), chex);
	oid_hex(git_commit_tree_id(commit), thex);
	st = sc_intoto_statement(o->subject_name ? o->subject_name : chex, chex,
				 thex, predicate_type, pred);
	ret = st && !sc_canonical_json(st, payload) ? 0 :
		sc_error("INTERNAL", "cannot build the statement");
	json_decref(st);
	return ret;
}

/* Sign ENV with KEY.  0, or -1 with error[SIGN-FAILED]. */
static int sign_with(struct sc_dsse *env, const struct sc_sshkey *key)
{
	struct sc_buf pae = SC_BUF_INIT, sig = SC_BUF_INIT, fpr = SC_BUF_INIT;
	int ret = 0;

	sc_dsse_pae(&pae, env->payload_type, env->payload.data, env->payload.len);
	if (sc_sshsig_sign(key, SC_ATTEST_NAMESPACE, pae.data, pae.len, &sig))
		ret = -1;
	else {
		sc_sshkey_fingerprint(key, &fpr);
		sc_dsse_add_sig(env, fpr.data, sig.data, sig.len);
	}
	sc_buf_release(&pae);
	sc_buf_release(&sig);
	sc_buf_release(&fpr);
	return ret;
}

/*
 * Serialise writers of the notes ref: read-append-write of a note is not
 * atomic, and two recorders must not lose each other's lines.  flock on a
 * file in the common git directory, released when the descriptor closes.
 */
static int lock_notes(git_repository *repo)
{
	struct sc_buf path = SC_BUF_INIT;
	int fd;

	sc_buf_adds(&path, git_repository_commondir(repo));
	sc_buf_adds(&path, LOCK_NAME);
	fd = open(path.data, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		sc_error_errno("LOCK", "cannot open '%s'", path.data);
	else
		while (flock(fd, LOCK_EX) < 0) {
			if (errno == EINTR)
				continue;
			sc_error_errno("LOCK", "cannot lock '%s'", path.data);
			close(fd);
			fd = -1;
			break;
		}
	sc_buf_release(&path);
	return fd;
}

/* The note of COMMIT into TEXT: 1 when there is one, 0 when not. */
static int read_note(git_repository *repo, const git_oid *commit,
		     struct sc_buf *text)
{
	git_note *note = NULL;

	if (git_note_read(&note, repo, SC_ATTEST_NOTES_REF, commit) < 0)
		return 0;
	sc_buf_adds(text, git_note_message(note));
	git_note_free(note);
	return 1;
}

/* 0, or -1 with error[NOTES-WRITE]. */
static int write_note(git_repository *repo, const git_oid *commit,
		      const char *text)
{
	git_signature *who = NULL;
	git_oid note_id;
	int ret = 0;

	if (git_signature_now(&who, NOTES_NAME, NOTES_EMAIL) < 0 ||
	    git_note_create(&note_id, repo, SC_ATTEST_NOTES_REF, who, who, commit,
			    text, 1) < 0)
		ret = git_failed("NOTES-WRITE", "cannot write the note");
	git_signature_free(who);
	return ret;
}

/* Append LINE to COMMIT's note under the lock.  0, or -1. */
static int append_note(git_repository *repo, const git_oid *commit,
		       const struct sc_buf *line)
{
	struct sc_buf text = SC_BUF_INIT;
	int fd, ret;

	if ((fd = lock_notes(repo)) < 0)
		return -1;
	if (read_note(repo, commit, &text) && text.len &&
	    text.data[text.len - 1] != '\n')
		sc_buf_addch(&text, '\n');
	sc_buf_add(&text, line->data, line->len);
	sc_buf_addch(&text, '\n');
	ret = write_note(repo, commit, text.data);
	close(fd);
	sc_buf_release(&text);
	return ret;
}

/* 0, or -1 when the output failed (main reports it). */
static int write_attestation(struct sc_output *out, git_commit *commit,
			     const char *predicate_type,
			     const struct sc_dsse *env)
{
	char chex[GIT_OID_HEXSZ + 1];
	struct sc_record rec;
	int ret;

	oid_hex(git_commit_id(commit), chex);
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "attestation");
	sc_record_adds(&rec, "commit", chex);
	sc_record_adds(&rec, "predicate-type", predicate_type);
	sc_record_adds(&rec, "signed", env->nr ? "yes" : "no");
	if (env->nr)
		sc_record_adds(&rec, "keyid", env->sigs[0].keyid);
	ret = sc_record_write(out, &rec) < 0 ? -1 : 0;
	sc_record_release(&rec);
	return ret;
}

/*
 * The envelope about COMMIT, signed with KEY when there is one, appended
 * to the note, and its record written.  0, or -1 with a diagnostic.
 */
static int record_envelope(const struct sc_attest_record_opts *o,
			   const char *ptype, git_repository *repo,
			   git_commit *commit, json_t *pred,
			   const struct sc_sshkey *key, struct sc_output *out)
{
	struct sc_dsse env;
	struct sc_buf line = SC_BUF_INIT;
	int ret;

	sc_dsse_init(&env);
	env.payload_type = sc_xstrdup(SC_DSSE_INTOTO);
	ret = make_payload(o, ptype, commit, pred, &env.payload);
	if (!ret && key)
		ret = sign_with(&env, key);
	if (!ret && sc_dsse_encode(&env, &line))
		ret = sc_error("INTERNAL", "cannot encode the envelope");
	if (!ret)
		ret = append_note(repo, git_commit_id(commit), &line);
	if (!ret)
		ret = write_attestation(out, commit, ptype, &env);
	sc_buf_release(&line);
	sc_dsse_release(&env);
	return ret;
}

/* The exit status for sc_gitopen's failure: 5 when libgit2 or I/O failed,
 * 4 when there is no repository git can read. */
static int gitopen_exit(int st)
{
	return st == SC_GITOPEN_FAILED ? SC_EXIT_INTERNAL : SC_EXIT_UNAVAILABLE;
}

/* The exit status for sc_sshkey_load_private's answer. */
static int key_exit(int st)
{
	if (!st)
		return SC_EXIT_OK;
	return st == SC_SSHKEY_ERR_FORMAT ? SC_EXIT_MALFORMED :
	       SC_EXIT_UNAVAILABLE;
}

int sc_attest_record_run(const struct sc_attest_record_opts *o,
			 struct sc_output *out)
{
	const char *ptype = o->predicate_type ? o->predicate_type :
						SC_PREDICATE_TASK;
	git_repository *repo = NULL;
	git_commit *commit = NULL;
	struct sc_sshkey key;
	enum pred_fail why;
	json_t *pred = NULL;
	int ret = 0, st, have_key = 0;

	if ((st = sc_gitopen(&repo, o->repo_dir ? o->repo_dir : ".")))
		return gitopen_exit(st);
	if (resolve_commit(repo, o->commit, &commit))
		ret = SC_EXIT_USAGE;
	else if (get_predicate(o, &pred, &why))
		ret = why == PRED_READ ? SC_EXIT_INTERNAL : SC_EXIT_MALFORMED;
	else if (o->key_path &&
		 !(ret = key_exit(sc_sshkey_load_private(&key, o->key_path))))
		have_key = 1;
	/* Everything is read and checked: only now is the note written. */
	if (!ret && record_envelope(o, ptype, repo, commit, pred,
				    have_key ? &key : NULL, out))
		ret = SC_EXIT_INTERNAL;
	if (have_key)
		sc_sshkey_release(&key);
	json_decref(pred);
	git_commit_free(commit);
	git_repository_free(repo);
	return ret;
}

/* ---- sign ---- */

struct sign_state {
	git_commit *commit;
	const struct sc_sshkey *key;
	struct sc_output *out;
	struct sc_buf text;       /* the new note */
	unsigned long signed_nr;
};

/*
 * One note line: signed again only when it is an unsigned in-toto
 * envelope about this very commit and tree; anything else is kept as it is.
 * 0, or -1 with a diagnostic.
 */
static int sign_line(struct sign_state *st, const char *line, size_t len,
		     unsigned long lineno)
{
	char chex[GIT_OID_HEXSZ + 1], thex[GIT_OID_HEXSZ + 1];
	struct sc_dsse env;
	struct sc_buf enc = SC_BUF_INIT;
	const char *why = NULL;
	char *ptype = NULL;
	int ret = 0;

	oid_hex(git_commit_id(st->commit), chex);
	oid_hex(git_commit_tree_id(st->commit), thex);
	if (!len || sc_dsse_parse(&env, line, len, &why)) {
		sc_buf_add(&st->text, line, len);
		return 0;
	}
	if (!env.nr && !strcmp(env.payload_type, SC_DSSE_INTOTO) &&
	    sc_intoto_check_subject(env.payload.data ? env.payload.data : "",
				    env.payload.len, chex, thex, &ptype,
				    &why) == SC_SUBJECT_MATCH) {
		if (!(ret = sign_with(&env, st->key)) &&
		    !(ret = sc_dsse_encode(&env, &enc) ?
			      sc_error("INTERNAL", "cannot encode the envelope") : 0) &&
		    !(ret = write_attestation(st->out, st->commit, ptype, &env))) {
			sc_buf_add(&st->text, enc.data, enc.len);
			st->signed_nr++;
			line = NULL;
		}
	} else if (!env.nr) {
		sc_warning("NOT-THIS-COMMIT", "note line %lu is not a statement "
			   "about %s; left unsigned", lineno, chex);
	}
	if (line)
		sc_buf_add(&st->text, line, len);
	free(ptype);
	sc_buf_release(&enc);
	sc_dsse_release(&env);
	return ret;
}

static int sign_note(struct sign_state *st, const struct sc_buf *note)
{
	const char *p = note->data, *end = note->data + note->len;
	unsigned long lineno = 0;
	int ret = 0;

	while (!ret && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		ret = sign_line(st, p, n, ++lineno);
		sc_buf_addch(&st->text, '\n');
		p = nl ? nl + 1 : end;
	}
	return ret;
}

int sc_attest_sign_run(const char *repo_dir, const char *rev,
		       const char *key_path, struct sc_output *out)
{
	struct sc_sshkey key;
	struct sign_state st = { NULL, &key, out, SC_BUF_INIT, 0 };
	struct sc_buf note = SC_BUF_INIT;
	git_repository *repo = NULL;
	int ret, fd = -1;

	if ((ret = key_exit(sc_sshkey_load_private(&key, key_path))))
		return ret;
	if ((ret = sc_gitopen(&repo, repo_dir ? repo_dir : ".")))
		ret = gitopen_exit(ret);
	else if (resolve_commit(repo, rev, &st.commit))
		ret = SC_EXIT_USAGE;
	else if ((fd = lock_notes(repo)) < 0)
		ret = SC_EXIT_INTERNAL;
	else if (!read_note(repo, git_commit_id(st.commit), &note)) {
		sc_error("NO-NOTE", "'%s' has no note to sign", rev);
		ret = SC_EXIT_NO;
	} else if (sign_note(&st, &note) ||
		   (st.signed_nr &&
		    write_note(repo, git_commit_id(st.commit), st.text.data)))
		ret = SC_EXIT_INTERNAL;
	else if (!st.signed_nr) {
		sc_warning("NOTHING-TO-SIGN", "'%s' has no unsigned envelope "
			   "about itself", rev);
		ret = SC_EXIT_NO;
	}
	if (fd >= 0)
		close(fd);
	sc_buf_release(&note);
	sc_buf_release(&st.text);
	git_commit_free(st.commit);
	git_repository_free(repo);
	sc_sshkey_release(&key);
	return ret;
}

/* ---- show ---- */

static void show_json(struct sc_output *out, const void *data, size_t len)
{
	json_error_t jerr;
	json_t *j = json_loadb(data, len, 0, &jerr);
	char *text = j ? json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS |
					   JSON_ENSURE_ASCII) : NULL;

	/* ENSURE_ASCII: no terminal control or bidi trick reaches the screen. */
	if (text) {
		sc_output_add(out, "  ", 2);
		for (const char *p = text; *p; p++) {
			sc_output_add(out, p, 1);
			if (*p == '\n')
				sc_output_add(out, "  ", 2);
		}
		sc_output_add(out, "\n", 1);
	} else {
		sc_output_add(out, "  (payload is not JSON)\n", 24);
	}
	free(text);
	json_decref(j);
}

static void show_sig(struct sc_output *out, const struct sc_dsse *env,
		     const struct sc_dsse_sig *s)
{
	struct sc_buf pae = SC_BUF_INIT, line = SC_BUF_INIT;
	struct sc_sshkey key;
	const char *why = NULL;

	sc_dsse_pae(&pae, env->payload_type, env->payload.data, env->payload.len);
	if (sc_sshsig_verify(s->sig.data, s->sig.len, SC_ATTEST_NAMESPACE,
			     pae.data, pae.len, &key, &why) == SC_SSHSIG_OK) {
		sc_buf_adds(&line, "  signature: valid, ");
		sc_buf_adds(&line, sc_sshkey_type_name(key.type));
		sc_buf_addch(&line, ' ');
		sc_sshkey_fingerprint(&key, &line);
		sc_buf_adds(&line, " (trust is decided by verify)\n");
		sc_sshkey_release(&key);
	} else {
		sc_buf_addf(&line, "  signature: INVALID (%s)\n", why);
	}
	sc_output_add(out, line.data, line.len);
	sc_buf_release(&line);
	sc_buf_release(&pae);
}

static void show_line(struct sc_output *out, const char *line, size_t len,
		      unsigned long n)
{
	struct sc_dsse env;
	struct sc_buf head = SC_BUF_INIT;
	const char *why = NULL;
	size_t i;

	if (sc_dsse_parse(&env, line, len, &why)) {
		sc_buf_addf(&head, "envelope %lu: malformed (%s)\n", n, why);
		sc_output_add(out, head.data, head.len);
		sc_buf_release(&head);
		return;
	}
	sc_buf_addf(&head, "envelope %lu: %s, %zu signature%s\n", n,
		    strcmp(env.payload_type, SC_DSSE_INTOTO) ? "unknown payload type"
							     : "in-toto statement",
		    env.nr, env.nr == 1 ? "" : "s");
	sc_output_add(out, head.data, head.len);
	for (i = 0; i < env.nr; i++)
		show_sig(out, &env, &env.sigs[i]);
	show_json(out, env.payload.data ? env.payload.data : "", env.payload.len);
	sc_buf_release(&head);
	sc_dsse_release(&env);
}

enum sc_attest_show_status sc_attest_show(git_repository *repo,
					  const git_oid *commit,
					  struct sc_output *out)
{
	char chex[GIT_OID_HEXSZ + 1];
	struct sc_buf head = SC_BUF_INIT;
	git_note *note = NULL;
	const char *p, *end;
	unsigned long n = 0;
	int st;

	st = git_note_read(&note, repo, SC_ATTEST_NOTES_REF, commit);
	if (st == GIT_ENOTFOUND)
		return SC_ATTEST_NO_NOTE;
	if (st < 0) {
		git_failed("NOTES-READ", "cannot read the commit's note in "
			   SC_ATTEST_NOTES_REF);
		return SC_ATTEST_UNREADABLE;
	}
	oid_hex(commit, chex);
	sc_buf_addf(&head, "commit %s\n", chex);
	sc_output_add(out, head.data, head.len);
	p = git_note_message(note);
	for (end = p + strlen(p); p < end; ) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (len)
			show_line(out, p, len, ++n);
		p = nl ? nl + 1 : end;
	}
	git_note_free(note);
	sc_buf_release(&head);
	return SC_ATTEST_SHOWN;
}

int sc_attest_show_run(const char *repo_dir, const char *rev,
		       struct sc_output *out)
{
	git_repository *repo = NULL;
	git_commit *commit = NULL;
	int ret;

	if ((ret = sc_gitopen(&repo, repo_dir ? repo_dir : ".")))
		ret = gitopen_exit(ret);
	else if (resolve_commit(repo, rev, &commit))
		ret = SC_EXIT_USAGE;
	else
		switch (sc_attest_show(repo, git_commit_id(commit), out)) {
		case SC_ATTEST_SHOWN:
			ret = SC_EXIT_OK;
			break;
		case SC_ATTEST_NO_NOTE:
			sc_error("NO-NOTE", "'%s' has no attestation", rev);
			ret = SC_EXIT_NO;
			break;
		default:
			ret = SC_EXIT_INTERNAL;
		}
	git_commit_free(commit);
	git_repository_free(repo);
	return ret;
}

/* ---- verify: outcomes ---- */

/* Ordered by severity: a commit's outcome is the worst of its envelopes. */
enum outcome {
	OUT_OK,
	OUT_UNSIGNED,
	OUT_UNTRUSTED,
	OUT_MISMATCH,
	OUT_BAD_SIGNATURE,
	OUT_MALFORMED,
	OUT_MISSING,
};

static const char *const outcome_names[] = {
	"ok", "unsigned", "untrusted-signer", "mismatch", "bad-signature",
	"malformed", "missing",
};

struct verdict {
	enum outcome outcome;
	const char *reason;           /* fixed text, for the worst one */
	struct sc_record *rec;        /* signer, keyid, predicate-type go here */
};

static void verdict_add(struct verdict *v, enum outcome o, const char *why)
{
	if (o > v->outcome || (o == v->outcome && !v->reason)) {
		v->outcome = o;
		v->reason = why;
	}
}

struct verify_ctx {
	const struct sc_attest_verify_opts *o;
	struct sc_signers signers;
	git_repository *repo;
};

/* One signature: bad, untrusted or ok (recording who signed). */
static enum outcome check_sig(struct verify_ctx *c, const struct sc_dsse_sig *s,
			      const struct sc_buf *pae, struct verdict *v,
			      const char **why)
{
	struct sc_sshkey key;
	struct sc_buf fpr = SC_BUF_INIT;
	const struct sc_signer *who = NULL;
	enum sc_signer_status st;
	enum outcome ret = OUT_OK;

	if (sc_sshsig_verify(s->sig.data, s->sig.len, SC_ATTEST_NAMESPACE,
			     pae->data, pae->len, &key, why) != SC_SSHSIG_OK)
		return OUT_BAD_SIGNATURE;
	sc_sshkey_fingerprint(&key, &fpr);
	/* keyid is only a hint, but one naming another key is a forgery. */
	if (s->keyid && strcmp(s->keyid, fpr.data)) {
		*why = "keyid does not name the signing key";
		ret = OUT_BAD_SIGNATURE;
	} else if ((st = sc_signers_find(&c->signers, &key, SC_ATTEST_NAMESPACE,
					 c->o->now, &who)) != SC_SIGNER_OK) {
		*why = sc_signer_status_text(st);
		ret = OUT_UNTRUSTED;
	} else {
		sc_record_adds(v->rec, "signer", who->principals);
		sc_record_adds(v->rec, "keyid", fpr.data);
	}
	sc_buf_release(&fpr);
	sc_sshkey_release(&key);
	return ret;
}

/* The envelope's signatures: ok when any one is valid and trusted. */
static void check_sigs(struct verify_ctx *c, const struct sc_dsse *env,
		       struct verdict *v)
{
	struct sc_buf pae = SC_BUF_INIT;
	enum outcome best = OUT_MALFORMED, o;
	const char *best_why = NULL, *why = NULL;
	size_t i;

	if (!env->nr) {
		verdict_add(v, OUT_UNSIGNED, "envelope has no signature");
		return;
	}
	sc_dsse_pae(&pae, env->payload_type, env->payload.data, env->payload.len);
	for (i = 0; i < env->nr && best != OUT_OK; i++) {
		o = check_sig(c, &env->sigs[i], &pae, v, &why);
		if (o < best) {
			best = o;
			best_why = why;
		}
	}
	sc_buf_release(&pae);
	verdict_add(v, best, best == OUT_OK ? NULL : best_why);
}

/*
 * What a task's statement says of its mutation score, shown beside the
 * outcome: only while every envelope so far is signed by a trusted key
 * (or unsigned where that is allowed), so a forged note adds nothing.
 */
static void add_mutation_score(const struct sc_dsse *env, struct verdict *v)
{
	long long killed, total;
	char text[64];

	if (v->outcome > OUT_UNSIGNED ||
	    sc_intoto_mutation_score(env->payload.data ? env->payload.data : "",
				     env->payload.len, &killed, &total))
		return;
	snprintf(text, sizeof(text), "%lld/%lld", killed, total);
	sc_record_adds(v->rec, "mutation-score", text);
}

static void check_envelope(struct verify_ctx *c, const char *line, size_t len,
			   const char *chex, const char *thex, struct verdict *v)
{
	struct sc_dsse env;
	const char *why = NULL;
	char *ptype = NULL;
	int st;

	if (sc_dsse_parse(&env, line, len, &why)) {
		verdict_add(v, OUT_MALFORMED, why);
		return;
	}
	if (strcmp(env.payload_type, SC_DSSE_INTOTO)) {
		verdict_add(v, OUT_MALFORMED, "payloadType is not in-toto");
		sc_dsse_release(&env);
		return;
	}
	st = sc_intoto_check_subject(env.payload.data ? env.payload.data : "",
				     env.payload.len, chex, thex, &ptype, &why);
	if (st == SC_SUBJECT_MALFORMED)
		verdict_add(v, OUT_MALFORMED, why);
	else {
		if (st == SC_SUBJECT_MISMATCH)
			verdict_add(v, OUT_MISMATCH, why);
		sc_record_adds(v->rec, "predicate-type", ptype);
		check_sigs(c, &env, v);
		add_mutation_score(&env, v);
	}
	free(ptype);
	sc_dsse_release(&env);
}

/* Every line of the note is an envelope; blank lines are skipped. */
static void check_note(struct verify_ctx *c, const char *text, size_t len,
		       const char *chex, const char *thex, struct verdict *v)
{
	const char *p = text, *end = text + len;
	int any = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n && !(n == 1 && *p == '\r')) {
			any = 1;
			check_envelope(c, p, n, chex, thex, v);
		}
		p = nl ? nl + 1 : end;
	}
	if (!any)
		verdict_add(v, OUT_MISSING, "the note is empty");
}

/* ---- verify: the notes of the range ---- */

struct note_ref {
	git_oid commit, blob;
};

struct note_map {
	struct note_ref *v;
	size_t nr, alloc;
};

static int note_ref_cmp(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct note_ref *)a)->commit,
			   &((const struct note_ref *)b)->commit);
}

/* Read the notes tree once: one lookup per commit instead of one walk. */
static int load_notes(git_repository *repo, struct note_map *m)
{
	git_note_iterator *it = NULL;
	struct note_ref r;
	int err;

	err = git_note_iterator_new(&it, repo, SC_ATTEST_NOTES_REF);
	if (err == GIT_ENOTFOUND)
		return 0;
	if (err < 0)
		return git_failed("NOTES-READ", "cannot read " SC_ATTEST_NOTES_REF);
	while (!(err = git_note_next(&r.blob, &r.commit, it))) {
		SC_ALLOC_GROW(m->v, m->nr + 1, m->alloc);
		m->v[m->nr++] = r;
	}
	git_note_iterator_free(it);
	if (err != GIT_ITEROVER)
		return git_failed("NOTES-READ", "cannot read " SC_ATTEST_NOTES_REF);
	qsort(m->v, m->nr, sizeof(*m->v), note_ref_cmp);
	return 0;
}

static const git_oid *note_for(const struct note_map *m, const git_oid *commit)
{
	struct note_ref key, *hit;

	if (!m->nr)
		return NULL;
	key.commit = *commit;
	hit = bsearch(&key, m->v, m->nr, sizeof(*m->v), note_ref_cmp);
	return hit ? &hit->blob : NULL;
}

static void verify_commit(struct verify_ctx *c, const struct note_map *m,
			  git_commit *commit, struct verdict *v)
{
	char chex[GIT_OID_HEXSZ + 1], thex[GIT_OID_HEXSZ + 1];
	const git_oid *blob_id = note_for(m, git_commit_id(commit));
	git_blob *blob = NULL;

	oid_hex(git_commit_id(commit), chex);
	oid_hex(git_commit_tree_id(commit), thex);
	if (!blob_id) {
		verdict_add(v, OUT_MISSING, "no note");
		return;
	}
	if (git_blob_lookup(&blob, c->repo, blob_id) < 0)
		verdict_add(v, OUT_MALFORMED, "the note's blob cannot be read");
	else if ((size_t)git_blob_rawsize(blob) > NOTE_MAX)
		verdict_add(v, OUT_MALFORMED, "the note is larger than 16 MiB");
	else
		check_note(c, git_blob_rawcontent(blob),
			   (size_t)git_blob_rawsize(blob), chex, thex, v);
	git_blob_free(blob);
}

static int passes(const struct sc_attest_verify_opts *o, enum outcome out)
{
	return out == OUT_OK || (out == OUT_UNSIGNED && o->allow_unsigned);
}

static int write_result(struct sc_output *out, const git_oid *id,
			struct verdict *v)
{
	char chex[GIT_OID_HEXSZ + 1];
	struct sc_record rec;
	size_t i;
	int ret;

	oid_hex(id, chex);
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "result");
	sc_record_adds(&rec, "commit", chex);
	sc_record_adds(&rec, "outcome", outcome_names[v->outcome]);
	if (v->outcome != OUT_OK && v->reason)
		sc_record_adds(&rec, "reason", v->reason);
	for (i = 0; i < v->rec->nr; i++)
		sc_record_add(&rec, v->rec->fields[i].name, v->rec->fields[i].value,
			      v->rec->fields[i].value_len);
	ret = sc_record_write(out, &rec);
	sc_record_release(&rec);
	return ret;
}

/* A walk of TIP's ancestors but BASE's, oldest first.  0, or -1. */
static int start_walk(git_repository *repo, git_commit *tip, git_commit *base,
		      git_revwalk **walk)
{
	if (git_revwalk_new(walk, repo) < 0 ||
	    git_revwalk_sorting(*walk, GIT_SORT_TOPOLOGICAL |
				       GIT_SORT_REVERSE) < 0 ||
	    git_revwalk_push(*walk, git_commit_id(tip)) < 0 ||
	    (base && git_revwalk_hide(*walk, git_commit_id(base)) < 0))
		return git_failed("WALK", "cannot walk the range");
	return 0;
}

static int write_conclusion(struct sc_output *out, const char *result,
			    unsigned long n, unsigned long ok)
{
	struct sc_record rec;
	int ret;

	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "conclusion");
	sc_record_adds(&rec, "result", result);
	sc_record_addu(&rec, "commits", n);
	sc_record_addu(&rec, "passed", ok);
	ret = sc_record_write(out, &rec);
	sc_record_release(&rec);
	return ret;
}

/*
 * One result per commit of WALK, then the conclusion.  0 with *PASSED
 * (1 when the conclusion passes), or -1 with a diagnostic.
 */
static int walk_range(struct verify_ctx *c, const struct note_map *m,
		      git_revwalk *walk, struct sc_output *out, int *passed)
{
	unsigned long n = 0, ok = 0;
	struct sc_record extra;
	const char *result;
	git_oid id;
	int err;

	sc_record_init(&extra);
	while (!(err = git_revwalk_next(&id, walk))) {
		struct verdict v = { OUT_OK, NULL, &extra };
		git_commit *commit;

		if (git_commit_lookup(&commit, c->repo, &id) < 0)
			break;
		sc_record_reset(&extra);
		verify_commit(c, m, commit, &v);
		git_commit_free(commit);
		n++;
		ok += (unsigned long)passes(c->o, v.outcome);
		if (write_result(out, &id, &v) < 0)
			break;
	}
	sc_record_release(&extra);
	if (err != GIT_ITEROVER)
		return git_failed("WALK", "cannot walk the range");
	result = !n ? "neutral" : ok == n ? "success" : "failure";
	if (write_conclusion(out, result, n, ok) < 0)
		return -1;
	*passed = n ? ok == n : c->o->neutral_ok;
	return 0;
}

/* ---- verify: GitHub Actions ---- */

static void add_sha(const json_t *v, const char **shas, size_t *n, size_t max)
{
	const char *s = json_string_value(v);

	if (s && *n < max)
		shas[(*n)++] = s;
}

/*
 * The commits that are the pull request's own code for EVENT, or 0 when
 * the event does not run with the base repository's secrets.
 */
static size_t pr_commits(const char *event, const json_t *ev,
			 const char **shas, size_t max)
{
	size_t n = 0, i;
	const json_t *pr, *wr, *prs, *p;
	const char *wevent;

	if (!strcmp(event, "pull_request_target")) {
		pr = json_object_get(ev, "pull_request");
		add_sha(json_object_get(json_object_get(pr, "head"), "sha"), shas,
			&n, max);
		add_sha(json_object_get(pr, "merge_commit_sha"), shas, &n, max);
		return n;
	}
	wr = json_object_get(ev, "workflow_run");
	wevent = json_string_value(json_object_get(wr, "event"));
	if (!wevent || (strcmp(wevent, "pull_request") &&
			strcmp(wevent, "pull_request_target")))
		return 0;
	add_sha(json_object_get(wr, "head_sha"), shas, &n, max);
	prs = json_object_get(wr, "pull_requests");
	json_array_foreach(prs, i, p)
		add_sha(json_object_get(json_object_get(p, "head"), "sha"), shas,
			&n, max);
	return n;
}

/*
 * Under pull_request_target, or a workflow_run started by a pull request,
 * the job holds the base repository's secrets: a checkout of the pull
 * request's code there is the classic "pwn request".  Refuse it, failing
 * closed when the event cannot be read.
 */
static int github_check(const struct sc_attest_verify_opts *o,
			git_repository *repo)
{
	const char *event = o->github_event_name, *shas[64];
	char head[GIT_OID_HEXSZ + 1];
	json_error_t jerr;
	git_oid id;
	json_t *ev;
	size_t n, i;
	int unsafe = 0;

	if (!o->github_actions || strcmp(o->github_actions, "true") || !event ||
	    (strcmp(event, "pull_request_target") && strcmp(event, "workflow_run")))
		return 0;
	ev = o->github_event_path ?
		json_load_file(o->github_event_path, 0, &jerr) : NULL;
	if (!ev)
		return sc_error("UNSAFE-CHECKOUT", "event %s: cannot read "
				"GITHUB_EVENT_PATH to check the checkout", event);
	n = pr_commits(event, ev, shas, sizeof(shas) / sizeof(*shas));
	if (n && !git_reference_name_to_id(&id, repo, "HEAD")) {
		oid_hex(&id, head);
		for (i = 0; i < n; i++)
			unsafe |= !strcmp(shas[i], head);
	}
	if (unsafe)
		sc_error("UNSAFE-CHECKOUT", "event %s: HEAD %s is the pull "
			 "request's code, checked out with the base repository's "
			 "secrets; verify from a checkout of the base branch",
			 event, head);
	json_decref(ev);
	return unsafe ? -1 : 0;
}

int sc_attest_verify_run(const struct sc_attest_verify_opts *o,
			 struct sc_output *out)
{
	struct verify_ctx c = { o, SC_SIGNERS_INIT, NULL };
	struct note_map m = { NULL, 0, 0 };
	git_commit *tip = NULL, *base = NULL;
	git_revwalk *walk = NULL;
	int ret, passed = 0;

	if (!o->allowed_signers) {
		sc_error("NO-TRUST", "no --allowed-signers: trust comes only from "
			 "the verifier, never from the checked branch");
		return SC_EXIT_USAGE;
	}
	if (sc_signers_load(&c.signers, o->allowed_signers) < 0)
		return SC_EXIT_USAGE;   /* the file is part of the command */
	if ((ret = sc_gitopen(&c.repo, o->repo_dir ? o->repo_dir : ".")))
		ret = gitopen_exit(ret);
	else if (github_check(o, c.repo))
		ret = SC_EXIT_UNAVAILABLE;
	else if (resolve_commit(c.repo, o->branch, &tip) ||
		 (o->base && resolve_commit(c.repo, o->base, &base)))
		ret = SC_EXIT_USAGE;
	else if (load_notes(c.repo, &m) || start_walk(c.repo, tip, base, &walk) ||
		 walk_range(&c, &m, walk, out, &passed))
		ret = SC_EXIT_INTERNAL;
	else
		ret = passed ? SC_EXIT_OK : SC_EXIT_NO;
	git_revwalk_free(walk);
	git_commit_free(tip);
	git_commit_free(base);
	free(m.v);
	git_repository_free(c.repo);
	sc_signers_release(&c.signers);
	return ret;
}
