#!/bin/bash
# run.sh -- pa differential suite: builds the instrument (driver.c + stubs.c)
# against a static library that exports the player animation-script module,
# runs every case and compares the canonical dumps with the C original's.
#
#   run.sh --lib PATH/TO/lib.a --arch x86_64|i686|x86_64-windows|i686-windows
#          [--flavour game|cgame|game-windows] [--data DIR] [--cases DIR]... [--expected DIR]
#          [--out DIR] [--jobs N]
#
# --arch x86_64-windows / i686-windows (PROTOCOL.md "Windows targets"): the
# library is a mingw-w64 static library; the driver is built with
# x86_64-w64-mingw32-gcc / i686-w64-mingw32-gcc (PA_MINGW_CC overrides) and
# every case runs under Wine ($WINE, default wine; WINEDEBUG defaults to -all).
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
# <flavour>-pc53 (../README.md "Expected outputs").
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
usage="usage: run.sh --lib LIB.a --arch x86_64|i686|x86_64-windows|i686-windows [--flavour game|cgame|game-windows] [--data DIR] [--cases DIR]... [--expected DIR] [--out DIR] [--jobs N]"
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
win=""
case "$arch" in
    x86_64) m="-m64" ;;
    i686) m="-m32" ;;
    x86_64-windows|i686-windows) win=${arch%-windows} ;;
    *) fail_setup "run.sh: --arch must be x86_64, i686, x86_64-windows or i686-windows" ;;
esac
case "$flavour" in
    game) fdef=""; cdirs=("$here/cases") ;;
    cgame) fdef="-DPA_FLAVOUR_CGAME"; cdirs=("$here/cases" "$here/cases-cgame") ;;
    game-windows) fdef="-DPA_FLAVOUR_GAME_WINDOWS"; cdirs=("$here/cases" "$here/cases-cgame") ;;
    *) fail_setup "run.sh: --flavour must be game, cgame or game-windows" ;;
esac
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

runner=""
if [ -z "$win" ]; then
driver="$out/pa_driver"
if ! gcc $m $fdef -std=c11 -D_DEFAULT_SOURCE -O1 -g -Wall -Wextra ${PA_CFLAGS:-} -o "$driver" "$here/driver.c" "$here/stubs.c" "$lib" \
        ${PA_LDLIBS:-} -lpthread -ldl -lm >"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    fail_setup "run.sh: building the driver against $lib failed"
fi
else
# Windows: a static PE executable (no DLLs beside the system's) with the Linux
# default 8 MiB main-thread stack; the system libraries are those a Rust
# *-pc-windows-gnu staticlib needs (the counterpart of -lpthread -ldl -lm)
driver="$out/pa_driver.exe"
cc=${PA_MINGW_CC:-$win-w64-mingw32-gcc}
if ! $cc $fdef -std=c11 -D_DEFAULT_SOURCE -O1 -g -Wall -Wextra ${PA_CFLAGS:-} -o "$driver" "$here/driver.c" "$here/stubs.c" "$lib" \
        ${PA_LDLIBS:-} -static -Wl,--stack,8388608 -lntdll -luserenv -lws2_32 -ldbghelp -lm >"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    fail_setup "run.sh: building the driver against $lib failed"
fi
runner=${WINE:-wine}
export WINEDEBUG=${WINEDEBUG:--all}
# keep one wineserver alive for the whole run (no-op when one is running)
${WINESERVER:-wineserver} -p 30 >/dev/null 2>&1 || true
# smoke test: the usage message and exit status 2 (a missing Wine, or a Wine
# that cannot run this target, e.g. i686 without wine32, fails here)
$runner "$driver" > "$out/smoke.out" 2> "$out/smoke.err"
src=$?
if [ "$src" != 2 ] || ! grep -q 'usage: pa_driver' "$out/smoke.err"; then
    head -c 600 "$out/smoke.err" >&2
    fail_setup "run.sh: '$runner $driver' does not run (exit status $src); is Wine installed for $arch?"
fi
fi
export runner

# run every case (one process per case), in parallel; cases.list holds the
# case file names, cases.paths the full paths (one line each, same order)
export driver data out
: > "$out/cases.pairs.tmp"
for d in "${casedirs[@]}"; do
    d=$(abs "$d")
    [ -d "$d" ] || fail_setup "run.sh: no case directory $d"
    ls "$d" | grep '\.case$' | while IFS= read -r f; do printf '%s\t%s/%s\n' "$f" "$d" "$f"; done >> "$out/cases.pairs.tmp"
done
sort "$out/cases.pairs.tmp" > "$out/cases.pairs"
cut -f1 "$out/cases.pairs" > "$out/cases.list"
cut -f2- "$out/cases.pairs" > "$out/cases.paths"
total=$(wc -l < "$out/cases.list")
[ "$total" -gt 0 ] || fail_setup "run.sh: no cases in ${casedirs[*]}"
dups=$(uniq -d "$out/cases.list" | head -3 | tr '\n' ' ')
[ -z "$dups" ] || fail_setup "run.sh: case names occur twice: $dups"
run_one() {
    name=$(basename "$1" .case)
    tries=0
    while :; do
        timeout 120 $runner "$driver" ${data:+--data "$data"} "$1" > "$out/actual/$name.out" 2> "$out/actual/$name.err"
        rc=$?
        # Windows: Wine occasionally fails to start a process (exit status 1,
        # no output, e.g. "failed to map the shared user data"); the driver
        # itself never exits with 1, so such a run is repeated (at most 3 times)
        [ -n "$runner" ] && [ "$rc" = 1 ] && [ ! -s "$out/actual/$name.out" ] && [ "$tries" -lt 3 ] || break
        tries=$((tries + 1))
    done
    echo $rc > "$out/actual/$name.rc"
}
export -f run_one
# cases that read game data, and, without it, the ones to skip
needs_data_list pa "$out/cases.paths" > "$out/data.paths"
if [ -n "$data" ]; then
    cp "$out/cases.paths" "$out/run.paths"
else
    grep -vxF -f "$out/data.paths" "$out/cases.paths" > "$out/run.paths" || true
fi
xargs -d '\n' -P "$jobs" -I{} bash -c 'run_one "$@"' _ {} < "$out/run.paths"

compare_all pa "$variant" "$arch"
