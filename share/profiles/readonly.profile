# Nothing writable but the private TMPDIR: for commands that only look.
[sandbox]
	network = none
	env = scrub
	rootWritable = false
