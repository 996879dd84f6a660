#!/usr/bin/env bash
# setup.sh — makes sure the machine can build and test every target:
#   * the Rust targets i686-unknown-linux-gnu, x86_64-pc-windows-gnu and
#     i686-pc-windows-gnu (rustup);
#   * the Rust target aarch64-unknown-linux-gnu, qemu-user, clang, lld and
#     Debian's arm64 cross binutils and libraries (aarch64 builds and tests);
#   * the Rust target aarch64-apple-darwin and LLVM's llvm-ar and llvm-nm
#     (the macOS arm64 units: Mach-O archives, their symbol check);
#   * 32-bit C support (gcc-multilib), the mingw-w64 C compilers
#     (gcc-mingw-w64-x86-64, gcc-mingw-w64-i686) and Wine (wine, wine64);
#   * Neovim (neovim), whose LSP client tests `uoanim lsp` and which tests
#     the Vim files; shellcheck, which checks the release scripts;
#   * Wine's 32-bit support (wine32:i386, after `dpkg --add-architecture
#     i386`), which is optional: Debian's i386 index is at times out of step
#     with amd64's, so the install is retried, and when it still fails the
#     set-up says so and goes on (the i686-windows programs are then built
#     but not run).
# Installs what is missing when it can (rustup; apt-get as root), otherwise
# prints the one command to run.
set -euo pipefail

targets=(i686-unknown-linux-gnu x86_64-pc-windows-gnu i686-pc-windows-gnu aarch64-unknown-linux-gnu aarch64-apple-darwin)
installed=$(rustup target list --installed 2>/dev/null || true)
for t in "${targets[@]}"; do
  if ! grep -qx "$t" <<<"$installed"; then
    echo "setup: adding the $t Rust target"
    rustup target add "$t"
  fi
done

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int main(void) { return 0; }\n' >"$probe/t.c"

missing=()
gcc -m32 "$probe/t.c" -o "$probe/t" 2>/dev/null || missing+=(gcc-multilib)
command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(gcc-mingw-w64-x86-64)
command -v i686-w64-mingw32-gcc >/dev/null || missing+=(gcc-mingw-w64-i686)
command -v wine >/dev/null || missing+=(wine wine64)
# aarch64 Linux: qemu-user runs its tests; clang and lld link over the arm64
# cross libraries (Debian's gcc-aarch64-linux-gnu conflicts with gcc-multilib)
command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
command -v clang >/dev/null || missing+=(clang)
command -v ld.lld >/dev/null || missing+=(lld)
{ command -v llvm-ar && command -v llvm-nm; } >/dev/null || missing+=(llvm)
command -v aarch64-linux-gnu-ld >/dev/null || missing+=(binutils-aarch64-linux-gnu)
[ -e /usr/aarch64-linux-gnu/lib/crt1.o ] || missing+=(libc6-dev-arm64-cross)
ls /usr/lib/gcc-cross/aarch64-linux-gnu/*/libgcc.a >/dev/null 2>&1 || missing+=(libgcc-12-dev-arm64-cross)
# Neovim: its built-in LSP client drives the uoanim lsp test (make test-tool)
command -v nvim >/dev/null || missing+=(neovim)
# ShellCheck: the release scripts are checked with it (make test-release)
command -v shellcheck >/dev/null || missing+=(shellcheck)

as_root=""
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then as_root=yes; fi
apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }

if [ ${#missing[@]} -gt 0 ]; then
  if [ -n "$as_root" ]; then
    echo "setup: installing ${missing[*]}"
    apt-get update -qq
    apt_install "${missing[@]}"
  else
    echo "setup: missing ${missing[*]}; run: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

# Wine's 32-bit side, for the i686-windows programs.
has_wine32() { dpkg-query -W -f='${Status}' wine32:i386 2>/dev/null | grep -q 'ok installed'; }
if command -v dpkg-query >/dev/null && ! has_wine32; then
  if [ -n "$as_root" ]; then
    dpkg --add-architecture i386
    for attempt in 1 2 3; do
      echo "setup: installing wine32:i386 (attempt $attempt of 3)"
      if apt-get update -qq && apt_install wine32:i386; then break; fi
      sleep $((attempt * 10))
    done
    if has_wine32; then
      # a Wine prefix made before wine32 lacks the 32-bit system: update it
      if [ -d "${WINEPREFIX:-$HOME/.wine}" ]; then WINEDEBUG=-all wineboot -u >/dev/null 2>&1 || true; fi
    else
      echo "setup: wine32:i386 could not be installed (Debian's i386 index may be out of step with amd64's);" \
        "the i686-windows programs will be built but not run" >&2
    fi
  else
    echo "setup: Wine has no 32-bit support, the i686-windows programs will be built but not run;" \
      "to run them: sudo dpkg --add-architecture i386 && sudo apt-get update && sudo apt-get install wine32:i386" >&2
  fi
fi
