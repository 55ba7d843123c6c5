# For commands a person or sandbox.networkAllow allowed to fetch
# dependencies: the host's network, and the package caches writable.
# They lie outside the root: each is named on stderr every run.
# ~/.cargo/bin stays read-only even though ~/.cargo/registry is writable.
[sandbox]
	network = full
	env = scrub
	writableOutside = ~/.cache
	writableOutside = ~/.npm
	writableOutside = ~/.yarn
	writableOutside = ~/.pnpm-store
	writableOutside = ~/.cargo/registry
	writableOutside = ~/.cargo/git
	writableOutside = ~/go/pkg/mod
	writableOutside = ~/.m2/repository
	writableOutside = ~/.gradle/caches
	writableOutside = ~/.nuget/packages
	writableOutside = ~/.local/share/virtualenvs
