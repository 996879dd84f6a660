#!/usr/bin/env bash
# frame-perf.sh LIB ARCH [FLAVOUR] [CASES_PER_GROUP]
#
# The instruction counts (callgrind Ir) of the player-animation per-frame
# exports over the bg-rest cases: the bg-rest instrument built against LIB
# (x86_64 or i686 Linux; FLAVOUR game, cgame or game-windows as for
# tests/parity/bg-rest/run.sh), run under callgrind on the first
# CASES_PER_GROUP (default 20) cases of each group with the collection on
# only inside the exports (the engine stubs they call included). Prints one
# line per group: "GROUP CASES IR".
set -euo pipefail
lib=$1 arch=$2 flavour=${3:-game} per=${4:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
cases=$root/tests/parity/bg-rest/cases
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir "$out/one"
cp "$cases/stance_000.case" "$out/one/"
# run.sh leaves the driver it builds in its --out directory
"$root/tests/parity/bg-rest/run.sh" --lib "$lib" --arch "$arch" --flavour "$flavour" --cases "$out/one" --out "$out/run" >/dev/null
driver=$out/run/bgr_driver
for group in lerpa lerpo slots; do
  total=0 n=0
  for c in $(ls "$cases" | grep "^${group}_" | sort | head -n "$per"); do
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
      --toggle-collect='BG_LerpAngles' --toggle-collect='BG_LerpOffset' \
      --toggle-collect='BG_SetNewAnimation' --toggle-collect='BG_RunLerpFrameRate' \
      --toggle-collect='BG_PlayerAnimation_VerifyAnim' \
      "$driver" "$cases/$c" >/dev/null 2>&1 || true
    ir=$(sed -n 's/^summary: *//p' "$out/cg.out")
    total=$((total + ir)) n=$((n + 1))
  done
  echo "$group $n $total"
done
