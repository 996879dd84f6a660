#!/usr/bin/env bash
# readme-snippet.sh TEXT — prints, without its indentation, the first
# indented code block after the line of README.md holding TEXT (the block
# that follows the paragraph of that line); fails when there is none. The
# Neovim test of `uoanim lsp` runs the README's init.lua snippet so
# (cli/tests/nvim/run.sh), and the release archives' README.txt shows it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
awk -v text="$1" '
  !seen { if (index($0, text)) seen = 1; next }
  !inside && /^ *$/ { gap = 1; next }
  !inside && !gap { next }
  {
    match($0, /^ */)
    if (!inside) { if (RLENGTH < 4) exit; indent = RLENGTH; inside = 1 }
    if (RLENGTH < indent || $0 ~ /^ *$/) exit
    print substr($0, indent + 1); printed = 1
  }
  END { exit !printed }
' "$root/README.md" || { echo "readme-snippet: no code block after '$1' in README.md" >&2; exit 1; }
