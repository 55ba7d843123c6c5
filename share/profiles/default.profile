# The default sandbox profile: checks and commands the model runs.
# The root and a private TMPDIR are writable; package caches and the rest
# of the system are readable, never writable; loopback only.
# Syntax: sc-sandbox-exec(1), PROFILES.
[sandbox]
	network = loopback
	env = scrub
