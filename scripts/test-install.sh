#!/usr/bin/env bash
# test-install.sh "UNITS" -- `make install` into a fresh prefix, then checks
# what a user of it gets: the files, each shared library's SONAME and NEEDED
# entries, each pkg-config file's --libs, and a C program (the action-API
# test, linked statically) built with `pkg-config --cflags --libs uoanim-game`
# alone.
set -euo pipefail
units=$1
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
make -s -C "$root" install PREFIX="$prefix" UNITS="$units" >/dev/null
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
major=$(sed -n 's/^version = "\([0-9]*\)\..*/\1/p' "$root/Cargo.toml" | head -1)
status=0
fail() { echo "install: $*"; status=1; }
for h in uoanim_common.h uoanim_playeranim.h uoanim_animtree.h uoanim_action.h; do
  [ -f "$prefix/include/uoanim/$h" ] || fail "no include/uoanim/$h"
done
for unit in $units; do
  lib=$prefix/lib/libuoanim_$unit
  [ -f "$lib.a" ] || fail "no $lib.a"
  so=$(readlink -f "$lib.so")
  soname=$(readelf -dW "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  needed=$(readelf -dW "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ' | sed "s/ *$//")
  [ "$soname" = "libuoanim_$unit.so.$major" ] || fail "$unit: SONAME '$soname'"
  [ "$(readlink "$lib.so.$major")" = "$(basename "$so")" ] || fail "$unit: $lib.so.$major does not name $(basename "$so")"
  [ "$needed" = "libc.so.6" ] || fail "$unit: NEEDED '$needed'"
  libs=$(pkg-config --libs "uoanim-$unit" | sed "s/ *$//")
  [ "$libs" = "-L$prefix/lib -luoanim_$unit" ] || fail "$unit: pkg-config --libs gives '$libs'"
  echo "install $unit: SONAME $soname, NEEDED $needed; pkg-config --libs: ${libs//$prefix/PREFIX}"
done
case " $units " in
  *" game "*)
    work=$(mktemp -d)
    # static: the archive through the pkg-config line (-Bstatic picks the .a)
    gcc -std=gnu11 -O1 $(pkg-config --cflags uoanim-game) "$root/c_tests/action_test.c" -Wl,--gc-sections \
      -Wl,-Bstatic $(pkg-config --libs uoanim-game) -Wl,-Bdynamic -o "$work/static" || fail "the action test does not link statically with pkg-config's line"
    [ ! -x "$work/static" ] || "$work/static" >"$work/static.log" || fail "the statically linked action test fails: $(tail -3 "$work/static.log")"
    rm -rf "$work"
    echo "install: the action test builds with 'pkg-config --cflags --libs uoanim-game' and passes" ;;
esac
# macOS arm64: the Mach-O archives and their pkg-config files
darwin_units="game_windows cgame engine client"
dprefix=$(mktemp -d)
make -s -C "$root" install PREFIX="$dprefix" INSTALL_ARCH=darwin-arm64 >/dev/null
for unit in $darwin_units; do
  lib=$dprefix/lib/libuoanim_$unit
  [ -f "$lib.a" ] && llvm-ar t "$lib.a" | grep -qx "uoanim_$unit.o" || fail "darwin-arm64 $unit: no Mach-O archive $lib.a"
  [ ! -e "$lib.so" ] || fail "darwin-arm64 $unit: a .so installed"
  libs=$(PKG_CONFIG_PATH=$dprefix/lib/pkgconfig pkg-config --libs "uoanim-$unit" | sed "s/ *$//")
  [ "$libs" = "-L$dprefix/lib -luoanim_$unit" ] || fail "darwin-arm64 $unit: pkg-config --libs gives '$libs'"
done
rm -rf "$dprefix"
echo "install darwin-arm64 ($darwin_units): the Mach-O archives and their pkg-config files (make install INSTALL_ARCH=darwin-arm64)"
exit $status
