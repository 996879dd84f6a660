#!/usr/bin/env bash
# ratchet.sh PARITY "ARCHES" "UNITS" [DATA]
#
# Runs the differential suites (PARITY = tests/parity; DATA = the game-data
# directory, empty: the cases that need it are skipped and counted) of every
# built unit on every arch and compares
# the failing cases with the committed lists c_tests/divergences/<suite>-<arch>.txt
# (suite: pa and bg-rest = game unit, pa-cgame and bg-rest-cgame = cgame
# unit, pa-game-windows and bg-rest-game-windows = game_windows unit, at =
# engine unit, at-client = client unit). Fails when a
# case that is not listed fails (a regression) and when a listed case passes
# (shorten the list). Empty lists mean the unit is bit-exact with the C
# original on the shipped cases.
#
# The player-animation units also run the x87 precision-control probes
# (pa/cases-x87 and bg-rest/cases-x87) with the drivers at 53 and 64 bits
# (PA_X87_PC, BGR_X87_PC; suites <suite>-x87-pc53 / -pc64), and the cgame
# unit's Windows suites run once more at PA_X87_PC=53 (pa-cgame-pc53: the
# Windows client sets it).
#
# darwin-arm64 (macOS on Apple Silicon) is judged with its units' qemu build
# (dist/darwin-arm64/qemu/, the drivers cross-built for aarch64 Linux and
# run under qemu-user: tests/parity/README.md): the C original builds no game
# flavour there, so the game unit is skipped on it; the pa probe runs at 53
# and 64 bits (no x87: the same outputs), the bg-rest probe, which has no
# outputs for it, does not run.
#
# A target for which a suite holds no outputs of the C original (all but its
# oracle arches: every suite holds all its arches today) is not judged against it, and the line
# says so. Such a target is compared instead with the C original's outputs
# of the target of the same C library (x86_64-windows), which it must
# reproduce except where a dump shows the pointer width; those cases are
# listed in c_tests/divergences/<suite>-<arch>-vs-<other>.txt, under the same
# ratchet.
set -uo pipefail
difftest=$1 arches=$2 units=$3 data=${4:-}
# the arches each suite holds the C original's outputs for
ORACLE_ARCHES_pa="x86_64 i686 x86_64-windows i686-windows darwin-arm64"
ORACLE_ARCHES_at="x86_64 i686 x86_64-windows i686-windows darwin-arm64"
ORACLE_ARCHES_bg_rest="x86_64 i686 x86_64-windows i686-windows darwin-arm64"
root=$(cd "$(dirname "$0")/.." && pwd)
# unit_lib UNIT ARCH: the static library the suites judge
unit_lib() {
  case "$2" in
    darwin-arm64) echo "$root/dist/darwin-arm64/qemu/libuoanim_$1.a" ;;
    *) echo "$root/dist/$2/libuoanim_$1.a" ;;
  esac
}
status=0
total_pass=0 total_fail=0 total_skip=0 total_known=0
# judge UNIT ARCH SUITE DIR FLAVOUR [PC [CASES]]: one suite of one unit on one
# arch (PC: the driver's PA_X87_PC, empty for none; CASES: a case directory
# instead of the flavour's)
judge() {
  local unit=$1 arch=$2 suite=$3 dir=$4 flavour=$5 pc=${6:-} cases=${7:-}
  local out log label shown oracle other summary list known new fixed ran retried recovered c
    out=$(mktemp -d)
    log=$out/run.log
    label=$suite-$arch shown="$suite $arch"
    oracle=ORACLE_ARCHES_${dir//-/_}
    export PARITY_EXPECTED_ARCH=""
    if [[ " ${!oracle} " != *" $arch "* ]]; then
      echo "$suite $arch: not judged: the suites hold no outputs of the C original for $arch"
      case "$arch" in
        *-windows) other=x86_64-windows ;;
        *) other=x86_64 ;;
      esac
      PARITY_EXPECTED_ARCH=$other
      label=$suite-$arch-vs-$other shown="$suite $arch vs $other"
      echo "$suite $arch: compared with the C original's $other outputs instead (c_tests/divergences/$label.txt)"
    fi
    PA_X87_PC=$pc BGR_X87_PC=$pc "$difftest/$dir/run.sh" --lib "$(unit_lib "$unit" "$arch")" --arch "$arch" \
      --flavour "$flavour" ${cases:+--cases "$cases"} --out "$out/run" ${data:+--data "$data"} >"$log" 2>"$out/run.err"
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$log" | tail -1)
    if [ -z "$summary" ]; then
      echo "ratchet: $shown: the suite did not finish:" >&2
      tail -n 20 "$out/run.err" "$log" >&2
      status=1
      return
    fi
    echo "$shown: $summary"
    total_pass=$((total_pass + $(echo "$summary" | cut -d' ' -f1)))
    total_fail=$((total_fail + $(echo "$summary" | cut -d' ' -f3)))
    total_skip=$((total_skip + $(echo "$summary" | cut -d' ' -f5)))
    sed -n "s/^FAIL \([^ :]*\).*/\1/p" "$log" | sort >"$out/failing"
    list=$root/c_tests/divergences/$label.txt
    { [ -f "$list" ] && grep -v '^#' "$list" | sed '/^$/d' | sort; } >"$out/listed" || true
    # without game data, listed cases that need it were skipped, not passed
    if [ -z "$data" ]; then
      python3 "$difftest/gen/needs_data.py" "$dir" "$difftest/$dir"/cases*/*.case | sed 's|.*/||; s|\.case$||' | sort >"$out/skipped"
      comm -23 "$out/listed" "$out/skipped" >"$out/listed.run"; mv "$out/listed.run" "$out/listed"
    fi
    # a listed case that fails is a known divergence, not a failure
    known=$(comm -12 "$out/failing" "$out/listed" | grep -c '^' || true)
    total_fail=$((total_fail - known)) total_known=$((total_known + known))
    new=$(comm -23 "$out/failing" "$out/listed")
    fixed=$(comm -13 "$out/failing" "$out/listed")
    if [ -n "$new" ] && [ "${arch%-windows}" != "$arch" ]; then
      # Wine, not the library, can fail a run (a process that does not start
      # or is starved past the suite's time-out on a loaded machine): the
      # unlisted failures run once more, alone, and only a second failure
      # counts. The retry is reported either way.
      mkdir -p "$out/retry"
      while read -r c; do
        find "$difftest/$dir" -name "$c.case" -path '*/cases*' -exec cp {} "$out/retry/" \;
      done <<<"$new"
      PA_X87_PC=$pc BGR_X87_PC=$pc "$difftest/$dir/run.sh" --lib "$(unit_lib "$unit" "$arch")" --arch "$arch" \
        --flavour "$flavour" --cases "$out/retry" --out "$out/rerun" --jobs 1 ${data:+--data "$data"} >"$out/retry.log" 2>&1
      sed -n "s/^FAIL \([^ :]*\).*/\1/p" "$out/retry.log" | sort >"$out/failing-again"
      # a retry that did not run every case counts as failing them all
      ran=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/retry.log" | tail -1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1 + \2/p')
      [ -n "$ran" ] && [ $((ran)) = "$(echo "$new" | wc -l)" ] || echo "$new" >"$out/failing-again"
      echo "ratchet: $label: $(echo "$new" | wc -l) unlisted failure(s) run again under Wine: $(grep -E '^[0-9]+ passed' "$out/retry.log" | tail -1)"
      grep '^FAIL ' "$log" | head -10 | sed 's/^/  first run: /'
      retried=$(echo "$new" | wc -l)
      new=$(comm -12 <(echo "$new") "$out/failing-again")
      recovered=$((retried - $(echo -n "$new" | grep -c '^' || true)))
      total_pass=$((total_pass + recovered)) total_fail=$((total_fail - recovered))
    fi
    if [ -n "$new" ]; then
      echo "ratchet: $label: regressions (failing, not in c_tests/divergences/$label.txt):"
      grep '^FAIL ' "$log" | grep -F -f <(echo "$new" | sed 's/.*/FAIL &/') | head -50 | sed 's/^/  /'
      status=1
    fi
    if [ -n "$fixed" ]; then
      echo "ratchet: $label: now passing, remove from c_tests/divergences/$label.txt:"
      echo "$fixed" | head -50 | sed 's/^/  /'
      status=1
    fi
    rm -rf "$out"
}

for unit in $units; do
  case "$unit" in
    game) suite=pa; dir=pa; flavour=game ;;
    cgame) suite=pa-cgame; dir=pa; flavour=cgame ;;
    game_windows) suite=pa-game-windows; dir=pa; flavour=game-windows ;;
    engine) suite=at; dir=at; flavour=server ;;
    client) suite=at-client; dir=at; flavour=client ;;
    *) echo "ratchet: unknown unit $unit" >&2; exit 2 ;;
  esac
  for arch in $arches; do
    # the game unit has no darwin-arm64 build
    [ "$unit" = game ] && [ "$arch" = darwin-arm64 ] && continue
    judge "$unit" "$arch" "$suite" "$dir" "$flavour"
    if [ "$dir" = pa ]; then
      for pc in 53 64; do
        judge "$unit" "$arch" "$suite-x87-pc$pc" pa "$flavour" "$pc" "$difftest/pa/cases-x87"
      done
      if [ "$unit" = cgame ] && [ "${arch%-windows}" != "$arch" ]; then
        judge "$unit" "$arch" "$suite-pc53" pa "$flavour" 53
      fi
      # the per-frame functions of the same units, and their probe
      judge "$unit" "$arch" "bg-rest${suite#pa}" bg-rest "$flavour"
      [ "$arch" = darwin-arm64 ] && continue
      for pc in 53 64; do
        judge "$unit" "$arch" "bg-rest${suite#pa}-x87-pc$pc" bg-rest "$flavour" "$pc" "$difftest/bg-rest/cases-x87"
      done
    fi
  done
done
if [ -n "$data" ]; then why=""; else why=" (they read game data; none given: make test UO_DATA=DIR)"; fi
[ "$total_known" = 0 ] || why="$why (and $total_known known divergences, listed in c_tests/divergences/)"
echo "parity: $total_pass passed, $total_fail failed, $total_skip skipped$why"
exit $status
