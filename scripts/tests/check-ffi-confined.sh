#!/usr/bin/env bash
# check-ffi-confined.py on its fixtures (scripts/tests/ffi-confined/): the
# clean tree passes (the rule's words in src/ffi, comments, strings, types,
# import blocks and tests are no finding), the broken one fails with each
# kind of finding outside src/ffi, and a stale pending entry fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
check=$here/../check-ffi-confined.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0; python3 "$check" "$here/ffi-confined/clean/src" >"$work/clean" || status=$?
[ $status = 0 ] || { echo "check-ffi-confined test: the clean fixture failed:" >&2; cat "$work/clean" >&2; exit 1; }
echo "check-ffi-confined on the clean fixture: exit 0: $(tail -1 "$work/clean")"
status=0; python3 "$check" "$here/ffi-confined/broken/src" >"$work/broken" || status=$?
for expected in "src/core/mod.rs:4: #\[no_mangle\]" "src/core/mod.rs:6: extern fn definition" "src/core/mod.rs:10: assembly" \
                "src/core/mod.rs:12: assembly" "src/core/mod.rs:15: #\[no_mangle\]" "src/core/mod.rs:19: #\[export_name\]" \
                "src/core/mod.rs:20: extern fn definition"; do
  grep -q "^$expected outside src/ffi" "$work/broken" || { echo "check-ffi-confined test: no '$expected' finding:" >&2; cat "$work/broken" >&2; exit 1; }
done
[ $status = 1 ] && [ "$(grep -c 'outside src/ffi$' "$work/broken")" = 7 ] || { echo "check-ffi-confined test: the broken fixture gave exit $status:" >&2; cat "$work/broken" >&2; exit 1; }
echo "check-ffi-confined on the broken fixture: exit 1: $(tail -1 "$work/broken")"
printf 'src/core/mod.rs: assembly\nsrc/gone.rs: assembly\n' >"$work/pending"
status=0; python3 "$check" --pending "$work/pending" "$here/ffi-confined/broken/src" >"$work/stale" || status=$?
[ $status = 1 ] && grep -q "^stale pending entry.*src/gone.rs: assembly" "$work/stale" && grep -q "^pending: src/core/mod.rs:10: assembly" "$work/stale" ||
  { echo "check-ffi-confined test: the stale pending entry was not reported:" >&2; cat "$work/stale" >&2; exit 1; }
echo "check-ffi-confined with a stale pending entry: exit 1: $(grep -m1 '^stale' "$work/stale")"
