# For commands a person or sandbox.networkAllow allowed to fetch
# dependencies: the host's network, and the package caches writable.
# ~/.cargo/bin stays read-only even though ~/.cargo/registry is writable.
[sandbox]
	network = full
	env = scrub
	writable = ~/.cache
	writable = ~/.npm
	writable = ~/.yarn
	writable = ~/.pnpm-store
	writable = ~/.cargo/registry
	writable = ~/.cargo/git
	writable = ~/go/pkg/mod
	writable = ~/.m2/repository
	writable = ~/.gradle/caches
	writable = ~/.nuget/packages
	writable = ~/.local/share/virtualenvs
