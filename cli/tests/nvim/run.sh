#!/bin/bash
# The Neovim test of `uoanim lsp` (cli/tests/nvim/lsp_test.lua) on a scratch
# copy of the golden clean mod: run.sh path/to/uoanim
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if ! command -v nvim >/dev/null; then echo "nvim test: neovim is not installed (scripts/setup.sh installs it)"; exit 1; fi
mod=$(mktemp -d)
trap 'rm -rf "$mod"' EXIT
cp -r "$here/../golden/clean/." "$mod/"
UOANIM=$exe MOD=$mod timeout 120 nvim --headless --clean -c "luafile $here/lsp_test.lua" 2>&1 | tr '\r' '\n' | grep -v '^$'
