#!/usr/bin/env bash
# check-mirrors.py on copies of include/ and the drivers' layout.h files:
# the copies as they are pass; a header field that moves, and a mirrored
# type the header no longer has, each fail with a line naming them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
copy() { # DIR
  mkdir -p "$1/include" "$1/tests/parity"
  cp "$root"/include/*.h "$1/include/"
  for s in pa at bg-rest; do mkdir -p "$1/tests/parity/$s"; cp "$root/tests/parity/$s/layout.h" "$1/tests/parity/$s/"; done
}
run() { # DIR EXPECTED-STATUS TEXT
  local status=0
  python3 "$here/../check-mirrors.py" --arches x86_64 --root "$1" >"$work/out" 2>&1 || status=$?
  if [ "$status" != "$2" ] || ! grep -qF -- "$3" "$work/out"; then
    echo "check-mirrors test: $1: exit $status (expected $2), no '$3':" >&2; cat "$work/out" >&2; exit 1
  fi
  echo "check-mirrors on $(basename "$1"): exit $status: $(grep -m1 -F -- "$3" "$work/out")"
}
copy "$work/same"
run "$work/same" 0 "at x86_64: 36 offsets and sizes agree"
copy "$work/moved"
sed -i 's/^    uint16_t parentIndex;/    uint32_t parentIndex;/' "$work/moved/include/uoanim_animtree.h"
run "$work/moved" 1 "XAnimEntry.parentIndex: the mirror says 2, include/ 4"
copy "$work/renamed"
sed -i 's/\bXAnimTree\b/XAnimTreeRenamed/g' "$work/renamed/include/uoanim_animtree.h"
run "$work/renamed" 1 "XAnimTree -> XAnimTree: the header has no such type"
