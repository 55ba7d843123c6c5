#ifndef SC_SANDBOX_H
#define SC_SANDBOX_H

/*
 * What sc-sandbox-exec(1) promises on every platform: its own exit codes,
 * as env(1) and timeout(1) use them.  Any other status is the command's.
 * The Linux tiers (sandbox-linux.h) and the macOS profile (seatbelt.h)
 * both end with these.
 */
enum {
	SC_SANDBOX_TIMEOUT = 124,   /* the deadline passed; all was killed */
	SC_SANDBOX_FAILED = 125,    /* its own failure: the command never ran */
	SC_SANDBOX_CANNOT_EXEC = 126,
	SC_SANDBOX_NOT_FOUND = 127,
};

/*
 * mkdtemp(3) template of the command's private TMPDIR, made under the
 * caller's absolute TMPDIR or /tmp on both platforms: one name, so a
 * left-over directory is recognised whichever tier made it.
 */
#define SC_SANDBOX_TMPDIR_TEMPLATE "sc-sandbox.XXXXXX"

#endif
