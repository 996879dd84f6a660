#!/usr/bin/env bash
# The boundary check on its fixture (scripts/tests/boundary/lib.rs): passes
# on the fixture as it is, fails on each planted breach with the message
# naming it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check() { # VARIANT EXPECTED-STATUS MESSAGE
  local cfg=() status=0
  [ "$1" = ok ] || cfg=(--cfg "broken=\"$1\"")
  rustc --edition 2021 --crate-type lib --crate-name uoanim --target x86_64-unknown-linux-gnu \
    -C opt-level=0 -C codegen-units=1 -C panic=abort -C debuginfo=0 "${cfg[@]}" \
    --check-cfg 'cfg(broken, values("export_calls_export", "asm_calls_export", "core_guard", "core_error"))' \
    --emit=obj="$work/$1.o" "$here/boundary/lib.rs"
  python3 "$here/../check-boundary.py" --object "$work/$1.o" --source "$here/boundary" --flavour "$1" >"$work/$1.out" || status=$?
  if [ "$status" != "$2" ] || ! grep -q -- "$3" "$work/$1.out"; then
    echo "check-boundary test: fixture '$1': exit $status (expected $2), output:" >&2; cat "$work/$1.out" >&2; exit 1
  fi
  echo "check-boundary on fixture '$1': exit $status: $(grep -m1 -- "$3" "$work/$1.out")"
}
check ok 0 "no export reaches another"
check core_guard 1 "is called by uoanim::core::deep, not by an export"
check core_error 1 "Com_Error is referenced by uoanim::core::deep"
check export_calls_export 1 "export Fixture_Count reaches export Fixture_Parse"
check asm_calls_export 1 "assembly routine Fixture_Entry references Fixture_Count"
