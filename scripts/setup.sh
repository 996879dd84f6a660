#!/usr/bin/env bash
# setup.sh — makes sure the machine can build both arches: the i686 Rust
# target and 32-bit C support (gcc-multilib). Installs them when it can
# (rustup; apt-get as root), otherwise says the one command to run.
set -euo pipefail
if ! rustup target list --installed 2>/dev/null | grep -qx i686-unknown-linux-gnu; then
  echo "setup: adding the i686-unknown-linux-gnu Rust target"
  rustup target add i686-unknown-linux-gnu
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int main(void) { return 0; }\n' >"$probe/t.c"
if ! gcc -m32 "$probe/t.c" -o "$probe/t" 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing gcc-multilib for 32-bit C support"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-multilib >/dev/null
  else
    echo "setup: 32-bit C support is missing; run: sudo apt-get install gcc-multilib" >&2
    exit 1
  fi
fi
