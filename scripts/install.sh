#!/usr/bin/env bash
# install.sh ARCH LIBDIR INCLUDEDIR PCDIR PREFIX "UNITS"
#
# Installs the built link units of one arch (dist/ARCH) and the headers:
#   LIBDIR/libuoanim_UNIT.a
#   LIBDIR/libuoanim_UNIT.so.VERSION, .so.MAJOR -> it, .so -> .so.MAJOR (Linux)
#   INCLUDEDIR/uoanim/*.h
#   PCDIR/uoanim-UNIT.pc   (pkg-config: --cflags, --libs)
# The units need nothing but the C library, so a .pc file's --libs is the
# whole link line: -L<libdir> -luoanim_UNIT (static or shared alike).
set -euo pipefail
arch=$1 libdir=$2 includedir=$3 pcdir=$4 prefix=$5 units=$6
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -1)
major=${version%%.*}

install -d "$libdir" "$includedir/uoanim" "$pcdir"
install -m 644 "$root"/dist/include/*.h "$includedir/uoanim/"
for unit in $units; do
  case "$unit" in
    game) what="player-animation scripts, server game module"; flavour=UOANIM_FLAVOUR_GAME ;;
    cgame) what="player-animation scripts, client-game module"; flavour=UOANIM_FLAVOUR_CGAME ;;
    game_windows) what="player-animation scripts, game module of the client packages (Windows behaviour)"; flavour=UOANIM_FLAVOUR_GAME_WINDOWS ;;
    engine) what="animation trees, dedicated server"; flavour="" ;;
    client) what="animation trees, multiplayer client"; flavour=UOANIM_FLAVOUR_CLIENT ;;
    *) echo "install.sh: unknown unit $unit" >&2; exit 2 ;;
  esac
  lib=libuoanim_$unit
  install -m 644 "$root/dist/$arch/$lib.a" "$libdir/$lib.a"
  # Linux: the shared library too (Windows and macOS ship the archive)
  if [ -e "$root/dist/$arch/$lib.so" ]; then
    install -m 755 "$root/dist/$arch/$lib.so" "$libdir/$lib.so.$version"
    ln -sf "$lib.so.$version" "$libdir/$lib.so.$major"
    ln -sf "$lib.so.$major" "$libdir/$lib.so"
  fi
  # paths relative to the prefix stay relocatable
  rel() { case "$1" in "$prefix"/*) printf '${prefix}/%s' "${1#"$prefix"/}" ;; "$prefix") printf '${prefix}' ;; *) printf '%s' "$1" ;; esac; }
  cat >"$pcdir/uoanim-$unit.pc" <<EOF
prefix=$prefix
libdir=$(rel "$libdir")
includedir=$(rel "$includedir")

Name: uoanim-$unit
Description: uoanim link unit '$unit' ($what), a drop-in replacement for the engine's C animation modules
Version: $version
Cflags: -I\${includedir}/uoanim${flavour:+ -D$flavour}
Libs: -L\${libdir} -luoanim_$unit
EOF
done
echo "installed ${units// /, } ($arch) to $libdir, headers to $includedir/uoanim, pkg-config files to $pcdir"
