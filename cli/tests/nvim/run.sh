#!/bin/bash
# The Neovim test of `uoanim lsp` (cli/tests/nvim/lsp_test.lua) on a scratch
# copy of the golden clean mod: run.sh path/to/uoanim
# Neovim's init.lua is README.md's snippet for Neovim 0.7 or later, which
# starts `uoanim lsp` from the PATH: the tool is put on it as `uoanim`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if ! command -v nvim >/dev/null; then echo "nvim test: neovim is not installed (scripts/setup.sh installs it)"; exit 1; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/mod" "$work/bin"
cp -r "$here/../golden/clean/." "$work/mod/"
ln -s "$exe" "$work/bin/uoanim"
"$here/../../../scripts/readme-snippet.sh" 'for Neovim 0.7 or later' >"$work/init.lua"
PATH=$work/bin:$PATH MOD=$work/mod timeout 120 nvim --headless --clean -u "$work/init.lua" \
  -c "luafile $here/lsp_test.lua" 2>&1 | tr '\r' '\n' | grep -v '^$'
