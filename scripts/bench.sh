#!/usr/bin/env bash
# bench.sh -- the cost of the per-frame functions (make bench): callgrind
# instructions per call of the judge's bench (tests/parity/bg-rest/bench.sh,
# game flavour: BG_LerpAngles, BG_LerpOffset, BG_SetNewAnimation,
# BG_RunLerpFrameRate, BG_AnimPlayerConditions) for
#
#   dist/x86_64/libuoanim_game.a, dist/i686/libuoanim_game.a   the units (the x87)
#   build/soft-x87/x86_64/libuoanim_game.a                     the x86_64 game unit on the software x87
#
# next to their budgets: for the units the C original as the engine builds it
# (-O0, docs/PERFORMANCE.md; BG_AnimPlayerConditions: the units' own figure
# before the arithmetic was redone), for the software x87 a third of its
# figures before the redesign. Prints one line per
# function and build; exits 1 when a figure is over its budget.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bench=$root/tests/parity/bg-rest/bench.sh
status=0
# FUNCTION C-O0(x86_64) C-O0(i686) SOFT-BUDGET(x86_64)
budgets="BG_LerpAngles 128 118 635
BG_LerpOffset 157 170 917
BG_SetNewAnimation 604 751 311
BG_RunLerpFrameRate 350 435 1061
BG_AnimPlayerConditions 110 124 -"
judge() {
  local label=$1 lib=$2 arch=$3 column=$4 f ir budget
  while read -r f ir; do
    budget=$(awk -v f="$f" -v c="$column" '$1 == f { print $c }' <<<"$budgets")
    if [ "$budget" = - ]; then
      printf '%-8s %-24s %-22s %9s\n' "$arch" "$label" "$f" "$ir"
    elif awk -v a="$ir" -v b="$budget" 'BEGIN { exit !(a <= b) }'; then
      printf '%-8s %-24s %-22s %9s  (budget %s)\n' "$arch" "$label" "$f" "$ir" "$budget"
    else
      printf '%-8s %-24s %-22s %9s  OVER its budget %s\n' "$arch" "$label" "$f" "$ir" "$budget"
      status=1
    fi
  done < <("$bench" --lib "$lib" --arch "$arch")
}
judge "game (x87)" "$root/dist/x86_64/libuoanim_game.a" x86_64 2
judge "game (x87)" "$root/dist/i686/libuoanim_game.a" i686 3
judge "game (software x87)" "$root/build/soft-x87/x86_64/libuoanim_game.a" x86_64 4
exit $status
