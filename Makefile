# speccoder: the only build file.  Outputs go under build/.
#
#   make                 the library, every tool in bin/, the man pages
#   make test            deps, then every test under prove (unit, ASan+UBSan,
#                        bats, shellcheck); ends with prove's summary
#   make demo            deps, then the offline demonstration
#   make fuzz            every libFuzzer target for FUZZ_SECONDS each
#   make bench           benchmarks against peers (ratios, not assertions)
#   make install PREFIX=/usr/local DESTDIR=
#   make deps            install the Debian packages all of the above need,
#                        and the pinned npm packages of t/npm (real peers)

VERSION = 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
LIBEXECDIR = $(PREFIX)/libexec/speccoder
HOOKSGUARDDIR = $(LIBEXECDIR)/hooks-guard
PROFILEDIR = $(PREFIX)/share/speccoder/profiles
MANDIR = $(PREFIX)/share/man
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions

CC ?= cc
CLANG ?= clang
PKG_CONFIG ?= pkg-config
SCDOC ?= scdoc
PROVE ?= prove
FUZZ_SECONDS ?= 60
PROVE_JOBS ?= 2

# Libraries, each with a reason in DESIGN.md's dependency table.
PKGS = jansson libcrypto libgit2 libseccomp libcurl libhs

# Debian packages for the build, the tests, the demo and the benchmarks.
DEB_PACKAGES = gcc make pkg-config git perl jq \
	libjansson-dev libssl-dev libgit2-dev libseccomp-dev \
	libcurl4-openssl-dev libvectorscan-dev libcmocka-dev \
	bats bats-assert bats-support shellcheck scdoc \
	clang libclang-rt-14-dev \
	bubblewrap ripgrep hyperfine time openssh-client iproute2 procps \
	curl openssl chromium python3-yaml python3-jsonschema \
	libc6-dev strace

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
PKGS_OK := $(shell $(PKG_CONFIG) --exists $(PKGS) 2>/dev/null && echo yes)
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

WARN = -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla
STD = -std=c11 -D_GNU_SOURCE
CFLAGS ?= -O2 -g
SC_CFLAGS = $(STD) $(WARN) $(LIB_INC) -Ibuild/gen -DSC_VERSION='"$(VERSION)"' $(PKG_CFLAGS) \
	-fstack-protector-strong -MMD -MP
SC_LDFLAGS = -Wl,--as-needed
SAN = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

# lib/ is the core; each folder below it one group of modules (lib/README).
LIB_DIRS := lib $(patsubst %/,%,$(wildcard lib/*/))
LIB_INC = $(addprefix -I,$(LIB_DIRS))
LIB_SRC = $(wildcard $(addsuffix /*.c,$(LIB_DIRS)))
TOOL_SRC = $(wildcard bin/sc-*.c)
UNIT_SRC = $(wildcard t/unit/*.c)
FUZZ_SRC = $(wildcard t/fuzz/*.c)
TEST_HELPER_SRC = $(wildcard t/lib/*.c)
MAN_SRC = $(wildcard Documentation/*.[1-8].scd)
SCRIPTS = $(shell git ls-files -- bin libexec hooks-guard .ci contrib t 2>/dev/null | \
	while read -r f; do [ -f "$$f" ] && head -c 64 "$$f" | grep -q '^\#!.*sh' && echo "$$f"; done)

LIB_OBJ = $(LIB_SRC:%.c=build/obj/%.o)
LIB = build/libsc.a
TOOLS = $(TOOL_SRC:bin/%.c=build/bin/%)
# Tools linked statically, and their dynamically linked twins (lib/sandbox/twin.h).
STATIC_TOOLS = sc-sandbox-exec
TWINS = $(STATIC_TOOLS:%=build/libexec/speccoder/%)
UNIT = $(UNIT_SRC:t/unit/%.c=build/t/unit/%)
ASAN_LIB_OBJ = $(LIB_SRC:%.c=build/asan/obj/%.o)
ASAN_LIB = build/asan/libsc.a
ASAN_UNIT = $(UNIT_SRC:t/unit/%.c=build/asan/t/unit/%)
FUZZ_LIB_OBJ = $(LIB_SRC:%.c=build/fuzz/obj/%.o)
FUZZ = $(FUZZ_SRC:t/fuzz/%.c=build/fuzz/%)
TEST_HELPERS = $(TEST_HELPER_SRC:t/lib/%.c=build/t/%)
MAN = $(MAN_SRC:Documentation/%.scd=build/man/%)
BATS = $(sort $(wildcard t/*.bats) $(wildcard t/escape/*.bats))

all: check-pkgs $(LIB) $(TOOLS) $(TWINS) $(MAN)

check-pkgs:
ifneq ($(PKGS_OK),yes)
	@echo "speccoder: missing libraries ($(PKGS)); run 'make deps'" >&2; exit 1
endif

build/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(SC_CFLAGS) $(CFLAGS) -c -o $@ $<

# sc-sandbox-exec's seccomp filters, built once here with libseccomp from
# the rules in lib/sandbox/seccomp.c: building them at every start cost ~1.5 ms.
SECCOMP_BPF = build/gen/seccomp-bpf.h
GEN_SECCOMP_OBJ = $(filter %/seccomp.o %/diag.o %/termtext.o %/buf.o %/alloc.o,$(LIB_OBJ))

build/gen-seccomp: build-aux/gen-seccomp.c $(GEN_SECCOMP_OBJ)
	$(CC) $(SC_CFLAGS) $(CFLAGS) $(SC_LDFLAGS) -o $@ $< $(GEN_SECCOMP_OBJ) $(PKG_LIBS)

$(SECCOMP_BPF): build/gen-seccomp
	@mkdir -p $(dir $@)
	build/gen-seccomp >$@.tmp && mv $@.tmp $@

$(filter %/seccomp-load.o,$(LIB_OBJ) $(ASAN_LIB_OBJ) $(FUZZ_LIB_OBJ)): $(SECCOMP_BPF)

# sc-mask --scan's rules, compiled once here into a serialised Vectorscan
# database: compiling them at every start cost about a second.
SCAN_DB = build/gen/scan-db.h
GEN_SCAN_DB_OBJ = $(filter %/scanrules.o %/diag.o %/alloc.o %/termtext.o %/buf.o,$(LIB_OBJ))

build/gen-scan-db: build-aux/gen-scan-db.c $(GEN_SCAN_DB_OBJ)
	$(CC) $(SC_CFLAGS) $(CFLAGS) $(SC_LDFLAGS) -o $@ $< $(GEN_SCAN_DB_OBJ) $(PKG_LIBS)

$(SCAN_DB): build/gen-scan-db
	@mkdir -p $(dir $@)
	build/gen-scan-db >$@.tmp && mv $@.tmp $@

$(filter %/scan.o,$(LIB_OBJ) $(ASAN_LIB_OBJ) $(FUZZ_LIB_OBJ)): $(SCAN_DB)

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

build/bin/%: build/obj/bin/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SC_LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS)

# sc-sandbox-exec starts every sandboxed command, and statically linked it
# starts sooner (sc-sandbox-exec(1), START-UP COST).  It needs libc only;
# its objects that would use dlopen or NSS are built with SC_STATIC_EXE
# (lib/sandbox/twin.h), and any glibc warning about such a call fails the link
# (libc.a is libc6-dev's).
# Its twin, linked as every tool is, serves what needs them.
STATIC_EXE_OBJ = $(patsubst build/obj/%,build/static/obj/%,$(filter %/gitconfig.o %/netproxy.o,$(LIB_OBJ)))

build/static/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(SC_CFLAGS) $(CFLAGS) -DSC_STATIC_EXE -c -o $@ $<

$(STATIC_TOOLS:%=build/bin/%): build/bin/%: build/static/obj/bin/%.o $(STATIC_EXE_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -static -Wl,--fatal-warnings -o $@ $< $(STATIC_EXE_OBJ) $(LIB)

build/libexec/speccoder/%: build/obj/bin/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SC_LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS)

build/t/unit/%: build/obj/t/unit/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SC_LDFLAGS) -o $@ $< $(LIB) $(CMOCKA_LIBS) $(PKG_LIBS)

# Programs the tests use (a loopback model server, ...): standalone.
build/t/%: t/lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(CFLAGS) -o $@ $<

# The same library and unit tests under ASan and UBSan.
build/asan/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(SC_CFLAGS) -O1 -g $(SAN) -c -o $@ $<

$(ASAN_LIB): $(ASAN_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

build/asan/t/unit/%: build/asan/obj/t/unit/%.o $(ASAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) -g $(SAN) -o $@ $< $(ASAN_LIB) $(CMOCKA_LIBS) $(PKG_LIBS)

# libFuzzer targets, built with clang.
build/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CLANG) $(SC_CFLAGS) -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
		-c -o $@ $<

build/fuzz/%: t/fuzz/%.c $(FUZZ_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CLANG) $(STD) $(WARN) $(LIB_INC) $(PKG_CFLAGS) -O1 -g \
		-fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_LIB_OBJ) $(PKG_LIBS)

build/man/%: Documentation/%.scd
	@mkdir -p $(dir $@)
	$(SCDOC) < $< > $@.tmp && mv $@.tmp $@

unit: $(UNIT) $(ASAN_UNIT) $(TEST_HELPERS)

# The tests and the demo run a project's own make inside the sandbox: an
# inherited MAKELEVEL would make it print "make[1]: Entering directory"
# into the very output they check, so they run as if started by hand.
OUTSIDE_MAKE = env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES

# A failing test's diagnostics are in the log where prove met them; the
# failures are printed again at the end, where a CI log's tail shows them.
test:
	$(MAKE) deps
	$(MAKE) all unit
	@{ $(OUTSIDE_MAKE) $(PROVE) -j$(PROVE_JOBS) --failures --comments \
		--exec t/lib/run-test \
		$(UNIT) $(ASAN_UNIT) $(BATS); echo $$? >build/test.status; } 2>&1 | \
		tee build/test.log
	@st=$$(cat build/test.status); if [ "$$st" -ne 0 ]; then \
		echo "make test: the failures again:"; \
		awk '/^not ok/ { p = 1; print; next } p && /^#/ { print; next } \
			{ p = 0 }' build/test.log | tail -n 80; exit "$$st"; fi

demo:
	$(MAKE) deps
	$(MAKE) all
	$(OUTSIDE_MAKE) bash contrib/demo.sh

fuzz: $(FUZZ)
	@set -e; for f in $(FUZZ); do \
		name=$${f##*/}; corpus=build/fuzz/corpus/$$name; \
		mkdir -p "$$corpus"; \
		if [ -d "t/fuzz/corpus/$$name" ]; then cp -R "t/fuzz/corpus/$$name/." "$$corpus/"; fi; \
		echo "fuzz: $$name for $(FUZZ_SECONDS)s"; \
		"$$f" -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			"$$corpus" 2> "build/fuzz/$$name.log" || \
			{ tail -n 40 "build/fuzz/$$name.log"; exit 1; }; \
		grep -E '^(stat::number_of_executed_units|Done)' "build/fuzz/$$name.log" || true; \
	done

bench: all
	@set -e; for b in t/bench/*.sh; do [ -f "$$b" ] && bash "$$b"; done; true

shellcheck:
	shellcheck $(SCRIPTS)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) \
		$(DESTDIR)$(PROFILEDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 755 $(TOOLS) $(DESTDIR)$(BINDIR)
	@set -e; for f in bin/git-speccoder; do \
		if [ -f "$$f" ]; then install -m 755 "$$f" $(DESTDIR)$(BINDIR); fi; done
	@set -e; for f in libexec/speccoder/*; do \
		if [ -f "$$f" ]; then install -m 755 "$$f" $(DESTDIR)$(LIBEXECDIR); fi; done
	install -m 755 $(TWINS) $(DESTDIR)$(LIBEXECDIR)
	install -d $(DESTDIR)$(HOOKSGUARDDIR)/hooks
	@set -e; for f in hooks-guard/*; do \
		if [ -f "$$f" ]; then install -m 755 "$$f" $(DESTDIR)$(HOOKSGUARDDIR); fi; done
	install -m 644 hooks-guard/hooks/README $(DESTDIR)$(HOOKSGUARDDIR)/hooks
	@set -e; for f in share/profiles/*; do \
		if [ -f "$$f" ]; then install -m 644 "$$f" $(DESTDIR)$(PROFILEDIR); fi; done
	install -d $(DESTDIR)$(COMPLETIONDIR)
	install -m 644 contrib/completion/git-speccoder.bash $(DESTDIR)$(COMPLETIONDIR)/git-speccoder
	@set -e; for m in $(MAN); do \
		sec=$${m##*.}; install -d $(DESTDIR)$(MANDIR)/man$$sec; \
		install -m 644 "$$m" $(DESTDIR)$(MANDIR)/man$$sec; done

deps:
	@if ! command -v dpkg-query >/dev/null 2>&1; then \
		echo "speccoder: not a Debian system; install the equivalents of:"; \
		echo "  $(DEB_PACKAGES)"; exit 0; fi; \
	missing=; for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | \
			grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "speccoder: installing:$$missing"; \
	sudo=; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	$$sudo apt-get update -q && \
	DEBIAN_FRONTEND=noninteractive $$sudo apt-get -o DPkg::Lock::Timeout=900 \
		install -y -q --no-install-recommends $$missing
	@$(MAKE) --no-print-directory deps-npm

# The real peers the tests run against (ACP agents, MCP servers), pinned to
# exact versions in t/npm/package-lock.json.  Node and npm come from the
# system when present (any packaging), else from Debian.  npm ci runs only
# when the lock file changed since the last install.
deps-npm:
	@if ! command -v npm >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then \
		echo "speccoder: installing: nodejs npm"; \
		sudo=; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
		$$sudo apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get -o DPkg::Lock::Timeout=900 \
			install -y -q --no-install-recommends nodejs npm; \
	fi; \
	if ! command -v npm >/dev/null 2>&1; then \
		echo "speccoder: no npm: the tests with real agents will be skipped"; exit 0; fi; \
	if cmp -s t/npm/package-lock.json t/npm/node_modules/.speccoder-installed; then exit 0; fi; \
	npm ci --prefix t/npm --no-audit --no-fund --ignore-scripts && \
	cp t/npm/package-lock.json t/npm/node_modules/.speccoder-installed

clean:
	rm -rf build

.SECONDARY:

.PHONY: all check-pkgs unit test demo fuzz bench shellcheck install deps deps-npm clean

-include $(shell find build -name '*.d' 2>/dev/null)
