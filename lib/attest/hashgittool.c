/*
 * sc-hash-git, the tool (hashgittool.h): protect lists in, a manifest or
 * findings out.  The manifest is lib/attest/githash.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "gitopen.h"
#include "hashgittool.h"
#include "io.h"
#include "process.h"
#include "rectable.h"

/* The largest manifest --output holds in memory to replace the file whole:
 * a repository with more is refused, never given a cut manifest. */
#define OUTPUT_MAX ((size_t)1 << 30)

/*
 * Read the manifest at PATH ("-": stdin) into M: sc_githash_read's status, or
 * SC_GITHASH_FAILED when PATH cannot be opened, after a diagnostic.
 */
static enum sc_githash_status load_manifest(const char *path,
					    struct sc_githash_manifest *m)
{
	struct sc_input *in;
	struct sc_reader rd;
	enum sc_githash_status ret;
	int fd = STDIN_FILENO;

	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			sc_error_errno("READ-FAILED", "cannot read '%s'", path);
			return SC_GITHASH_FAILED;
		}
	}
	in = sc_xmalloc(sizeof(*in));
	sc_input_init_fd(in, fd);
	sc_reader_init(&rd, in);
	ret = sc_githash_read(&rd, m);
	if (fd != STDIN_FILENO)
		close(fd);
	free(in);
	return ret;
}

static enum sc_githash_status load_protect(const struct sc_hash_git_opts *o,
				      struct sc_patterns *list)
{
	enum sc_githash_status ret = SC_GITHASH_OK;

	if (o->protect_file)
		ret = sc_githash_load_protect(o->protect_file, list);
	if (!ret && o->protect_records)
		ret = sc_githash_load_protect_records(o->protect_records, list);
	return ret;
}

/*
 * Replace PATH by the manifest in FD (an anonymous file): the old manifest
 * or the new one whole, never a half one, and never written through a
 * symlink at PATH.  0, or -1 after a diagnostic.
 */
static int replace_output(const char *path, int fd)
{
	struct sc_buf data = SC_BUF_INIT, dir = SC_BUF_INIT;
	const char *slash = strrchr(path, '/');
	enum sc_replace_step step = SC_REPLACE_CREATE;
	char msg[512];
	int dirfd = -1, trunc = 0, ret = 0;

	sc_sanitize(msg, sizeof(msg), path, strlen(path));
	if (lseek(fd, 0, SEEK_SET) < 0 ||
	    sc_read_fd_capped(fd, OUTPUT_MAX, &data, &trunc) < 0 || trunc) {
		ret = sc_error_errno("WRITE-FAILED", "cannot hold the manifest "
				     "for '%s'", msg);
		goto out;
	}
	if (slash)
		sc_buf_add(&dir, path, (size_t)(slash - path) + (slash == path));
	else
		sc_buf_adds(&dir, ".");
	dirfd = open(dir.data, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || sc_replace_file_at(dirfd, slash ? slash + 1 : path,
					    data.data ? data.data : "",
					    data.len, 0600, &step) < 0)
		ret = sc_error_errno("WRITE-FAILED", "cannot replace '%s'%s",
				     msg, step == SC_REPLACE_SYNC ?
				     " durably" : "");
out:
	if (dirfd >= 0)
		close(dirfd);
	sc_buf_release(&data);
	sc_buf_release(&dir);
	return ret;
}

/*
 * Build REPO's manifest and write it, or the findings against OLD, to
 * OUT_FD: the number of findings, or -1 after a diagnostic (never a
 * partial manifest, never "no change").
 */
static long hash_repository(const struct sc_hash_git_opts *o,
			    git_repository *repo,
			    const struct sc_githash_manifest *old, int out_fd)
{
	struct sc_githash_manifest now;
	struct sc_output out;
	size_t nfound = 0;
	long ret = -1;
	int st;

	sc_githash_manifest_init(&now);
	if (sc_githash_build(repo, &o->hg, &now) < 0)
		goto done;
	sc_output_init_records(&out, out_fd, o->hg.records && !o->output);
	if (o->check)
		st = sc_githash_compare(old, &now, &out, &nfound);
	else
		st = sc_githash_write(&now, &out);
	if (st < 0 || sc_output_flush(&out) < 0)
		sc_error_errno("WRITE-FAILED", "cannot write output");
	else
		ret = (long)nfound;
	sc_output_release(&out);
done:
	sc_githash_manifest_release(&now);
	return ret;
}

/* The exit status of an input that gave ST (githash.h). */
static int input_exit(enum sc_githash_status st)
{
	return st == SC_GITHASH_OK ? SC_EXIT_OK : st == SC_GITHASH_MALFORMED ?
	       SC_EXIT_MALFORMED : SC_EXIT_INTERNAL;
}

int sc_hash_git_run(const struct sc_hash_git_opts *o)
{
	struct sc_hash_git_opts opts = *o;
	struct sc_githash_manifest old;
	struct sc_patterns protect;
	git_repository *repo = NULL;
	int ret, out_fd = STDOUT_FILENO;
	long found = -1;

	sc_githash_manifest_init(&old);
	sc_patterns_init(&protect);
	/* The lists and the manifest are read before the repository. */
	ret = input_exit(load_protect(o, &protect));
	if (!ret && (o->protect_file || o->protect_records))
		opts.hg.protect = &protect;
	if (!ret && o->check)
		ret = input_exit(load_manifest(o->check, &old));
	if (!ret && (ret = sc_gitopen(&repo, o->dir ? o->dir : ".")) !=
	    SC_GITOPEN_OK)
		ret = ret == SC_GITOPEN_FAILED ? SC_EXIT_INTERNAL :
		      SC_EXIT_UNAVAILABLE;
	if (!ret && o->output &&
	    (out_fd = sc_anon_file("sc-hash-git-manifest")) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot make a temporary file");
		ret = SC_EXIT_INTERNAL;
	}
	if (!ret)
		found = hash_repository(&opts, repo, &old, out_fd);
	if (!ret && found > 0)
		ret = SC_EXIT_NO;
	else if (!ret && (found < 0 ||
			  (o->output && replace_output(o->output, out_fd) < 0)))
		ret = SC_EXIT_INTERNAL;
	if (out_fd != STDOUT_FILENO && out_fd >= 0)
		close(out_fd);
	git_repository_free(repo);
	sc_githash_manifest_release(&old);
	sc_patterns_release(&protect);
	return ret;
}
