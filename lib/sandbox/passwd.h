#ifndef SC_PASSWD_H
#define SC_PASSWD_H

#include <stddef.h>
#include <sys/types.h>

/*
 * A user's home directory from /etc/passwd itself, never through NSS:
 * sc-sandbox-exec is linked statically, and glibc's getpwuid would load
 * the NSS modules of whatever glibc is installed at run time.  A user only
 * a directory service knows (LDAP, sssd) is not found here: the caller
 * decides what that means (sc-sandbox-exec(1), HIDDEN HOME).
 */

/* The largest passwd file read: a site's exported one is a few MiB. */
#define SC_PASSWD_MAX ((size_t)16 << 20)

enum sc_passwd_status {
	SC_PASSWD_FOUND = 0,
	SC_PASSWD_NOT_FOUND = 1,   /* no usable entry for the uid */
	SC_PASSWD_UNREADABLE = -1, /* cannot be read, or over SC_PASSWD_MAX */
};

/*
 * In LEN bytes of passwd(5) lines at DATA (no NUL needed), the home of
 * the first entry for UID, as getpwuid reads the files source: seven
 * colon-separated fields, the uid in decimal.  Lines that are not such an
 * entry are skipped, and so are NIS compat lines ("+...", "-...") and an
 * entry whose home is not an absolute path.  SC_PASSWD_FOUND with *HOME
 * allocated (the caller frees it), else SC_PASSWD_NOT_FOUND.
 */
int sc_passwd_parse_home(const char *data, size_t len, uid_t uid, char **home);

/* The same over the file PATH (/etc/passwd); SC_PASSWD_UNREADABLE when it
 * cannot be read whole. */
int sc_passwd_home(const char *path, uid_t uid, char **home);

#endif
