# uoanim — build every link unit for x86_64 and i686, and test everything.
#
#   make         builds dist/<arch>/libuoanim_<unit>.{a,so} and dist/include/
#   make test    cargo tests, C layout/ABI tests on both arches, symbol and
#                header checks, and the differential suites of tests/parity
#                against the committed ratchet (UO_DATA=DIR: the game data
#                the stock cases read; without it they are skipped, counted)
#   make headers regenerates include/ from the sources
#   make clean

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.NOTPARALLEL:
.DEFAULT_GOAL := dist

# Linux (ELF) and Windows (mingw-w64, PE/COFF) targets; the names are the
# --arch names of the differential suites.
LINUX_ARCHES := x86_64 i686
WINDOWS_ARCHES := x86_64-windows i686-windows
ARCHES := $(LINUX_ARCHES) $(WINDOWS_ARCHES)
# Link units: game and cgame (player animation, Linux and Windows behaviour),
# engine and client (animation trees, Linux and Windows behaviour).
UNITS ?= game cgame engine client
TRIPLE_x86_64 := x86_64-unknown-linux-gnu
TRIPLE_i686 := i686-unknown-linux-gnu
TRIPLE_x86_64-windows := x86_64-pc-windows-gnu
TRIPLE_i686-windows := i686-pc-windows-gnu
CARGO ?= cargo
TARGET_DIR := target
# The differential suites, and the game data their stock cases read (default:
# the stock data of ../shared/difftest when it is there; tests/parity/README.md)
PARITY := tests/parity
UO_DATA ?= $(if $(wildcard ../shared/difftest/pa/stock/playeranim.script),../shared/difftest)

HEADERS := uoanim_common.h uoanim_playeranim.h uoanim_animtree.h uoanim_action.h
LIBS := $(foreach a,$(ARCHES),$(foreach u,$(UNITS),dist/$(a)/libuoanim_$(u).a))

.PHONY: all dist setup headers test test-lint test-rust test-c test-symbols test-headers test-difftest test-install test-contrib clean install

all: dist

dist: setup $(LIBS) dist/include/.stamp

# Installs what a Debian machine with Rust lacks: the i686 Rust target and
# 32-bit C support.
setup:
	@scripts/setup.sh

SOURCES := Cargo.toml build.rs cbindgen.toml $(shell find src -name '*.rs' 2>/dev/null)

# One cargo build per (arch, unit): the crate as a staticlib with the unit's
# Cargo feature and the C-library runtime (src/unit_runtime.rs), with LTO,
# which keeps of `core` and `alloc` only what the unit reaches (their
# prebuilt objects would bring unwinding references a unit never uses, and
# GNU ld drops no section in the relocatable PE link of package-unit.sh).
CARGO_UNIT := CARGO_PROFILE_RELEASE_LTO=fat $(CARGO) rustc --crate-type staticlib --release --locked
define unit_rule
dist/$(1)/libuoanim_$(2).a: $$(SOURCES) scripts/package-unit.sh
	UOANIM_HEADER_DIR=$$(CURDIR)/build/include $$(CARGO_UNIT) --features $(2),c-runtime \
	  --target $$(TRIPLE_$(1)) --target-dir $$(TARGET_DIR)
	scripts/package-unit.sh $(1) $(2) $$(TARGET_DIR)/$$(TRIPLE_$(1))/release/libuoanim.a dist/$(1)
endef
$(foreach a,$(ARCHES),$(foreach u,$(UNITS),$(eval $(call unit_rule,$(a),$(u)))))

build/include/.stamp: $(SOURCES)
	UOANIM_HEADER_DIR=$(CURDIR)/build/include $(CARGO) build --release --locked --target-dir $(TARGET_DIR) -q
	touch $@

dist/include/.stamp: build/include/.stamp
	mkdir -p dist/include
	cp $(addprefix build/include/,$(HEADERS)) dist/include/
	touch $@

headers: build/include/.stamp
	cp $(addprefix build/include/,$(HEADERS)) include/

test: dist test-headers test-lint test-rust test-c test-symbols test-install test-contrib test-difftest
	@echo "make test: all checks passed"

# The Rust tests on every target; the Windows ones under Wine
# (scripts/wine/test-runner.sh), where Wine runs the target's programs.
RUNNER_x86_64-windows := CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER
RUNNER_i686-windows := CARGO_TARGET_I686_PC_WINDOWS_GNU_RUNNER
define wine_cargo_test
	@if why=$$(scripts/wine/can-run.sh $(1)); then \
	  echo "$(CARGO) test --target $(TRIPLE_$(1)) (under Wine)"; \
	  $(RUNNER_$(1))=$(CURDIR)/scripts/wine/test-runner.sh \
	    $(CARGO) test --locked --release --target-dir $(TARGET_DIR) --target $(TRIPLE_$(1)); \
	else echo "test-rust: the $(1) tests are not run: $$why"; fi

endef
test-rust:
	$(CARGO) test --locked --release --target-dir $(TARGET_DIR) --target $(TRIPLE_x86_64)
	$(CARGO) test --locked --release --target-dir $(TARGET_DIR) --target $(TRIPLE_i686)
	$(foreach a,$(WINDOWS_ARCHES),$(call wine_cargo_test,$(a)))

# clippy clean for the core and for every unit, and the boundary rules on
# the compiled library (no export reaches another; only the guard's cold
# frame reaches the engine's error functions) and the share of src/ffi
test-lint:
	$(CARGO) clippy --locked --release --all-targets --target-dir $(TARGET_DIR) -- -D warnings
	@for u in $(UNITS); do \
	  $(CARGO) clippy --locked --release --all-targets --features $$u --target-dir $(TARGET_DIR) -- -D warnings || exit 1; \
	done
	python3 scripts/check-boundary.py $(UNITS)
	python3 scripts/ffi-share.py 15 | tail -1

test-headers: build/include/.stamp
	@for h in $(HEADERS); do \
	  cmp -s include/$$h build/include/$$h || { echo "include/$$h differs from the generated header: run 'make headers' and commit"; diff -u include/$$h build/include/$$h | head -40; exit 1; }; \
	done; echo "headers: include/ matches the sources"
	python3 c_tests/engine_types.py include

test-c: dist
	@for a in $(ARCHES); do c_tests/run.sh $$a; done

test-symbols: dist
	python3 scripts/check-symbols.py docs/ABI.md $(foreach a,$(ARCHES),$(foreach u,$(UNITS),$(a):$(u):dist/$(a)/libuoanim_$(u).a))

test-difftest: dist
	scripts/ratchet.sh "$(PARITY)" "$(ARCHES)" "$(UNITS)" "$(UO_DATA)"

# make install PREFIX=DIR: one arch's units (INSTALL_ARCH, default x86_64;
# e.g. INSTALL_ARCH=i686 LIBDIR=DIR/lib32), the headers under
# include/uoanim/, and pkg-config files uoanim-UNIT.pc
PREFIX ?= /usr/local
INSTALL_ARCH ?= x86_64
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# contrib/coduomp/uoanim.mk against a miniature copy of the engine's build layout
# (the Linux targets: the miniature layout is linked with gcc, as the
# engine's ELF rules link; its Windows rules take the same source variables)
test-contrib: dist
	@for a in $(LINUX_ARCHES); do contrib/coduomp/test/run.sh $$a "$(UNITS)" || exit 1; done

# what an installed prefix gives its user (files, SONAMEs, NEEDED, pkg-config)
test-install: dist
	scripts/test-install.sh "$(UNITS)"

install: $(foreach u,$(UNITS),dist/$(INSTALL_ARCH)/libuoanim_$(u).a) dist/include/.stamp
	scripts/install.sh "$(INSTALL_ARCH)" "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(INCLUDEDIR)" "$(DESTDIR)$(PKGCONFIGDIR)" "$(PREFIX)" "$(UNITS)"

clean:
	rm -rf dist build $(TARGET_DIR)

# ---- the uoanim command-line tool (cli/, built for the host) ---------------
#   dist/bin/uoanim: `uoanim check` / `uoanim explain` (docs/CHECK.md)
#   test-tool: its unit, golden, protocol and suite-agreement tests, clippy,
#              Neovim's LSP client against `uoanim lsp` (cli/tests/nvim), and
#              the VS Code extension's grammar tests (editors/vscode, node)
TOOL := dist/bin/uoanim
TOOL_SOURCES := cli/Cargo.toml $(shell find cli/src -name '*.rs' 2>/dev/null)

.PHONY: tool test-tool
dist: $(TOOL)
test: test-tool
tool: $(TOOL)

$(TOOL): $(SOURCES) $(TOOL_SOURCES) Cargo.lock
	$(CARGO) build --release --locked -p uoanim-cli --target-dir $(TARGET_DIR)
	mkdir -p dist/bin
	cp $(TARGET_DIR)/release/uoanim $@

# The tool for Windows (x86_64, mingw-w64): its golden tests run under Wine
TOOL_WINDOWS := dist/bin/x86_64-windows/uoanim.exe
dist: $(TOOL_WINDOWS)
$(TOOL_WINDOWS): $(SOURCES) $(TOOL_SOURCES) Cargo.lock
	$(CARGO) build --release --locked -p uoanim-cli --target $(TRIPLE_x86_64-windows) --target-dir $(TARGET_DIR)
	mkdir -p $(dir $@)
	cp $(TARGET_DIR)/$(TRIPLE_x86_64-windows)/release/uoanim.exe $@

test-tool: $(TOOL) $(TOOL_WINDOWS)
	$(CARGO) clippy --locked --release -p uoanim-cli --all-targets --target-dir $(TARGET_DIR) -- -D warnings
	$(CARGO) test --locked --release -p uoanim-cli --target-dir $(TARGET_DIR) -- --nocapture
	cli/tests/nvim/run.sh $(TOOL)
	@if why=$$(scripts/wine/can-run.sh x86_64-windows); then \
	  echo "the tool's golden tests on x86_64-windows (under Wine)"; \
	  mkdir -p $(TARGET_DIR)/$(TRIPLE_x86_64-windows)/release; \
	  x86_64-w64-mingw32-gcc -shared -O2 -o $(TARGET_DIR)/$(TRIPLE_x86_64-windows)/release/bcryptprimitives.dll \
	    scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def -ladvapi32; \
	  $(RUNNER_x86_64-windows)=$(CURDIR)/scripts/wine/test-runner.sh \
	    $(CARGO) test --locked --release -p uoanim-cli --target $(TRIPLE_x86_64-windows) --target-dir $(TARGET_DIR) --test golden; \
	else echo "test-tool: the x86_64-windows golden tests are not run: $$why"; fi
	cd editors/vscode && npm ci --no-audit --no-fund && npm test

# the VS Code extension (editors/vscode): dist/uoanim.vsix, by @vscode/vsce
.PHONY: vsix
vsix:
	cd editors/vscode && npm ci --no-audit --no-fund && npx vsce package --allow-missing-repository --skip-license -o ../../dist/uoanim.vsix < /dev/null

# ---- fuzzing, corpus replay, memcheck (issue 11) ----------------------------
#   make fuzz FUZZ_SECONDS=N   every fuzz target in every flavour, N s each
#                              (cargo-fuzz + libFuzzer + ASan; installs cargo-fuzz)
#   make fuzz-minimise         the working corpus, minimised, as fuzz/regression/
#   make memcheck              valgrind over the C tests, >= 100 differential
#                              cases of tests/parity per suite and flavour (those
#                              that read game data only with UO_DATA) and the
#                              corpus, both arches
# `make test` also replays the regression corpus (stable toolchain, no
# instrumentation) and runs a short memcheck.
FUZZ_SECONDS ?= 60
.PHONY: fuzz fuzz-minimise memcheck test-corpus test-memcheck

fuzz: setup
	scripts/fuzz.sh run $(FUZZ_SECONDS)

fuzz-minimise:
	scripts/fuzz.sh minimise

memcheck: dist
	ARCHES="$(LINUX_ARCHES)" UO_DATA="$(UO_DATA)" scripts/memcheck.sh

test-corpus: dist
	ARCHES="$(LINUX_ARCHES)" scripts/replay-corpus.sh

test-memcheck: dist
	ARCHES="$(LINUX_ARCHES)" UO_DATA="$(UO_DATA)" scripts/memcheck.sh --short

test: test-corpus test-memcheck
