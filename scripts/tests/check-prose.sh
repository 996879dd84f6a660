#!/usr/bin/env bash
# check-prose.py on its fixtures (scripts/tests/prose/): the clean file
# passes (headings, code, tables and list items are no finding), the broken
# one fails with a long line and a long paragraph.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
check=$here/../check-prose.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0; python3 "$check" "$here/prose/ok.md" >"$work/ok" || status=$?
[ $status = 0 ] || { echo "check-prose test: the clean fixture failed:" >&2; cat "$work/ok" >&2; exit 1; }
echo "check-prose on the clean fixture: exit 0: $(tail -1 "$work/ok")"
status=0; python3 "$check" "$here/prose/broken.md" >"$work/broken" || status=$?
for want in "broken.md:3: a prose line of 106 characters (at most 99)" "broken.md:5: a paragraph of 15 lines (at most 14)"; do
  [ $status = 1 ] && grep -qF -- "$want" "$work/broken" || { echo "check-prose test: the broken fixture: exit $status, no '$want':" >&2; cat "$work/broken" >&2; exit 1; }
done
echo "check-prose on the broken fixture: exit 1: $(tail -1 "$work/broken")"
