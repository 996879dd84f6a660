# uoanim — build every link unit for every target, and test everything.
#
#   make          builds dist/<arch>/libuoanim_<unit>.{a,so}, dist/include/
#                 and dist/bin/uoanim (the command-line tool)
#   make test     every test: Rust tests on every target, clippy, the
#                 boundary and module checks, headers, C layout/ABI tests,
#                 symbols, install, contrib, the tool, the corpus, memcheck
#                 and the differential suites of tests/parity against the
#                 committed ratchet (UO_DATA=DIR: the game data the stock
#                 cases read; without it they are skipped, counted)
#   make check    the fast tier for everyday work: x86_64 Rust tests,
#                 clippy, the source checks, headers, and the x86_64 Linux
#                 suite of each unit
#   make headers  regenerates include/ from the sources (tools/headers)
#   make release  the tool's release archives, dist/release/ (section
#                 "release archives")
#   make clean
#
# Layout: settings; the aggregate targets (dist, test, check: each declared
# once, their parts listed in the variables DIST_PARTS, TEST_PARTS and
# CHECK_PARTS, one a line, so a new part is one added line); then one
# section per concern, each with its build and test rules.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.NOTPARALLEL:
.DEFAULT_GOAL := dist

# ---- settings ----------------------------------------------------------------
# Linux (ELF) and Windows (mingw-w64, PE/COFF) targets; the names are the
# --arch names of the differential suites.
LINUX_ARCHES := x86_64 i686
WINDOWS_ARCHES := x86_64-windows i686-windows
ARCHES := $(LINUX_ARCHES) $(WINDOWS_ARCHES)
TRIPLE_x86_64 := x86_64-unknown-linux-gnu
TRIPLE_i686 := i686-unknown-linux-gnu
TRIPLE_x86_64-windows := x86_64-pc-windows-gnu
TRIPLE_i686-windows := i686-pc-windows-gnu
# Link units: game and cgame (player animation, Linux and Windows behaviour),
# game_windows (the game module built with Windows behaviour: the engine's
# client packages), engine and client (animation trees, Linux and Windows
# behaviour).
UNITS ?= game cgame game_windows engine client
# the units of the engine's macOS arm64 rules (section "macOS on Apple Silicon")
DARWIN_UNITS := game_windows cgame engine client
CARGO ?= cargo
TARGET_DIR := target
# The differential suites, and the game data their stock cases read (default:
# the stock data of ../shared/difftest when it is there; tests/parity/README.md)
PARITY := tests/parity
UO_DATA ?= $(if $(wildcard ../shared/difftest/pa/stock/playeranim.script),../shared/difftest)

SOURCES := Cargo.toml Cargo.lock build.rs $(shell find src core/src -name '*.rs' 2>/dev/null)
# aarch64 Linux, when its Rust target is installed (block at the end)
AARCH64_TRIPLE := aarch64-unknown-linux-gnu
AARCH64 := $(shell rustup target list --installed 2>/dev/null | grep -qx $(AARCH64_TRIPLE) && echo yes)
AARCH64_DIST := $(if $(AARCH64),dist-aarch64)
AARCH64_TEST := $(if $(AARCH64),test-aarch64)

HEADERS := uoanim_common.h uoanim_playeranim.h uoanim_animtree.h uoanim_action.h
LIBS := $(foreach a,$(ARCHES),$(foreach u,$(UNITS),dist/$(a)/libuoanim_$(u).a))
TOOL := dist/bin/uoanim
# the tool for Windows (x86_64, mingw-w64): its golden tests run under Wine
TOOL_WINDOWS := dist/bin/x86_64-windows/uoanim.exe
comma := ,
empty :=
space := $(empty) $(empty)

# ---- aggregate targets ---------------------------------------------------------
.PHONY: \
  all dist setup tool headers install clean \
  test check \
  test-rust test-rust-x86_64 test-lint test-clippy test-scripts \
  test-boundary test-boundary-x86_64 test-ffi-confined test-module-graph test-prose test-mirrors \
  test-headers test-c test-symbols test-install test-contrib test-tool test-core test-vim \
  test-corpus test-memcheck test-difftest test-difftest-x86_64 \
  fuzz fuzz-minimise memcheck \
  vsix release test-release dist-aarch64 test-aarch64 miri bench test-soft-x87 \
  dist-darwin test-darwin

DIST_PARTS := \
  $(LIBS) \
  dist/include/.stamp \
  $(TOOL) \
  $(TOOL_WINDOWS) \
  $(AARCH64_DIST) \
  dist-darwin

TEST_PARTS := \
  dist \
  test-headers \
  test-mirrors \
  test-lint \
  test-boundary \
  test-rust \
  test-c \
  test-symbols \
  test-install \
  test-contrib \
  test-tool \
  test-vim \
  test-release \
  test-corpus \
  test-memcheck \
  test-difftest \
  test-soft-x87 \
  test-darwin \
  $(AARCH64_TEST)

CHECK_PARTS := \
  test-rust-x86_64 \
  test-lint \
  test-boundary-x86_64 \
  test-headers \
  test-difftest-x86_64

all: dist

dist: setup $(DIST_PARTS)

test: $(TEST_PARTS)
	@echo "make test: all checks passed"

check: $(CHECK_PARTS)
	@echo "make check: all checks passed"

# Installs what a Debian machine with Rust lacks: the i686 Rust target and
# 32-bit C support.
setup:
	@scripts/setup.sh

clean:
	rm -rf dist build $(TARGET_DIR)

# ---- the link units ------------------------------------------------------------
# One cargo build per (arch, unit): the crate as a staticlib with the unit's
# Cargo feature and the C-library runtime (src/unit_runtime.rs), with LTO,
# which keeps of `core` and `alloc` only what the unit reaches (their
# prebuilt objects would bring unwinding references a unit never uses, and
# GNU ld drops no section in the relocatable PE link of package-unit.sh).
# A player-animation unit is two builds, two members of its archive: the
# crate without and with the `frame` feature (the nine per-frame exports,
# whose imports a program that calls none of them need not define).
CARGO_UNIT := CARGO_PROFILE_RELEASE_LTO=fat $(CARGO) rustc --crate-type staticlib --release --locked
FRAME_UNITS := game cgame game_windows
# the builds of the units, as Cargo features (clippy, scripts/check-boundary.py)
BOUNDARY_BUILDS = $(UNITS) $(foreach u,$(filter $(FRAME_UNITS),$(UNITS)),$(u)$(comma)frame)
# unit_build TRIPLE UNIT ENV: the unit's staticlib(s), copied beside cargo's
# output as libuoanim-UNIT.a and libuoanim-UNIT-frame.a, and the arguments
# package-unit.sh takes after ARCH and UNIT's name
define unit_build
	$(3) $$(CARGO_UNIT) --features $(2),c-runtime --target $(1) --target-dir $$(TARGET_DIR)
	cp $$(TARGET_DIR)/$(1)/release/libuoanim.a $$(TARGET_DIR)/$(1)/release/libuoanim-$(2).a
	$(if $(filter $(2),$(FRAME_UNITS)),$(3) $$(CARGO_UNIT) --features $(2)$(comma)c-runtime$(comma)frame --target $(1) --target-dir $$(TARGET_DIR))
	$(if $(filter $(2),$(FRAME_UNITS)),cp $$(TARGET_DIR)/$(1)/release/libuoanim.a $$(TARGET_DIR)/$(1)/release/libuoanim-$(2)-frame.a)
endef
unit_members = $(TARGET_DIR)/$(1)/release/libuoanim-$(2).a $(4) $(if $(filter $(2),$(FRAME_UNITS)),$(TARGET_DIR)/$(1)/release/libuoanim-$(2)-frame.a)
define unit_rule
dist/$(1)/libuoanim_$(2).a: $$(SOURCES) scripts/package-unit.sh
$(call unit_build,$$(TRIPLE_$(1)),$(2),)
	scripts/package-unit.sh $(1) $(2) $(call unit_members,$$(TRIPLE_$(1)),$(2),,dist/$(1))
endef
$(foreach a,$(ARCHES),$(foreach u,$(UNITS),$(eval $(call unit_rule,$(a),$(u)))))

# ---- headers -------------------------------------------------------------------
# Generated by tools/headers (cbindgen, a workspace tool of its own: building
# the library or the CLI does not build cbindgen) into build/include/;
# `make headers` writes include/, and test-headers fails when the committed
# include/ differs from what the sources give.
HEADER_TOOL := $(TARGET_DIR)/release/uoanim-headers
HEADER_INPUTS := $(SOURCES) cbindgen.toml

$(HEADER_TOOL): tools/headers/Cargo.toml tools/headers/src/main.rs Cargo.lock
	$(CARGO) build --release --locked -q -p uoanim-headers --target-dir $(TARGET_DIR)

build/include/.stamp: $(HEADER_TOOL) $(HEADER_INPUTS)
	$(HEADER_TOOL) . build/include
	touch $@

dist/include/.stamp: build/include/.stamp
	mkdir -p dist/include
	cp $(addprefix build/include/,$(HEADERS)) dist/include/
	touch $@

headers: build/include/.stamp
	cp $(addprefix build/include/,$(HEADERS)) include/

test-headers: build/include/.stamp
	@for h in $(HEADERS); do \
	  cmp -s include/$$h build/include/$$h || { echo "include/$$h differs from the generated header: run 'make headers' and commit"; diff -u include/$$h build/include/$$h | head -40; exit 1; }; \
	done; echo "headers: include/ matches the sources"
	python3 c_tests/engine_types.py include

# ---- Rust tests ------------------------------------------------------------------
# The Rust tests on every target; the Windows ones under Wine
# (scripts/wine/test-runner.sh), where Wine runs the target's programs.
RUNNER_x86_64-windows := CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER
RUNNER_i686-windows := CARGO_TARGET_I686_PC_WINDOWS_GNU_RUNNER
define wine_cargo_test
	@if why=$$(scripts/wine/can-run.sh $(1)); then \
	  echo "$(CARGO) test --target $(TRIPLE_$(1)) (under Wine)"; \
	  $(RUNNER_$(1))=$(CURDIR)/scripts/wine/test-runner.sh \
	    $(CARGO) test --locked --release -p uoanim -p uoanim-core --target-dir $(TARGET_DIR) --target $(TRIPLE_$(1)); \
	else echo "test-rust: the $(1) tests are not run: $$why"; fi

endef
test-rust-x86_64:
	$(CARGO) test --locked --release -p uoanim -p uoanim-core --target-dir $(TARGET_DIR) --target $(TRIPLE_x86_64)

test-rust: test-rust-x86_64
	$(CARGO) test --locked --release -p uoanim -p uoanim-core --target-dir $(TARGET_DIR) --target $(TRIPLE_i686)
	$(foreach a,$(WINDOWS_ARCHES),$(call wine_cargo_test,$(a)))

# ---- lint and source checks --------------------------------------------------------
# clippy clean for the core, every unit and the header tool; the boundary rules on the
# sources (nothing of the boundary outside src/ffi) and the module graph
# (no circle), the docs' prose, each script tested on its broken fixtures (scripts/tests/)
test-lint: test-clippy test-scripts test-ffi-confined test-module-graph test-core test-prose

# the core crate (core/): no unsafe code (the crate forbids it, as the tool's does), documented
# (`cargo doc` without a warning), publishable (`cargo package`)
test-core:
	@! grep -rnw unsafe core/src | grep -v forbid
	@! grep -rnw unsafe cli/src | grep -v forbid
	RUSTDOCFLAGS='-D warnings' $(CARGO) doc --locked -q -p uoanim-core --no-deps --target-dir $(TARGET_DIR)
	$(CARGO) package --locked -q -p uoanim-core --allow-dirty --target-dir $(TARGET_DIR)/package
	@echo "core: no unsafe code in core/src or cli/src, cargo doc without warnings, cargo package passes"

test-clippy:
	$(CARGO) clippy --locked --release --all-targets --target-dir $(TARGET_DIR) -- -D warnings
	@for u in $(BOUNDARY_BUILDS); do \
	  $(CARGO) clippy --locked --release --all-targets --features $$u --target-dir $(TARGET_DIR) -- -D warnings || exit 1; \
	done
	$(CARGO) clippy --locked --release -p uoanim-headers --all-targets --target-dir $(TARGET_DIR) -- -D warnings
	$(CARGO) clippy --locked --release -p uoanim-core --all-targets --target-dir $(TARGET_DIR) -- -D warnings

test-scripts:
	@for t in scripts/tests/*.sh; do $$t || exit 1; done

test-ffi-confined:
	python3 scripts/check-ffi-confined.py | tail -1

test-module-graph:
	python3 scripts/module-graph.py --summary

# the differential drivers' mirrors of the C types (tests/parity/*/layout.h,
# identical to the judge's) against include/: offsets and sizes, x86_64 and i686
test-mirrors: setup
	python3 scripts/check-mirrors.py

# the docs' prose (README.md, docs/*.md): lines under 100 characters,
# paragraphs under 15 lines
test-prose:
	python3 scripts/check-prose.py

# The boundary rules on the compiled library (no export reaches another;
# only the guard's cold frame, in an export, reaches the engine's error
# functions), on every target, or on x86_64 Linux alone for `make check`.
test-boundary:
	python3 scripts/check-boundary.py --targets $(subst $(space),$(comma),$(strip $(foreach a,$(ARCHES),$(TRIPLE_$(a))))) $(BOUNDARY_BUILDS)

test-boundary-x86_64:
	python3 scripts/check-boundary.py --targets $(TRIPLE_x86_64) $(BOUNDARY_BUILDS)

# ---- C tests, symbols, install, contrib --------------------------------------------
test-c: dist
	@for a in $(ARCHES) $(if $(AARCH64),aarch64); do c_tests/run.sh $$a; done

test-symbols: dist
	python3 scripts/check-symbols.py docs/ABI.md $(foreach a,$(ARCHES),$(foreach u,$(UNITS),$(a):$(u):dist/$(a)/libuoanim_$(u).a))

# what an installed prefix gives its user (files, SONAMEs, NEEDED, pkg-config)
test-install: dist
	scripts/test-install.sh "$(UNITS)"

# contrib/coduomp/uoanim.mk against a miniature copy of the engine's build layout,
# links and behaviour: the Linux targets with gcc, as the engine's ELF rules
# link; the Windows rules of docs/LINKING.md's table with the mingw-w64 gcc, the
# programs under Wine (x86_64 Windows: the client, the client-game module and the game module, which takes the Windows-behaviour unit there)
test-contrib: dist
	@for a in $(LINUX_ARCHES); do contrib/coduomp/test/run.sh $$a "$(UNITS)" || exit 1; done
	@contrib/coduomp/test/run.sh i686-windows "$(UNITS)"
	@contrib/coduomp/test/run.sh x86_64-windows "client cgame game_windows"

# make install PREFIX=DIR: one arch's units (INSTALL_ARCH, default x86_64;
# e.g. INSTALL_ARCH=i686 LIBDIR=DIR/lib32, INSTALL_ARCH=darwin-arm64), the headers under
# include/uoanim/, and pkg-config files uoanim-UNIT.pc
PREFIX ?= /usr/local
INSTALL_ARCH ?= x86_64
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# the units of the arch (darwin-arm64: its four)
INSTALL_UNITS = $(if $(filter darwin-arm64,$(INSTALL_ARCH)),$(filter $(DARWIN_UNITS),$(UNITS)),$(UNITS))
install: $(foreach u,$(INSTALL_UNITS),dist/$(INSTALL_ARCH)/libuoanim_$(u).a) dist/include/.stamp
	scripts/install.sh "$(INSTALL_ARCH)" "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(INCLUDEDIR)" "$(DESTDIR)$(PKGCONFIGDIR)" "$(PREFIX)" "$(INSTALL_UNITS)"

# ---- differential suites -----------------------------------------------------------
# every unit on every target, or each unit's x86_64 Linux suite (make check)
test-difftest: dist
	scripts/ratchet.sh "$(PARITY)" "$(ARCHES)" "$(UNITS)" "$(UO_DATA)"

test-difftest-x86_64: $(foreach u,$(UNITS),dist/x86_64/libuoanim_$(u).a)
	scripts/ratchet.sh "$(PARITY)" "x86_64" "$(UNITS)" "$(UO_DATA)"

# ---- the uoanim command-line tool (cli/, built for the host) ------------------------
#   dist/bin/uoanim: `uoanim check` / `uoanim explain` (docs/CHECK.md)
#   test-tool: its unit, golden, protocol and suite-agreement tests, clippy,
#              Neovim's LSP client against `uoanim lsp` (cli/tests/nvim), the
#              unit, golden and protocol tests of the x86_64-windows tool under
#              Wine and of the aarch64 tool under qemu-aarch64 (where that
#              target is installed),
#              and the VS Code extension's tests (editors/vscode, node): its grammars,
#              and its settings reaching `uoanim lsp` (the tool built here)
TOOL_SOURCES := cli/Cargo.toml docs/CHECK.md $(shell find cli/src -name '*.rs' 2>/dev/null)

tool: $(TOOL)

$(TOOL): $(SOURCES) $(TOOL_SOURCES)
	$(CARGO) build --release --locked -p uoanim-cli --target-dir $(TARGET_DIR)
	mkdir -p dist/bin
	cp $(TARGET_DIR)/release/uoanim $@

# The tool for Windows (x86_64, mingw-w64): its golden tests run under Wine
$(TOOL_WINDOWS): $(SOURCES) $(TOOL_SOURCES) Cargo.lock
	$(CARGO) build --release --locked -p uoanim-cli --target $(TRIPLE_x86_64-windows) --target-dir $(TARGET_DIR)
	mkdir -p $(dir $@)
	cp $(TARGET_DIR)/$(TRIPLE_x86_64-windows)/release/uoanim.exe $@

test-tool: $(TOOL) $(TOOL_WINDOWS)
	$(CARGO) clippy --locked --release -p uoanim-cli --all-targets --target-dir $(TARGET_DIR) -- -D warnings
	$(CARGO) test --locked --release -p uoanim-cli --target-dir $(TARGET_DIR) -- --nocapture
	cli/tests/nvim/run.sh $(TOOL)
	@if why=$$(scripts/wine/can-run.sh x86_64-windows); then \
	  echo "the tool's unit, golden and protocol tests on x86_64-windows (under Wine)"; \
	  mkdir -p $(TARGET_DIR)/$(TRIPLE_x86_64-windows)/release; \
	  x86_64-w64-mingw32-gcc -shared -O2 -o $(TARGET_DIR)/$(TRIPLE_x86_64-windows)/release/bcryptprimitives.dll \
	    scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def -ladvapi32; \
	  $(RUNNER_x86_64-windows)=$(CURDIR)/scripts/wine/test-runner.sh \
	    $(CARGO) test --locked --release -p uoanim-cli --target $(TRIPLE_x86_64-windows) --target-dir $(TARGET_DIR) --lib --test golden --test lsp --test protocol; \
	else echo "test-tool: the x86_64-windows golden tests are not run: $$why"; fi
# aarch64 Linux: the aarch64 test program and the aarch64 tool it runs,
# both under qemu-aarch64 (no binfmt entry is assumed: cli/tests/golden.rs
# runs the tool through UOANIM_TEST_RUNNER)
	@if [ -n "$(AARCH64)" ]; then \
	  command -v qemu-aarch64 >/dev/null || { echo "test-tool: no qemu-aarch64 for the aarch64 golden tests (scripts/setup.sh installs it)"; exit 1; }; \
	  echo "the tool's unit, golden and protocol tests on aarch64 Linux (the aarch64 build, under qemu-aarch64 -L /usr/aarch64-linux-gnu)"; \
	  $(AARCH64_ENV) UOANIM_TEST_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
	    $(CARGO) test --locked --release -p uoanim-cli --target $(AARCH64_TRIPLE) --target-dir $(TARGET_DIR) --lib --test golden --test lsp --test protocol; \
	else echo "test-tool: the aarch64 golden tests are not run: the Rust target $(AARCH64_TRIPLE) is not installed (scripts/setup.sh installs it)"; fi
	cd editors/vscode && npm ci --no-audit --no-fund && UOANIM_BIN=$(abspath $(TOOL)) npm test

# the VS Code extension (editors/vscode): dist/uoanim.vsix, by @vscode/vsce
VSIX := dist/uoanim.vsix
VSIX_SOURCES := $(addprefix editors/vscode/,package.json package-lock.json extension.js \
  language-configuration.json README.md .vscodeignore) $(wildcard editors/vscode/syntaxes/*.json)
vsix: $(VSIX)

$(VSIX): $(VSIX_SOURCES)
	cd editors/vscode && npm ci --no-audit --no-fund && npx vsce package --allow-missing-repository --skip-license -o ../../$@ < /dev/null

# ---- release archives ------------------------------------------------------------
#   make release: dist/release/uoanim-VERSION-x86_64-windows.zip (uoanim.exe)
#                 and dist/release/uoanim-VERSION-x86_64-linux.tar.gz (uoanim),
#                 each with the VS Code extension, the Vim files and a
#                 README.txt (scripts/release.sh); VERSION is cli/Cargo.toml's
#   test-release: unpacks both, checks their members, runs uoanim --version
#                 from the tarball and uoanim.exe --version (under Wine) from
#                 the zip (scripts/test-release.sh)
UOANIM_VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' cli/Cargo.toml | head -1)
RELEASE_WINDOWS := dist/release/uoanim-$(UOANIM_VERSION)-x86_64-windows.zip
RELEASE_LINUX := dist/release/uoanim-$(UOANIM_VERSION)-x86_64-linux.tar.gz
RELEASE_INPUTS := $(VSIX) editors/vim/ftdetect/uoanim.vim editors/vim/syntax/uoanim.vim \
  scripts/release.sh scripts/readme-snippet.sh README.md

release: $(RELEASE_WINDOWS) $(RELEASE_LINUX)

$(RELEASE_WINDOWS): $(TOOL_WINDOWS) $(RELEASE_INPUTS)
	scripts/release.sh windows $@ $(UOANIM_VERSION) $(TOOL_WINDOWS) $(VSIX)

$(RELEASE_LINUX): $(TOOL) $(RELEASE_INPUTS)
	scripts/release.sh linux $@ $(UOANIM_VERSION) $(TOOL) $(VSIX)

test-release: $(RELEASE_WINDOWS) $(RELEASE_LINUX)
	shellcheck scripts/release.sh scripts/test-release.sh scripts/readme-snippet.sh
	scripts/test-release.sh $(UOANIM_VERSION) $(RELEASE_WINDOWS) $(RELEASE_LINUX)

# the Vim and Neovim files (editors/vim: file type detection, highlighting),
# in headless Neovim: each kind of file's type, and the highlight groups at
# given places of sample files
test-vim:
	editors/vim/test/run.sh

# ---- fuzzing, corpus replay, memcheck --------------------------------------------
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

# ---- the software x87 on x86 ------------------------------------------------
# The `soft-x87` feature builds an x86 unit on the software x87 (the path
# targets without an x87 ship) instead of the hardware's: build/soft-x87/.
# test-soft-x87 judges two of them (the x86_64 game unit: -fexcess-precision=
# fast; the i686 cgame unit: ISO excess precision) with the bg-rest and pa
# suites and their x87 probes at 53 and 64 bits; `make bench` measures the
# first (scripts/bench.sh).
SOFT_X87_UNITS := x86_64:game i686:cgame
define soft_x87_rule
build/soft-x87/$(1)/libuoanim_$(2).a: $$(SOURCES) scripts/package-unit.sh
	CARGO_PROFILE_RELEASE_LTO=fat $$(CARGO) rustc --crate-type staticlib --release --locked --features $(2),c-runtime,soft-x87 --target $$(TRIPLE_$(1)) --target-dir $$(TARGET_DIR)/soft-x87
	cp $$(TARGET_DIR)/soft-x87/$$(TRIPLE_$(1))/release/libuoanim.a $$(TARGET_DIR)/soft-x87/libuoanim-$(1)-$(2).a
	CARGO_PROFILE_RELEASE_LTO=fat $$(CARGO) rustc --crate-type staticlib --release --locked --features $(2),c-runtime,soft-x87,frame --target $$(TRIPLE_$(1)) --target-dir $$(TARGET_DIR)/soft-x87
	cp $$(TARGET_DIR)/soft-x87/$$(TRIPLE_$(1))/release/libuoanim.a $$(TARGET_DIR)/soft-x87/libuoanim-$(1)-$(2)-frame.a
	mkdir -p build/soft-x87/$(1)
	scripts/package-unit.sh $(1) $(2) $$(TARGET_DIR)/soft-x87/libuoanim-$(1)-$(2).a build/soft-x87/$(1) $$(TARGET_DIR)/soft-x87/libuoanim-$(1)-$(2)-frame.a
endef
$(foreach u,$(SOFT_X87_UNITS),$(eval $(call soft_x87_rule,$(word 1,$(subst :, ,$(u))),$(word 2,$(subst :, ,$(u))))))

test-soft-x87: $(foreach u,$(SOFT_X87_UNITS),build/soft-x87/$(word 1,$(subst :, ,$(u)))/libuoanim_$(word 2,$(subst :, ,$(u))).a)
	@for u in $(SOFT_X87_UNITS); do a=$${u%%:*} unit=$${u#*:} fl=$$(echo $${u#*:} | tr _ -); lib=build/soft-x87/$$a/libuoanim_$$unit.a; \
	  echo "soft-x87 $$unit $$a bg-rest: $$($(PARITY)/bg-rest/run.sh --lib $$lib --arch $$a --flavour $$fl | tail -1)"; \
	  for pc in 53 64; do echo "soft-x87 $$unit $$a bg-rest-x87-pc$$pc: $$(BGR_X87_PC=$$pc $(PARITY)/bg-rest/run.sh --lib $$lib --arch $$a --flavour $$fl --cases $(PARITY)/bg-rest/cases-x87 | tail -1)"; \
	    echo "soft-x87 $$unit $$a pa-x87-pc$$pc: $$(PA_X87_PC=$$pc $(PARITY)/pa/run.sh --lib $$lib --arch $$a --flavour $$fl --cases $(PARITY)/pa/cases-x87 | tail -1)"; done; \
	  echo "soft-x87 $$unit $$a pa: $$($(PARITY)/pa/run.sh --lib $$lib --arch $$a --flavour $$fl $(if $(UO_DATA),--data $(UO_DATA)) | tail -1)"; \
	done | tee build/soft-x87/results; ! grep -v ' 0 failed' build/soft-x87/results

# The cost of the per-frame functions against their budgets (scripts/bench.sh).
bench: dist/x86_64/libuoanim_game.a dist/i686/libuoanim_game.a build/soft-x87/x86_64/libuoanim_game.a
	scripts/bench.sh

# ---- aarch64 Linux ----------------------------------------------------------
#   dist-aarch64: dist/aarch64/, the four units (for a future ARM engine
#                 build) and the tool
#   test-aarch64: the core's Rust tests under qemu-aarch64 (the tool's
#                 golden tests under qemu-aarch64 are in test-tool)
# Linked with clang and lld over Debian's arm64 cross libraries
# (scripts/aarch64-cc.sh; scripts/setup.sh installs them).
AARCH64_ENV := CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=$(CURDIR)/scripts/aarch64-cc.sh \
  CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
dist-aarch64: $(foreach u,$(UNITS),dist/aarch64/libuoanim_$(u).a) dist/aarch64/uoanim
define aarch64_unit_rule
dist/aarch64/libuoanim_$(1).a: $$(SOURCES) scripts/package-unit.sh scripts/aarch64-cc.sh
$(call unit_build,$$(AARCH64_TRIPLE),$(1),$$(AARCH64_ENV))
	scripts/package-unit.sh aarch64 $(1) $(call unit_members,$$(AARCH64_TRIPLE),$(1),,dist/aarch64)
endef
$(foreach u,$(UNITS),$(eval $(call aarch64_unit_rule,$(u))))
dist/aarch64/uoanim: $(SOURCES) $(TOOL_SOURCES) scripts/aarch64-cc.sh
	$(AARCH64_ENV) $(CARGO) build --release --locked -p uoanim-cli --target $(AARCH64_TRIPLE) --target-dir $(TARGET_DIR)
	mkdir -p dist/aarch64
	cp $(TARGET_DIR)/$(AARCH64_TRIPLE)/release/uoanim $@
test-aarch64:
	$(AARCH64_ENV) $(CARGO) test --locked --release --lib -p uoanim -p uoanim-core --target-dir $(TARGET_DIR) --target $(AARCH64_TRIPLE)

# The core's tests under Miri (nightly; tests that need the hardware's x87 or
# the C runtime are cfg(miri)-gated where they are, the randomised ones run
# a hundredth of their rounds: crate::rounds). The core crate's tests run
# with Miri's leak check; in the units' crate leaks are not reported: the
# parser's tests leak each script text on purpose (so that a parse's
# failures, which borrow it, outlive the harness); a leak is no undefined
# behaviour. Each test in a process of its own (cargo-nextest), as many at a
# time as there are CPUs.
miri:
	rustup component add --toolchain nightly miri rust-src
	rustup run nightly cargo miri nextest run --locked --lib -p uoanim-core --no-fail-fast --target-dir $(TARGET_DIR)/miri
	MIRIFLAGS="-Zmiri-ignore-leaks $${MIRIFLAGS:-}" rustup run nightly cargo miri nextest run --locked --lib -p uoanim --no-fail-fast --target-dir $(TARGET_DIR)/miri

# ---- macOS on Apple Silicon ----------------------------------------------------
# The four units of the engine's macOS arm64 rules (docs/ABI.md, "macOS
# arm64"): game_windows (the game module: upstream's x87 emulation at 53
# bits), cgame (native), engine (the dedicated server: the emulation at 64
# bits, XAnimGetLength returning `x87f`) and client (native binary64).
#   dist-darwin: dist/darwin-arm64/libuoanim_UNIT.a, Mach-O objects for
#                aarch64-apple-darwin (one member each: scripts/package-unit.sh),
#                and dist/darwin-arm64/qemu/libuoanim_UNIT.a, the same rules'
#                arithmetic built for aarch64 Linux (the `darwin` feature: Linux's
#                calling convention and symbol names), which the judge runs
#                under qemu-aarch64
#   test-darwin: clippy on both builds of each unit, the differential suites
#                of the qemu builds (pa, its x87 probe,
#                bg-rest, at: scripts/ratchet.sh), the symbol check of the
#                Mach-O archives (llvm-nm), Apple's variadic entry, called
#                as Apple's convention calls it (c_tests/apple), and the swap
#                into the engine's four Darwin rules (contrib/coduomp: the
#                qemu builds linked and run, the Mach-O link lines by make -n)
# Nothing here is optional: a missing tool or target fails the build.
DARWIN_TRIPLE := aarch64-apple-darwin
DARWIN_TARGET_DIR := $(TARGET_DIR)/darwin
DARWIN_MACHO := $(foreach u,$(DARWIN_UNITS),dist/darwin-arm64/libuoanim_$(u).a)
DARWIN_QEMU := $(foreach u,$(DARWIN_UNITS),dist/darwin-arm64/qemu/libuoanim_$(u).a)
DARWIN_VARIADIC := build/apple-variadic/libuoanim_game.a
dist-darwin: $(DARWIN_MACHO) $(DARWIN_QEMU)
define darwin_unit_rule
dist/darwin-arm64/libuoanim_$(1).a: $$(SOURCES) scripts/package-unit.sh
	$$(CARGO_UNIT) --features $(1),c-runtime --target $$(DARWIN_TRIPLE) --target-dir $$(DARWIN_TARGET_DIR)
	cp $$(DARWIN_TARGET_DIR)/$$(DARWIN_TRIPLE)/release/libuoanim.a $$(DARWIN_TARGET_DIR)/libuoanim-$(1).a
	scripts/package-unit.sh darwin-arm64 $(1) $$(DARWIN_TARGET_DIR)/libuoanim-$(1).a dist/darwin-arm64
dist/darwin-arm64/qemu/libuoanim_$(1).a: $$(SOURCES) scripts/package-unit.sh scripts/aarch64-cc.sh
	$$(AARCH64_ENV) $$(CARGO_UNIT) --features $(1),c-runtime,darwin --target $$(AARCH64_TRIPLE) --target-dir $$(DARWIN_TARGET_DIR)
	cp $$(DARWIN_TARGET_DIR)/$$(AARCH64_TRIPLE)/release/libuoanim.a $$(DARWIN_TARGET_DIR)/libuoanim-qemu-$(1).a
	$(if $(filter $(1),$(FRAME_UNITS)),$$(AARCH64_ENV) $$(CARGO_UNIT) --features $(1)$$(comma)c-runtime$$(comma)darwin$$(comma)frame --target $$(AARCH64_TRIPLE) --target-dir $$(DARWIN_TARGET_DIR))
	$(if $(filter $(1),$(FRAME_UNITS)),cp $$(DARWIN_TARGET_DIR)/$$(AARCH64_TRIPLE)/release/libuoanim.a $$(DARWIN_TARGET_DIR)/libuoanim-qemu-$(1)-frame.a)
	scripts/package-unit.sh aarch64 $(1) $$(DARWIN_TARGET_DIR)/libuoanim-qemu-$(1).a dist/darwin-arm64/qemu $(if $(filter $(1),$(FRAME_UNITS)),$$(DARWIN_TARGET_DIR)/libuoanim-qemu-$(1)-frame.a)
endef
$(foreach u,$(DARWIN_UNITS),$(eval $(call darwin_unit_rule,$(u))))

# the game unit with Apple's variadic entry, for aarch64 Linux (its test)
$(DARWIN_VARIADIC): $(SOURCES) scripts/package-unit.sh scripts/aarch64-cc.sh
	$(AARCH64_ENV) $(CARGO_UNIT) --features game,c-runtime,apple-variadic --target $(AARCH64_TRIPLE) --target-dir $(DARWIN_TARGET_DIR)
	cp $(DARWIN_TARGET_DIR)/$(AARCH64_TRIPLE)/release/libuoanim.a $(DARWIN_TARGET_DIR)/libuoanim-apple-variadic.a
	scripts/package-unit.sh aarch64 game $(DARWIN_TARGET_DIR)/libuoanim-apple-variadic.a build/apple-variadic

test-darwin: dist-darwin dist/include/.stamp $(DARWIN_VARIADIC)
	@for u in $(DARWIN_UNITS); do \
	  $(CARGO) clippy --locked --release --features $$u,c-runtime --target $(DARWIN_TRIPLE) --target-dir $(DARWIN_TARGET_DIR) -- -D warnings || exit 1; \
	  $(CARGO) clippy --locked --release --features $$u,c-runtime,darwin,frame --target $(AARCH64_TRIPLE) --target-dir $(DARWIN_TARGET_DIR) -- -D warnings || exit 1; \
	done
	python3 scripts/check-symbols.py docs/ABI.md $(foreach u,$(DARWIN_UNITS),darwin-arm64:$(u):dist/darwin-arm64/libuoanim_$(u).a)
	c_tests/apple/run.sh $(DARWIN_VARIADIC)
	contrib/coduomp/test/run.sh darwin-arm64 "$(DARWIN_UNITS)"
	scripts/ratchet.sh "$(PARITY)" "darwin-arm64" "$(DARWIN_UNITS)" "$(UO_DATA)"
