#!/usr/bin/env bash
# fuzz.sh — the fuzz targets of fuzz/ (cargo-fuzz, libFuzzer, AddressSanitizer).
#
#   scripts/fuzz.sh run SECONDS [TARGET:FEATURE...]
#       runs every target in every flavour (or the ones named) SECONDS each,
#       one after the other, and prints per run the executions, coverage,
#       corpus size and findings. Each run starts from fuzz/corpus/TARGET
#       (the working corpus, not committed), fuzz/seeds/TARGET and
#       fuzz/regression/TARGET; with ../shared/difftest present, the stock
#       trees and script seed the working corpus first.
#   scripts/fuzz.sh minimise [TARGET:FEATURE...]
#       merges the working corpus into a minimal set and replaces
#       fuzz/regression/TARGET with it (make test replays that directory),
#       leaving out inputs that carry game data (scripts/fuzz-filter.py).
#
# Needs the nightly toolchain (`cargo +nightly`; or the stable one with
# RUSTC_BOOTSTRAP=1, see FUZZ_CARGO) and cargo-fuzz, which it installs when
# missing. Findings (crashes, timeouts, leaks) land in fuzz/artifacts/TARGET.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
difftest=${DIFFTEST:-../shared/difftest}
all=(playeranim:game playeranim:cgame action:game action:cgame atr:engine atr:client xanim:engine xanim:client)

if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  cargo=(cargo +nightly)
else
  export RUSTC_BOOTSTRAP=1
  cargo=(cargo)
fi
if [ -n "${FUZZ_CARGO:-}" ]; then read -r -a cargo <<<"$FUZZ_CARGO"; fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: installing cargo-fuzz"
  cargo install --locked cargo-fuzz
fi

# Stock data as seeds of the working corpus (never committed).
seed_stock() {
  local target=$1 dir=fuzz/corpus/$1
  mkdir -p "$dir"
  [ -d "$difftest" ] || return 0
  case $target in
    atr)
      for f in "$difftest"/at/stock/animtrees/*.atr; do
        [ -e "$dir/stock-$(basename "$f")" ] || { printf '\0'; cat "$f"; printf '\0\0\0\1\1\0\1\2\0\t'; } >"$dir/stock-$(basename "$f")"
      done ;;
    playeranim)
      local s=$difftest/pa/stock/playeranim.script w=$difftest/pa/stock/weapons_mp.txt
      if [ -f "$s" ] && [ -f "$w" ] && [ ! -e "$dir/stock-playeranim" ]; then
        { printf '\1'; cat "$w"; printf '\0'; cat "$s"; printf '\0\0\3\2\0\1\3\0\1\2\1\3\7\4'; } >"$dir/stock-playeranim"
      fi ;;
  esac
}

stats() {
  # libFuzzer's final statistics and the last status line of a log
  local log=$1
  local execs cov ft corp
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  corp=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1 | cut -d' ' -f2)
  echo "executions=${execs:-?} coverage=${cov:-?} features=${ft:-?} corpus=${corp:-?}"
}

mode=${1:-}
shift || true
case $mode in
  run)
    seconds=${1:?seconds}
    shift
    runs=("$@")
    [ ${#runs[@]} -gt 0 ] || runs=("${all[@]}")
    mkdir -p build/fuzz
    failed=0
    for run in "${runs[@]}"; do
      target=${run%%:*} feature=${run#*:}
      seed_stock "$target"
      mkdir -p "fuzz/regression/$target" "fuzz/artifacts/$target"
      log=build/fuzz/$target-$feature.log
      echo "fuzz $target ($feature): ${seconds}s"
      status=0
      nice "${cargo[@]}" fuzz run "$target" --features "$feature" \
        "fuzz/corpus/$target" "fuzz/seeds/$target" "fuzz/regression/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
        >"$log" 2>&1 || status=$?
      # crashes, leaks, timeouts and out-of-memory inputs are findings; a
      # slow unit (libFuzzer reports the slowest input so far when it took
      # over 10 s, which a stalled machine also produces) is counted apart
      findings=$(grep 'Test unit written to' "$log" | grep -vc '/slow-unit-' || true)
      slow=$(grep 'Test unit written to' "$log" | grep -c '/slow-unit-' || true)
      echo "  $target ($feature): $(stats "$log") findings=$findings slow-units=$slow (exit $status, log $log)"
      if [ "$status" != 0 ]; then failed=1; grep -m5 'ERROR\|SUMMARY\|Test unit written' "$log" | sed 's/^/    /'; fi
    done
    exit $failed ;;
  minimise)
    runs=("$@")
    [ ${#runs[@]} -gt 0 ] || runs=(playeranim:game action:game atr:engine xanim:engine)
    for run in "${runs[@]}"; do
      target=${run%%:*} feature=${run#*:}
      new=build/fuzz/regression-$target
      rm -rf "$new"; mkdir -p "$new" "fuzz/regression/$target"
      nice "${cargo[@]}" fuzz run "$target" --features "$feature" "$new" \
        "fuzz/regression/$target" "fuzz/seeds/$target" "fuzz/corpus/$target" -- -set_cover_merge=1 -timeout=10 -max_len=8192 \
        >"build/fuzz/merge-$target.log" 2>&1
      python3 scripts/fuzz-filter.py "$new" "$difftest"
      rm -rf "fuzz/regression/$target"
      mv "$new" "fuzz/regression/$target"
      echo "regression $target: $(ls "fuzz/regression/$target" | wc -l) inputs, $(du -sk "fuzz/regression/$target" | cut -f1) KiB"
    done ;;
  *)
    sed -n '2,20p' "$0"; exit 2 ;;
esac
