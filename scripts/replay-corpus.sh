#!/usr/bin/env bash
# replay-corpus.sh — the fuzz regression corpus (fuzz/regression/) and the
# seeds (fuzz/seeds/) through the fuzz harness (fuzz/harness/), linked against
# the packaged units of every flavour and architecture: the stable toolchain's
# build, no fuzzer, no instrumentation. An input fails when the program
# crashes or hangs (10 s per target); the C harness checks nothing else, the
# library must simply come back from every call.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
arches=${ARCHES:-x86_64 i686}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0
for arch in $arches; do
  m=$([ "$arch" = i686 ] && echo -m32 || echo -m64)
  for flavour in game cgame engine client; do
    case $flavour in
      game|cgame) files=(fuzz/harness/playeranim.c fuzz/harness/action.c); kind=PLAYERANIM; targets="playeranim action" ;;
      *) files=(fuzz/harness/animtree.c); kind=ANIMTREE; targets="atr xanim" ;;
    esac
    def=UOANIM_FLAVOUR_$(echo $flavour | tr a-z A-Z)
    bin=$out/replay-$flavour-$arch
    gcc -std=gnu11 $m -O1 -g -Wall -Wextra -Werror -Wno-clobbered -fno-short-enums -Idist/include -Ifuzz/harness \
      -D$def -DUOANIM_FUZZ_$kind "${files[@]}" fuzz/harness/replay.c "dist/$arch/libuoanim_$flavour.a" \
      -Wl,--gc-sections -lpthread -ldl -lm -o "$bin"
    for t in $targets; do
      dirs=()
      for d in "fuzz/regression/$t" "fuzz/seeds/$t"; do [ -d "$d" ] && dirs+=("$d"); done
      if ! line=$(timeout 60 "$bin" "$t" "${dirs[@]}" 2>"$out/err"); then
        echo "FAIL corpus $t ($flavour, $arch):"; tail -5 "$out/err" | sed 's/^/  /'
        failed=1
        continue
      fi
      echo "corpus $t ($flavour, $arch): ${line#replay $t: }"
    done
  done
done
[ $failed = 0 ]
