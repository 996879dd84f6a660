#!/usr/bin/env bash
# run.sh -- build the animation-tree differential driver against a library and
# compare every case with the C original's output.
#
#   run.sh --lib PATH/lib.a --arch x86_64|i686|x86_64-windows|i686-windows|darwin-arm64
#          [--flavour server|client] [--data DIR] [--cases DIR]...
#          [--expected DIR] [--out DIR] [--jobs N]
#
# --arch x86_64-windows / i686-windows (PROTOCOL.md "Windows targets"): the
# library is a mingw-w64 static library; the driver is built with
# x86_64-w64-mingw32-gcc / i686-w64-mingw32-gcc (AT_MINGW_CC overrides; extra
# link flags in AT_LDLIBS) and every case runs under Wine ($WINE, default wine;
# WINEDEBUG defaults to -all).
# --arch darwin-arm64 (PROTOCOL.md "macOS arm64"): on an arm64 Mac the driver
# is built with cc and runs natively; elsewhere it is cross-built for aarch64
# Linux with clang (--target=aarch64-linux-gnu -fuse-ld=lld -fsigned-char
# -Xclang -mlong-double-64: Darwin's char and long double) and every case runs
# under qemu-user (qemu-aarch64 -L /usr/aarch64-linux-gnu, after a smoke run);
# AT_CC / AT_RUNNER override both, and the script-VM check uses llvm-nm there.
#
# --flavour server (default): the Linux dedicated-server engine build;
#   defaults --cases cases/ --cases cases-engine/
# --flavour client: the multiplayer client engine build (driver built with
#   -DAT_FLAVOUR_CLIENT); defaults --cases cases/ --cases cases-client/
#   --cases cases-engine/
# protocol v2: the engine side (stubs.c) owns the module's storage and the
# load functions; a library that carries the engine's script VM is detected
# with nm (AT_SCRIPT_VM=library|engine overrides; PROTOCOL.md "Engine side")
# --data names the game-data directory (../README.md "Game data"): either a
# directory holding animtrees/*.atr and looped_leaves.txt, or one holding
# at/stock/ with them; the cases see it as stock/.  Cases that read game data
# are skipped without it, and counted.
# --cases may be given several times (case names must be unique over all of them);
# any --cases replaces the default list.  The expected outputs are those of
# <here>/expected (stored once for the variants that share them:
# ../README.md); --expected DIR compares with DIR/<case>.out instead.
#
# Prints each failing case, then a last line exactly "N passed, M failed, K
# skipped" (followed by the reason when K > 0).  Exit status 0 only when M = 0.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LIB= ARCH= EXPECTED= OUT= JOBS= FLAVOUR=server DATA=
CASEDIRS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --lib) LIB=$2; shift 2 ;;
    --arch) ARCH=$2; shift 2 ;;
    --flavour|--flavor) FLAVOUR=$2; shift 2 ;;
    --cases) CASEDIRS+=("$2"); shift 2 ;;
    --expected) EXPECTED=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$LIB" ] && [ -n "$ARCH" ] || { echo "usage: run.sh --lib PATH/lib.a --arch x86_64|i686|x86_64-windows|i686-windows|darwin-arm64 [--flavour server|client] [--cases DIR]... [--expected DIR] [--out DIR]" >&2; exit 2; }
WIN=
case "$ARCH" in
  x86_64) MFLAG=-m64 ;;
  i686) MFLAG=-m32 ;;
  x86_64-windows|i686-windows) WIN=${ARCH%-windows} ;;
  darwin-arm64) MFLAG= ;;
  *) echo "run.sh: --arch must be x86_64, i686, x86_64-windows, i686-windows or darwin-arm64" >&2; exit 2 ;;
esac
# darwin-arm64 (macOS on Apple Silicon): on an arm64 Mac the system cc, run
# natively; elsewhere a clang cross build for aarch64 Linux with Darwin's char
# signedness and binary64 long double, run under qemu-user
DCC= ; DRUN=
if [ "$ARCH" = darwin-arm64 ]; then
  if [ "$(uname -s)-$(uname -m)" = Darwin-arm64 ]; then
    DCC=${AT_CC:-cc}; DRUN=${AT_RUNNER:-}
  else
    DCC=${AT_CC:-clang --target=aarch64-linux-gnu -fuse-ld=lld -fsigned-char -Xclang -mlong-double-64}
    DRUN=${AT_RUNNER:-qemu-aarch64 -L /usr/aarch64-linux-gnu}
  fi
fi
case "$FLAVOUR" in
  server) FFLAG= ; DEF_CASES=("$HERE/cases" "$HERE/cases-engine") ;;
  client) FFLAG=-DAT_FLAVOUR_CLIENT; DEF_CASES=("$HERE/cases" "$HERE/cases-client" "$HERE/cases-engine") ;;
  *) echo "run.sh: --flavour must be server or client" >&2; exit 2 ;;
esac
[ -f "$LIB" ] || { echo "run.sh: no library at $LIB" >&2; exit 2; }
LIB=$(cd "$(dirname "$LIB")" && pwd)/$(basename "$LIB")
[ ${#CASEDIRS[@]} -gt 0 ] || CASEDIRS=("${DEF_CASES[@]}")
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/at-difftest.XXXXXX")}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p "$OUT/actual"
OUT=$(cd "$OUT" && pwd)
[ -z "$EXPECTED" ] || EXPECTED=$(cd "$EXPECTED" && pwd)
out=$OUT expected=$EXPECTED
. "$HERE/../lib.sh"
resolve_data at "$DATA" animtrees looped_leaves.txt
# the driver's root: the game data appears as stock/
ROOT=$OUT/root
rm -rf "$ROOT"; mkdir -p "$ROOT"
[ -z "$data" ] || ln -s "$data" "$ROOT/stock"

# every case file, sorted by name; names must be unique across the directories
LIST=$OUT/cases.list
for d in "${CASEDIRS[@]}"; do ls "$d"/*.case 2>/dev/null; done |
  awk -F/ '{ n = $NF; sub(/\.case$/, "", n); print n "\t" $0 }' | sort -k1,1 >"$LIST"
cp "$LIST" "$OUT/cases.pairs"
cut -f2 "$LIST" >"$OUT/cases.paths"
needs_data_list at "$OUT/cases.paths" >"$OUT/data.paths"
if [ -n "$data" ]; then cp "$OUT/cases.paths" "$OUT/run.paths"
else grep -vxF -f "$OUT/data.paths" "$OUT/cases.paths" >"$OUT/run.paths" || true; fi
dup=$(cut -f1 "$LIST" | uniq -d | head -1)
[ -z "$dup" ] || { echo "run.sh: case name $dup occurs in more than one --cases directory" >&2; exit 2; }

# protocol v2: does the library bring the engine's script VM along (the C
# original does)?  Then the engine side's Scr_AllocArray / ClearObject /
# RemoveRefToObject calls go to it; otherwise stubs.c stands in for them.
# AT_SCRIPT_VM=library|engine overrides the detection.
if [ -n "$DCC" ] && [ -n "$DRUN" ]; then NM=${AT_NM:-llvm-nm}
elif [ -z "$WIN" ]; then NM=${AT_NM:-nm}; else NM=${AT_NM:-$WIN-w64-mingw32-nm}; fi
case "${AT_SCRIPT_VM:-}" in
  library) VMFLAG=-DAT_SCRIPT_VM_IN_LIBRARY ;;
  engine) VMFLAG= ;;
  *) if $NM -g --defined-only "$LIB" 2>/dev/null | grep -qE ' T _?Scr_AllocArray$'; then
       VMFLAG=-DAT_SCRIPT_VM_IN_LIBRARY; else VMFLAG=; fi ;;
esac
FFLAG="$FFLAG $VMFLAG ${AT_ENGINE_CFLAGS:-}"

RUNNER=$DRUN
if [ -z "$WIN" ]; then
DRIVER=$OUT/at_driver
CCLINE=gcc; [ -n "$DCC" ] && CCLINE=$DCC
if ! $CCLINE -std=gnu11 -O1 -g -w $MFLAG $FFLAG -I"$HERE" "$HERE/driver.c" "$HERE/stubs.c" "$LIB" \
     -lpthread -ldl -lm -o "$DRIVER" 2>"$OUT/build.log"; then
  echo "run.sh: building the driver against $LIB failed:" >&2
  cat "$OUT/build.log" >&2
  echo "0 passed, $(wc -l <"$LIST") failed, 0 skipped"
  exit 1
fi
if [ -n "$RUNNER" ]; then
  # smoke test under the emulator: the usage message and exit status 2
  $RUNNER "$DRIVER" >"$OUT/smoke.out" 2>"$OUT/smoke.err"
  SRC=$?
  if [ "$SRC" != 2 ] || ! grep -q 'usage: at_driver' "$OUT/smoke.err"; then
    head -c 600 "$OUT/smoke.err" >&2
    echo "run.sh: '$RUNNER $DRIVER' does not run (exit status $SRC); are qemu-user and the aarch64 C library installed?" >&2
    echo "0 passed, $(wc -l <"$LIST") failed, 0 skipped"
    exit 1
  fi
fi
else
# Windows: a static PE executable (no DLLs beside the system's) with the Linux
# default 8 MiB main-thread stack; the system libraries are those a Rust
# *-pc-windows-gnu staticlib needs (the counterpart of -lpthread -ldl -lm)
DRIVER=$OUT/at_driver.exe
# i686: the image (and with it the static code-cell buffers) above 16 MiB, as
# Linux i386 executables are, so that an in-cell link is never a plausible
# scr_anim_t value and prints as ->cK on both systems
IMGBASE=; [ "$WIN" = i686 ] && IMGBASE=-Wl,--image-base,0x10000000
WCC=${AT_MINGW_CC:-$WIN-w64-mingw32-gcc}
if ! $WCC -std=gnu11 -O1 -g -w $FFLAG -I"$HERE" "$HERE/driver.c" "$HERE/stubs.c" "$LIB" ${AT_LDLIBS:-} \
     -static -Wl,--stack,8388608 $IMGBASE -lntdll -luserenv -lws2_32 -ldbghelp -lm -o "$DRIVER" 2>"$OUT/build.log"; then
  echo "run.sh: building the driver against $LIB failed:" >&2
  cat "$OUT/build.log" >&2
  echo "0 passed, $(wc -l <"$LIST") failed, 0 skipped"
  exit 1
fi
RUNNER=${WINE:-wine}
export WINEDEBUG=${WINEDEBUG:--all}
# keep one wineserver alive for the whole run (no-op when one is running)
${WINESERVER:-wineserver} -p 30 >/dev/null 2>&1 || true
# smoke test: the usage message and exit status 2 (a missing Wine, or a Wine
# that cannot run this target, e.g. i686 without wine32, fails here)
$RUNNER "$DRIVER" >"$OUT/smoke.out" 2>"$OUT/smoke.err"
SRC=$?
if [ "$SRC" != 2 ] || ! grep -q 'usage: at_driver' "$OUT/smoke.err"; then
  head -c 600 "$OUT/smoke.err" >&2
  echo "run.sh: '$RUNNER $DRIVER' does not run (exit status $SRC); is Wine installed for $ARCH?" >&2
  echo "0 passed, $(wc -l <"$LIST") failed, 0 skipped"
  exit 1
fi
fi

# one process per case; status file records exit code / crash
export DRIVER ROOT RUNNER
# (Windows: Wine occasionally fails to start a process -- exit status 1, no
# output, e.g. "failed to map the shared user data"; the driver itself never
# exits with 1, so such a run is repeated, at most 3 times)
xargs -d '\n' -P "$JOBS" -I{} sh -c '
  c={}; n=$(basename "$c" .case); t=0
  while :; do
    timeout 120 $RUNNER "$DRIVER" -R "$ROOT" "$c" >"'"$OUT"'/actual/$n.out" 2>"'"$OUT"'/actual/$n.err"
    rc=$?
    [ -n "$RUNNER" ] && [ "$rc" = 1 ] && { [ ! -s "'"$OUT"'/actual/$n.out" ] || head -c 200 "'"$OUT"'/actual/$n.out" | grep -q "could not be started"; } && [ "$t" -lt 3 ] || break
    t=$((t + 1))
  done
  echo $rc >"'"$OUT"'/actual/$n.rc"' <"$OUT/run.paths"

echo "outputs in $OUT/actual ($FLAVOUR flavour)" >&2
compare_all at "$FLAVOUR" "$ARCH"
