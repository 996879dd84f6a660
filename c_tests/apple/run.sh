#!/usr/bin/env bash
# run.sh LIB — Apple's arm64 variadic entry, tested on aarch64 Linux:
# varargs_apple.c (an assembly caller passing every variadic argument on
# the stack, as Apple's convention does) linked against LIB, the game unit
# built for aarch64-unknown-linux-gnu with the `apple-variadic` feature
# (Makefile: test-darwin), with clang and lld, and run under qemu-aarch64.
set -euo pipefail
lib=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$root/scripts/aarch64-cc.sh" -std=gnu11 -O1 -g -Wall -Wextra -Werror -I"$root/dist/include" -I"$root/c_tests" \
  "$here/varargs_apple.c" "$lib" -Wl,--gc-sections -Wl,--no-undefined -o "$out/varargs_apple"
qemu-aarch64 -L /usr/aarch64-linux-gnu "$out/varargs_apple"
