#!/usr/bin/env bash
# run.sh ARCH — the C side of the tests for one target:
#   * layout.c: _Static_assert of every size and offset against the generated
#     headers (compiled, never run);
#   * every *_test.c: linked against the units it names on its line
#     "// links: unit..." (with --gc-sections, so a test needs to define only
#     the engine imports of what it calls) and run; it prints its checks and exits non-zero on
#     a failure; on x86_64 Windows its unwind table is checked too
#     (scripts/wine/check-unwind-table.sh).
# ARCH is x86_64 or i686 (gcc), aarch64 (clang and lld, run under
# qemu-aarch64), or x86_64-windows or i686-windows (the mingw-w64 gcc; the
# tests run under Wine, $WINE, default wine). Where Wine
# cannot run the target's programs, the layout asserts and the links are
# still checked and the runs are reported as not run (exit status 0, the
# line says why).
set -euo pipefail
arch=$1
root=$(cd "$(dirname "$0")/.." && pwd)
cc=gcc mflag="" runner="" exe="" libs_sys=(-lpthread -ldl -lm)
case "$arch" in
  x86_64) mflag=-m64 ;;
  i686) mflag=-m32 ;;
  # aarch64 Linux: clang and lld (scripts/aarch64-cc.sh), run under qemu;
  # the unit's archive, as any C toolchain links it
  aarch64)
    cc=$(cd "$(dirname "$0")/.." && pwd)/scripts/aarch64-cc.sh runner="qemu-aarch64 -L /usr/aarch64-linux-gnu" ;;
  x86_64-windows|i686-windows)
    cc=${arch%-windows}-w64-mingw32-gcc runner=${WINE:-wine} exe=.exe
    libs_sys=(-static -lm)
    export WINEDEBUG=${WINEDEBUG:--all} ;;
  *) echo "c_tests/run.sh: unknown arch $arch" >&2; exit 2 ;;
esac
inc=$root/dist/include
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cflags=(-std=gnu11 $mflag -O1 -g -Wall -Wextra -Werror -fno-short-enums -I"$inc" -I"$root/c_tests")
# (clang: the driver's -fuse-ld is no argument of a compile-only step)
[ "$arch" != aarch64 ] || cflags+=(-Wno-unused-command-line-argument)

"$cc" "${cflags[@]}" -fsyntax-only "$root/c_tests/layout.c"
echo "c_tests $arch: layout asserts hold"

can_run=yes
if [ -n "$runner" ] && [ "$arch" != aarch64 ]; then
  why=$("$root/scripts/wine/can-run.sh" "$arch") || can_run="no: $why"
fi

passed=0 failed=0 notrun=0
for test in "$root"/c_tests/*_test.c; do
  name=$(basename "$test" .c)
  units=$(sed -n 's|^// links: ||p' "$test" | head -1)
  libs=()
  for unit in $units; do libs+=("$root/dist/$arch/libuoanim_$unit.a"); done
  if ! "$cc" "${cflags[@]}" "$test" "${libs[@]}" -Wl,--gc-sections "${libs_sys[@]}" -o "$out/$name$exe" 2>"$out/$name.build"; then
    echo "FAIL $name ($arch): does not build"; sed 's/^/  /' "$out/$name.build" | head -30
    failed=$((failed + 1)); continue
  fi
  if [ "$arch" = x86_64-windows ] && ! "$root/scripts/wine/check-unwind-table.sh" "$out/$name$exe"; then
    echo "FAIL $name ($arch): the program's unwind table is broken"
    failed=$((failed + 1)); continue
  fi
  if [ "$can_run" != yes ]; then
    notrun=$((notrun + 1)); continue
  fi
  if $runner "$out/$name$exe" >"$out/$name.log" 2>&1; then
    passed=$((passed + 1))
  else
    echo "FAIL $name ($arch):"; sed 's/^/  /' "$out/$name.log" | tail -30
    failed=$((failed + 1))
  fi
done
echo "c_tests $arch: $passed passed, $failed failed"
[ "$notrun" = 0 ] || echo "c_tests $arch: $notrun linked but not run ($can_run)"
[ "$failed" = 0 ]
