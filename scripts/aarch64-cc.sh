#!/bin/sh
# The C compiler driver (and linker) for aarch64-unknown-linux-gnu: clang
# with lld over Debian's aarch64 cross sysroot (libc6-dev-arm64-cross,
# libgcc-12-dev-arm64-cross). Debian's gcc-aarch64-linux-gnu cannot be
# installed next to gcc-multilib, which the i686 targets need.
exec clang --target=aarch64-linux-gnu -fuse-ld=lld "$@"
