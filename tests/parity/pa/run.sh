#!/bin/bash
# run.sh -- pa differential suite: builds the instrument (driver.c + stubs.c)
# against a static library that exports the player animation-script module,
# runs every case and compares the canonical dumps with the C original's.
#
#   run.sh --lib PATH/TO/lib.a --arch x86_64|i686|x86_64-windows|i686-windows|darwin-arm64
#          [--flavour game|cgame|game-windows] [--data DIR] [--cases DIR]... [--expected DIR]
#          [--out DIR] [--jobs N]
#
# --arch x86_64-windows / i686-windows (PROTOCOL.md "Windows targets"): the
# library is a mingw-w64 static library; the driver is built with
# x86_64-w64-mingw32-gcc / i686-w64-mingw32-gcc (PA_MINGW_CC overrides) and
# every case runs under Wine ($WINE, default wine; WINEDEBUG defaults to -all).
# --arch darwin-arm64 (PROTOCOL.md "macOS arm64"): on an arm64 Mac the driver
# is built with cc and runs natively; elsewhere it is cross-built for aarch64
# Linux with clang (--target=aarch64-linux-gnu -fuse-ld=lld -fsigned-char
# -Xclang -mlong-double-64: Darwin's char and long double) and every case runs
# under qemu-user (qemu-aarch64 -L /usr/aarch64-linux-gnu); PA_CC / PA_RUNNER
# override both. The C original's outputs there are those of game-windows and
# cgame.
#
# --flavour selects the module build the library implements (PROTOCOL.md
# "cgame flavour"): game (default; the server game module's imports) or cgame (the
# client-game module's imports; the driver is compiled with -DPA_FLAVOUR_CGAME)
# or game-windows (the server game module as the Windows client packages build
# it, -DWINDOWS_BEHAVIOR: game imports plus G_Error / G_Printf /
# coduo_crt_randrange; the driver is compiled with -DPA_FLAVOUR_GAME_WINDOWS;
# PROTOCOL.md "game-windows flavour").
# PA_X87_PC=53|64 in the environment makes the driver set the x87 precision
# control at start-up (PROTOCOL.md "x87 precision control"; Wine inherits it);
# with PA_X87_PC=53 the expected outputs are those stored for the variant
# <flavour>-pc53 (../README.md "Expected outputs"). On darwin-arm64 there is
# no x87: the driver ignores the setting, and the variant is selected as on
# the other arches (the probe's outputs are stored for both).
# --data names the game-data directory (../README.md "Game data"): either a
# directory holding playeranim.script, stock_tree.inc and stock_weapons.inc, or
# one holding pa/stock/ with them.  Cases that read game data (a `script-file`
# or `include` line) are skipped without it, and counted.
# --cases may be given more than once (the case names must stay distinct).
# Defaults: --cases <here>/cases (cgame, game-windows: <here>/cases and
# <here>/cases-cgame; the x87 probe is <here>/cases-x87, given with --cases),
# the expected outputs of <here>/expected (stored once for the variants that
# share them: ../README.md), --out a fresh temporary directory, --jobs = CPUs.
# --expected DIR compares with DIR/<case>.out instead.
# Extra link flags for the library may be given in PA_LDLIBS, extra compiler
# flags for the driver (e.g. -fsanitize=address) in PA_CFLAGS (both also for
# the Windows arches).
# Prints one line per failing case and, last, exactly "N passed, M failed, K
# skipped" (followed by the reason when K > 0); exits 0 only when M = 0.
set -u
here=$(cd "$(dirname "$0")" && pwd)
lib="" arch="" flavour=game casedirs=() expected="" out="" data="" jobs=""
usage="usage: run.sh --lib LIB.a --arch x86_64|i686|x86_64-windows|i686-windows|darwin-arm64 [--flavour game|cgame|game-windows] [--data DIR] [--cases DIR]... [--expected DIR] [--out DIR] [--jobs N]"
while [ $# -gt 0 ]; do
    case "$1" in
        --lib) lib=$2; shift 2 ;;
        --arch) arch=$2; shift 2 ;;
        --flavour) flavour=$2; shift 2 ;;
        --cases) casedirs+=("$2"); shift 2 ;;
        --expected) expected=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --data) data=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        *) echo "$usage" >&2
           echo "0 passed, 1 failed, 0 skipped"; exit 2 ;;
    esac
done
fail_setup() { echo "$1" >&2; echo "0 passed, 1 failed, 0 skipped"; exit 2; }
[ -n "$lib" ] && [ -f "$lib" ] || fail_setup "run.sh: --lib must name an existing static library"
win="" darwin=""
case "$arch" in
    x86_64) m="-m64" ;;
    i686) m="-m32" ;;
    x86_64-windows|i686-windows) win=${arch%-windows} ;;
    darwin-arm64) m="" darwin=1 ;;
    *) fail_setup "run.sh: --arch must be x86_64, i686, x86_64-windows, i686-windows or darwin-arm64" ;;
esac
case "$flavour" in
    game) fdef=""; cdirs=("$here/cases") ;;
    cgame) fdef="-DPA_FLAVOUR_CGAME"; cdirs=("$here/cases" "$here/cases-cgame") ;;
    game-windows) fdef="-DPA_FLAVOUR_GAME_WINDOWS"; cdirs=("$here/cases" "$here/cases-cgame") ;;
    *) fail_setup "run.sh: --flavour must be game, cgame or game-windows" ;;
esac
# the engine builds no game flavour for macOS: there are no outputs of it
if [ -n "$darwin" ] && [ "$flavour" = game ] && [ -z "$expected" ] && [ -z "${PARITY_EXPECTED_ARCH:-}" ]; then
    fail_setup "run.sh: the game flavour has no darwin-arm64 build (PROTOCOL.md \"macOS arm64\"), so no outputs to compare with"
fi
case "${PA_X87_PC:-}" in
    ""|64) variant=$flavour ;;
    53) variant=$flavour-pc53 ;;
    *) fail_setup "run.sh: PA_X87_PC must be 53 or 64" ;;
esac
[ ${#casedirs[@]} -gt 0 ] || casedirs=("${cdirs[@]}")
[ -n "$out" ] || out=$(mktemp -d)
[ -n "$jobs" ] || jobs=$(nproc 2>/dev/null || echo 2)
abs() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$(pwd)" "$1" ;; esac; }
lib=$(abs "$lib"); out=$(abs "$out")
[ -z "$expected" ] || expected=$(abs "$expected")
. "$here/../lib.sh"
# the game data: a directory with the files below, or one with pa/stock/ holding them
data_files="playeranim.script stock_tree.inc stock_weapons.inc"
resolve_data pa "$data" $data_files
rm -rf "$out/actual"; mkdir -p "$out/actual" || fail_setup "run.sh: cannot create $out"

# shellcheck disable=SC2034  # read by lib.sh (build_driver)
MINGW_CC=${PA_MINGW_CC:-} DARWIN_CC=${PA_CC:-} DARWIN_RUNNER=${PA_RUNNER:-}
build_driver pa_driver "$fdef -std=c11 -D_DEFAULT_SOURCE -O1 -g -Wall -Wextra ${PA_CFLAGS:-}" "${PA_LDLIBS:-}"

# run every case (one process per case), in parallel
collect_cases
driver_args=${data:+--data $data}
# cases that read game data, and, without it, the ones to skip
needs_data_list pa "$out/cases.paths" > "$out/data.paths"
if [ -n "$data" ]; then
    cp "$out/cases.paths" "$out/run.paths"
else
    grep -vxF -f "$out/data.paths" "$out/cases.paths" > "$out/run.paths" || true
fi
run_cases "$out/run.paths"

compare_all pa "$variant" "$arch"
