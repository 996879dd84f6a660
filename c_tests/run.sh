#!/usr/bin/env bash
# run.sh ARCH — the C side of the tests for one architecture:
#   * layout.c: _Static_assert of every size and offset against the generated
#     headers (compiled, never run);
#   * every *_test.c: linked against the units it names on its line
#     "// links: unit..." (with --gc-sections, so a test needs to define only
#     the engine imports of what it calls) and run; it prints its checks and exits non-zero on
#     a failure.
set -euo pipefail
arch=$1
root=$(cd "$(dirname "$0")/.." && pwd)
case "$arch" in
  x86_64) mflag=-m64 ;;
  i686) mflag=-m32 ;;
  *) echo "c_tests/run.sh: unknown arch $arch" >&2; exit 2 ;;
esac
inc=$root/dist/include
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cflags=(-std=gnu11 $mflag -O1 -g -Wall -Wextra -Werror -fno-short-enums -I"$inc" -I"$root/c_tests")

gcc "${cflags[@]}" -fsyntax-only "$root/c_tests/layout.c"
echo "c_tests $arch: layout asserts hold"

passed=0 failed=0
for test in "$root"/c_tests/*_test.c; do
  name=$(basename "$test" .c)
  units=$(sed -n 's|^// links: ||p' "$test" | head -1)
  libs=()
  for unit in $units; do libs+=("$root/dist/$arch/libuoanim_$unit.a"); done
  if ! gcc "${cflags[@]}" "$test" "${libs[@]}" -Wl,--gc-sections -lpthread -ldl -lm -o "$out/$name" 2>"$out/$name.build"; then
    echo "FAIL $name ($arch): does not build"; sed 's/^/  /' "$out/$name.build" | head -30
    failed=$((failed + 1)); continue
  fi
  if "$out/$name" >"$out/$name.log" 2>&1; then
    passed=$((passed + 1))
  else
    echo "FAIL $name ($arch):"; sed 's/^/  /' "$out/$name.log" | tail -30
    failed=$((failed + 1))
  fi
done
echo "c_tests $arch: $passed passed, $failed failed"
[ "$failed" = 0 ]
