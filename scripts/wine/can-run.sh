#!/usr/bin/env bash
# can-run.sh ARCH — exits 0 when Wine ($WINE, default wine) runs programs of
# the Windows target ARCH (x86_64-windows, i686-windows); otherwise prints
# why on stdout and exits 1.
set -uo pipefail
arch=$1
cc=${arch%-windows}-w64-mingw32-gcc
command -v "$cc" >/dev/null || { echo "no $cc"; exit 1; }
command -v "${WINE:-wine}" >/dev/null || { echo "no ${WINE:-wine}"; exit 1; }
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int main(void) { return 3; }\n' >"$probe/probe.c"
"$cc" "$probe/probe.c" -o "$probe/probe.exe" || { echo "$cc cannot build a program"; exit 1; }
status=0
WINEDEBUG=-all "${WINE:-wine}" "$probe/probe.exe" >/dev/null 2>&1 || status=$?
[ "$status" = 3 ] || { echo "'${WINE:-wine}' cannot run $arch programs (exit status $status)"; exit 1; }
