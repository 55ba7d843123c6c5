#include <stddef.h>

#include "credpaths.h"

/* Adding a path is one edit here, and one in sc-sandbox-exec(1). */
const char *const sc_home_credentials[] = {
	".ssh", ".aws", ".azure", ".gnupg", ".netrc", ".docker", ".kube",
	".npmrc", ".pypirc", ".git-credentials", ".password-store",
	".config/gh", ".config/gcloud", ".config/git/credentials",
	".cargo/credentials", ".cargo/credentials.toml",
	".local/share/keyrings", ".vault-token", "Library/Keychains", NULL,
};
