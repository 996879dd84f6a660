#!/bin/bash
# run.sh -- bg-rest differential suite: builds the instrument (driver.c +
# stubs.c) against a static library that exports the per-frame functions of
# the player-animation module (stance, conditions, controller lerps, slots),
# runs every case and compares the canonical dumps with the C original's.
#
#   run.sh --lib PATH/TO/lib.a --arch x86_64|i686|x86_64-windows|i686-windows|darwin-arm64
#          [--flavour game|cgame|game-windows] [--cases DIR]... [--expected DIR]
#          [--out DIR] [--jobs N]
#
# The flavours are PROTOCOL.md's: game (Linux behaviour), cgame (Windows
# behaviour, the client-game imports; -DBGR_FLAVOUR_CGAME) and game-windows
# (Windows behaviour with the game imports; -DBGR_FLAVOUR_GAME_WINDOWS).
# Windows arches: a mingw-w64 build of the library and of the driver, run
# under Wine ($WINE, default wine). darwin-arm64 (PROTOCOL.md "macOS arm64";
# the flavours game-windows and cgame): on an arm64 Mac the driver is built
# with cc and runs natively; elsewhere it is cross-built for aarch64 Linux with
# clang (--target=aarch64-linux-gnu -fuse-ld=lld -fsigned-char -Xclang
# -mlong-double-64: Darwin's char and long double) and every case runs under
# qemu-user (qemu-aarch64 -L /usr/aarch64-linux-gnu); BGR_CC / BGR_RUNNER
# override both. No case reads game data. Extra driver compiler flags in
# BGR_CFLAGS, extra link flags in BGR_LDLIBS.
# Where the C library's 32-bit headers lack the kernel's asm/ directory
# (a Debian system without gcc-multilib), the i686 driver takes the 64-bit
# one (the driver uses nothing in it but errno's constants, the same there).
# The expected outputs are stored once for the variants that share them
# (../README.md); the C original's were taken at -O0, the optimisation level
# the engine builds its modules with (gen/unstable-O0-O2.txt lists the cases
# whose -O2 output differs).
# BGR_X87_PC=53|64 in the environment makes the driver set the x87 precision
# control before the first case (PROTOCOL.md "x87 precision control"); with
# BGR_X87_PC=53 the expected outputs are those stored for the variant
# <flavour>-pc53 (the 53-bit probe, cases-x87/). On darwin-arm64 there is
# no x87: the driver ignores the setting (and the probe has no outputs there).
# The cases are the judge's (cases/) and the project's own (cases-own/,
# gen/gen_own.py: outputs checked against gen/own_ref.c); on darwin-arm64 the
# judge's alone: own_ref.c is a reference of the x86 builds, and cases-own
# have no darwin-arm64 outputs (../README.md).
# Prints one line per failing case and, last, exactly "N passed, M failed, 0
# skipped"; exits 0 only when M = 0.
set -u
here=$(cd "$(dirname "$0")" && pwd)
lib="" arch="" flavour=game casedirs=() expected="" out="" jobs=""
usage="usage: run.sh --lib LIB.a --arch x86_64|i686|x86_64-windows|i686-windows|darwin-arm64 [--flavour game|cgame|game-windows] [--cases DIR]... [--expected DIR] [--out DIR] [--jobs N]"
while [ $# -gt 0 ]; do
    case "$1" in
        --lib) lib=$2; shift 2 ;;
        --arch) arch=$2; shift 2 ;;
        --flavour) flavour=$2; shift 2 ;;
        --cases) casedirs+=("$2"); shift 2 ;;
        --expected) expected=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --data) shift 2 ;;  # accepted for scripts/ratchet.sh; no case reads game data
        *) echo "$usage" >&2
           echo "0 passed, 1 failed, 0 skipped"; exit 2 ;;
    esac
done
fail_setup() { echo "$1" >&2; echo "0 passed, 1 failed, 0 skipped"; exit 2; }
[ -n "$lib" ] && [ -f "$lib" ] || fail_setup "run.sh: --lib must name an existing static library"
win="" m="" darwin=""
case "$arch" in
    x86_64) m="-m64" ;;
    i686) m="-m32" ;;
    x86_64-windows|i686-windows) win=${arch%-windows} ;;
    darwin-arm64) darwin=1 ;;
    *) fail_setup "run.sh: --arch must be x86_64, i686, x86_64-windows, i686-windows or darwin-arm64" ;;
esac
case "$flavour" in
    game) fdef="" ;;
    cgame) fdef="-DBGR_FLAVOUR_CGAME" ;;
    game-windows) fdef="-DBGR_FLAVOUR_GAME_WINDOWS" ;;
    *) fail_setup "run.sh: --flavour must be game, cgame or game-windows" ;;
esac
# the engine builds no game flavour for macOS: there are no outputs of it
if [ -n "$darwin" ] && [ "$flavour" = game ] && [ -z "$expected" ] && [ -z "${PARITY_EXPECTED_ARCH:-}" ]; then
    fail_setup "run.sh: the game flavour has no darwin-arm64 build (PROTOCOL.md \"macOS arm64\"), so no outputs to compare with"
fi
case "${BGR_X87_PC:-}" in
    ""|64) variant=$flavour ;;
    53) variant=$flavour-pc53 ;;
    *) fail_setup "run.sh: BGR_X87_PC must be 53 or 64" ;;
esac
if [ ${#casedirs[@]} -eq 0 ]; then
    if [ -n "$darwin" ]; then casedirs=("$here/cases"); else casedirs=("$here/cases" "$here/cases-own"); fi
fi
[ -n "$out" ] || out=$(mktemp -d)
[ -n "$jobs" ] || jobs=$(nproc 2>/dev/null || echo 2)
abs() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$(pwd)" "$1" ;; esac; }
lib=$(abs "$lib"); out=$(abs "$out")
[ -z "$expected" ] || expected=$(abs "$expected")
data=""
. "$here/../lib.sh"
rm -rf "$out/actual"; mkdir -p "$out/actual" || fail_setup "run.sh: cannot create $out"

# shellcheck disable=SC2034  # read by lib.sh (build_driver)
MINGW_CC=${BGR_MINGW_CC:-} DARWIN_CC=${BGR_CC:-} DARWIN_RUNNER=${BGR_RUNNER:-}
if [ -z "$win" ]; then cflags="$fdef -std=c11 -O1"; else cflags="$fdef -std=c11 -D_DEFAULT_SOURCE -O1"; fi
build_driver bgr_driver "$cflags ${BGR_CFLAGS:-}" "${BGR_LDLIBS:-}"

collect_cases
driver_args=""
: > "$out/data.paths"
run_cases "$out/cases.paths"

compare_all bg-rest "$variant" "$arch"
