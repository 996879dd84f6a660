#!/usr/bin/env bash
# package-unit.sh ARCH UNIT STATICLIB OUTDIR
#
# Turns the staticlib cargo built for one link unit into the shipped
# libuoanim_UNIT.a and libuoanim_UNIT.so:
#   1. links the crate's objects and the parts of the Rust runtime they need
#      into one relocatable object (`ld -r`, dead sections dropped);
#   2. drops symbols no relocation needs, keeps as global only the symbols the crate itself exports (its
#      #[no_mangle] items), so two units linked into one program share no
#      runtime symbol; imports stay undefined;
#   3. archives it, and links the same object as a shared library whose
#      SONAME is libuoanim_UNIT.so.MAJOR (MAJOR: of the Cargo.toml version);
#   4. checks that the unit needs nothing but the C library: no Rust std in
#      the staticlib, no NEEDED other than libc, no TLS segment.
set -euo pipefail
arch=$1 unit=$2 staticlib=$3 outdir=$4
case "$arch" in
  x86_64) emul=elf_x86_64 mflag=-m64 ;;
  i686) emul=elf_i386 mflag=-m32 ;;
  *) echo "package-unit.sh: unknown arch $arch" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The crate's own exports: global, defined, unmangled symbols of the crate's
# objects (members named uoanim-*.o). Internal helpers called from assembly
# are named uoanim_internal_* and stay local, as does the no_std runtime's
# rust_eh_personality (src/rt.rs).
readelf -sW "$staticlib" | awk '
  /^File: / { mine = ($2 ~ /\(uoanim-[^)]*\.o\)$/); next }
  mine && ($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" && NF >= 8 {
    name = $8
    if (name !~ /^_ZN/ && name !~ /^_R/ && name !~ /^uoanim_internal_/ && name !~ /^__rustc/ && name != "rust_eh_personality") print name
  }' | sort -u >"$work/exports.txt"
[ -s "$work/exports.txt" ] || { echo "package-unit.sh: no exports found in $staticlib" >&2; exit 1; }

roots=()
while read -r sym; do roots+=(-u "$sym"); done <"$work/exports.txt"
ld -r -m "$emul" --gc-sections "${roots[@]}" "$staticlib" -o "$work/linked.o"
objcopy -R .llvmbc -R .llvmcmd --strip-debug --strip-unneeded --keep-global-symbols="$work/exports.txt" \
  "$work/linked.o" "$work/uoanim_$unit.o"

mkdir -p "$outdir"
rm -f "$outdir/libuoanim_$unit.a"
ar rcsD "$outdir/libuoanim_$unit.a" "$work/uoanim_$unit.o"
# --- SONAME and the C-library-only check (a block of its own) ---
root=$(cd "$(dirname "$0")/.." && pwd)
major=$(sed -n 's/^version = "\([0-9]*\)\..*/\1/p' "$root/Cargo.toml" | head -1)
gcc $mflag -shared -Wl,--gc-sections -Wl,-soname,"libuoanim_$unit.so.$major" \
  -o "$outdir/libuoanim_$unit.so" "$work/uoanim_$unit.o"
ln -sf "libuoanim_$unit.so" "$outdir/libuoanim_$unit.so.$major"
if ar t "$staticlib" | grep -E '^(std|panic_unwind|unwind|backtrace|gimli|addr2line|miniz|object|hashbrown|rustc_demangle)-' >&2; then
  echo "package-unit.sh: $staticlib links the Rust std runtime (the members above); a unit is no_std" >&2; exit 1
fi
needed=$(readelf -dW "$outdir/libuoanim_$unit.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
[ "$needed" = "libc.so.6 " ] || { echo "package-unit.sh: libuoanim_$unit.so needs '$needed', not only libc.so.6" >&2; exit 1; }
if readelf -lW "$outdir/libuoanim_$unit.so" | grep -q ' TLS '; then
  echo "package-unit.sh: libuoanim_$unit.so has a TLS segment" >&2; exit 1
fi
# --- end ---
cp "$work/exports.txt" "$outdir/libuoanim_$unit.exports"
