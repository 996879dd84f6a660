#!/usr/bin/env bash
# ratchet.sh PARITY "ARCHES" "UNITS" [DATA]
#
# Runs the differential suites (PARITY = tests/parity; DATA = the game-data
# directory, empty: the cases that need it are skipped and counted) of every
# built unit on every arch and compares
# the failing cases with the committed lists c_tests/divergences/<suite>-<arch>.txt
# (suite: pa = game unit, pa-cgame = cgame unit, at = engine unit,
# at-client = client unit). Fails when a case that is not listed fails (a
# regression) and when a listed case passes (shorten the list). Empty lists
# mean the unit is bit-exact with the C original on the shipped cases.
set -uo pipefail
difftest=$1 arches=$2 units=$3 data=${4:-}
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
total_pass=0 total_fail=0 total_skip=0
for unit in $units; do
  case "$unit" in
    game) suite=pa; dir=pa; flavour=game ;;
    cgame) suite=pa-cgame; dir=pa; flavour=cgame ;;
    engine) suite=at; dir=at; flavour=server ;;
    client) suite=at-client; dir=at; flavour=client ;;
    *) echo "ratchet: unknown unit $unit" >&2; exit 2 ;;
  esac
  for arch in $arches; do
    out=$(mktemp -d)
    log=$out/run.log
    "$difftest/$dir/run.sh" --lib "$root/dist/$arch/libuoanim_$unit.a" --arch "$arch" \
      --flavour "$flavour" --out "$out/run" ${data:+--data "$data"} >"$log" 2>"$out/run.err"
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$log" | tail -1)
    if [ -z "$summary" ]; then
      echo "ratchet: $suite $arch: the suite did not finish:" >&2
      tail -20 "$out/run.err" "$log" >&2
      status=1
      continue
    fi
    echo "$suite $arch: $summary"
    total_pass=$((total_pass + $(echo "$summary" | cut -d' ' -f1)))
    total_fail=$((total_fail + $(echo "$summary" | cut -d' ' -f3)))
    total_skip=$((total_skip + $(echo "$summary" | cut -d' ' -f5)))
    sed -n 's/^FAIL \([^ :]*\).*/\1/p' "$log" | sort >"$out/failing"
    list=$root/c_tests/divergences/$suite-$arch.txt
    { [ -f "$list" ] && grep -v '^#' "$list" | sed '/^$/d' | sort; } >"$out/listed" || true
    # without game data, listed cases that need it were skipped, not passed
    if [ -z "$data" ]; then
      python3 "$difftest/gen/needs_data.py" "$dir" "$difftest/$dir"/cases*/*.case | sed 's|.*/||; s|\.case$||' | sort >"$out/skipped"
      comm -23 "$out/listed" "$out/skipped" >"$out/listed.run"; mv "$out/listed.run" "$out/listed"
    fi
    new=$(comm -23 "$out/failing" "$out/listed")
    fixed=$(comm -13 "$out/failing" "$out/listed")
    if [ -n "$new" ]; then
      echo "ratchet: $suite $arch: regressions (failing, not in c_tests/divergences/$suite-$arch.txt):"
      echo "$new" | head -50 | sed 's/^/  /'
      status=1
    fi
    if [ -n "$fixed" ]; then
      echo "ratchet: $suite $arch: now passing, remove from c_tests/divergences/$suite-$arch.txt:"
      echo "$fixed" | head -50 | sed 's/^/  /'
      status=1
    fi
    rm -rf "$out"
  done
done
if [ -n "$data" ]; then why=""; else why=" (they read game data; none given: make test UO_DATA=DIR)"; fi
echo "parity: $total_pass passed, $total_fail failed, $total_skip skipped$why"
exit $status
