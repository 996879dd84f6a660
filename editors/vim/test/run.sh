#!/usr/bin/env bash
# The Vim files of editors/vim (file type detection, highlighting) in
# headless Neovim, without any user configuration: highlight_test.lua.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v nvim >/dev/null; then
  echo "vim test: neovim is not installed (scripts/setup.sh installs it)"
  exit 1
fi
# $VIM_FILES and $TEST are read by Neovim, not expanded by the shell
# shellcheck disable=SC2016
VIM_FILES=$(cd "$here/.." && pwd) TEST=$here/highlight_test.lua timeout 60 \
  nvim --headless -u NONE -i NONE --cmd 'let &runtimepath = $VIM_FILES . "," . &runtimepath' \
  -c 'filetype on' -c 'syntax on' -c 'lua dofile(os.getenv("TEST"))' 2>&1 |
  tr '\r' '\n' | grep -v '^$'
