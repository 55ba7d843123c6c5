/*
 * sc-hash-git, the tool (hashgit.h): protect lists in, a manifest or
 * findings out.  The manifest is lib/githash.c.
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
#include "hashgit.h"
#include "io.h"
#include "process.h"
#include "rectable.h"

/* The largest manifest --output holds in memory to replace the file whole:
 * a repository with more is refused, never given a cut manifest. */
#define OUTPUT_MAX ((size_t)1 << 30)

static int load_manifest(const char *path, struct sc_hg_manifest *m)
{
	struct sc_input *in = sc_xmalloc(sizeof(*in));
	struct sc_reader rd;
	int fd = STDIN_FILENO, ret;

	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			free(in);
			sc_error_errno("READ-FAILED", "cannot read '%s'", path);
			return SC_EXIT_INTERNAL;
		}
	}
	sc_input_init_fd(in, fd);
	sc_reader_init(&rd, in);
	ret = sc_hg_read(&rd, m);
	if (fd != STDIN_FILENO)
		close(fd);
	free(in);
	return ret;
}

static int load_protect(const struct sc_hash_git_opts *o,
			struct sc_patterns *list)
{
	int ret = 0;

	if (o->protect_file)
		ret = sc_hg_load_protect(o->protect_file, list);
	if (!ret && o->protect_records)
		ret = sc_hg_load_protect_records(o->protect_records, list);
	return ret;
}

/*
 * Replace PATH by the manifest in FD (an anonymous file): the old manifest
 * or the new one whole, never a half one, and never written through a
 * symlink at PATH.
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
	return ret < 0 ? SC_EXIT_INTERNAL : 0;
}

/* Open the repository and write its manifest or the findings to OUT_FD. */
static int hash_repository(const struct sc_hash_git_opts *o,
			   const struct sc_hg_manifest *old, int out_fd)
{
	struct sc_hg_manifest now;
	struct sc_output out;
	git_repository *repo = NULL;
	size_t nfound = 0;
	int ret = SC_EXIT_OK, st;

	sc_hg_manifest_init(&now);
	st = sc_gitopen(&repo, o->dir ? o->dir : ".");
	if (st != SC_GITOPEN_OK) {
		ret = sc_gitopen_exit(st);
		goto done;
	}
	if (sc_hg_build(repo, &o->hg, &now) < 0) {
		/* never a partial manifest, never "no change" */
		ret = SC_EXIT_INTERNAL;
		goto done;
	}
	sc_output_init_records(&out, out_fd, o->hg.records && !o->output);
	if (o->check)
		st = sc_hg_compare(old, &now, &out, &nfound);
	else
		st = sc_hg_write(&now, &out);
	if (st < 0 || sc_output_flush(&out) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = SC_EXIT_INTERNAL;
	} else if (nfound) {
		ret = SC_EXIT_NO;
	}
	sc_output_release(&out);
done:
	git_repository_free(repo);
	sc_hg_manifest_release(&now);
	return ret;
}

int sc_hash_git_run(const struct sc_hash_git_opts *o)
{
	struct sc_hash_git_opts opts = *o;
	struct sc_hg_manifest old;
	struct sc_patterns protect;
	int ret, out_fd = STDOUT_FILENO;

	sc_hg_manifest_init(&old);
	sc_patterns_init(&protect);
	ret = load_protect(o, &protect);
	if (!ret && (o->protect_file || o->protect_records))
		opts.hg.protect = &protect;
	if (!ret && o->check)
		ret = load_manifest(o->check, &old);
	if (!ret && o->output) {
		out_fd = sc_anon_file("sc-hash-git-manifest");
		if (out_fd < 0) {
			sc_error_errno("WRITE-FAILED", "cannot make a "
				       "temporary file");
			ret = SC_EXIT_INTERNAL;
		}
	}
	if (!ret)
		ret = hash_repository(&opts, &old, out_fd);
	if (!ret && o->output)
		ret = replace_output(o->output, out_fd);
	if (out_fd != STDOUT_FILENO && out_fd >= 0)
		close(out_fd);
	sc_hg_manifest_release(&old);
	sc_patterns_release(&protect);
	return ret;
}
