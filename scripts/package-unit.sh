#!/usr/bin/env bash
# package-unit.sh ARCH UNIT STATICLIB OUTDIR [FRAME_STATICLIB]
#
# Turns the staticlib cargo built for one link unit into the shipped
# libuoanim_UNIT.a (and, on Linux, libuoanim_UNIT.so). A player-animation
# unit has a second staticlib, FRAME_STATICLIB (the crate built with the
# `frame` feature: the nine per-frame exports); each staticlib becomes one
# member of the archive (uoanim_UNIT.o, uoanim_UNIT_frame.o), so a program
# that calls none of the per-frame functions links none of their imports,
# as with the C's separate files. Each member keeps its own copy of the
# runtime it reaches, local to it. For each staticlib:
#   1. links the crate's objects into one relocatable object (`ld -r`; ELF:
#      with the parts of core, alloc and compiler_builtins they reach, dead
#      sections dropped; PE/COFF: the crate's LTO object alone, see below);
#   2. drops symbols no relocation needs, keeps as global only the symbols the crate itself exports (its
#      #[no_mangle] items), so two units linked into one program share no
#      runtime symbol; imports stay undefined;
#   3. archives it, and on Linux links the same object as a shared library
#      whose SONAME is libuoanim_UNIT.so.MAJOR (MAJOR: of the Cargo.toml
#      version);
#   4. checks that the unit needs nothing but the C library: no Rust std in
#      the staticlib; on Linux no NEEDED other than libc, no TLS segment.
#
# ARCH is x86_64, i686 (ELF) or x86_64-windows, i686-windows (PE/COFF, the
# mingw-w64 binutils). On i686 Windows C symbols carry a leading underscore;
# the exports list (OUTDIR/libuoanim_UNIT.exports) names them as C does.
set -euo pipefail
arch=$1 unit=$2 staticlib=$3 outdir=$4 frame_staticlib=${5:-}
tools="" elftools="" cc=gcc
case "$arch" in
  x86_64) emul=elf_x86_64 mflag=-m64 ;;
  i686) emul=elf_i386 mflag=-m32 ;;
  # aarch64 Linux: the cross binutils, clang as the C driver (aarch64-cc.sh)
  aarch64) elftools=aarch64-linux-gnu- emul=aarch64linux mflag="" cc="$(dirname "$0")/aarch64-cc.sh" ;;
  x86_64-windows) tools=x86_64-w64-mingw32- emul=i386pep cprefix="" ;;
  i686-windows) tools=i686-w64-mingw32- emul=i386pe cprefix=_ ;;
  *) echo "package-unit.sh: unknown arch $arch" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if "${tools}ar" t "$staticlib" | grep -E '^(std|panic_unwind|unwind|backtrace|gimli|addr2line|miniz|object|hashbrown|rustc_demangle)-' >&2; then
  echo "package-unit.sh: $staticlib links the Rust std runtime (the members above); a unit is no_std" >&2; exit 1
fi

# PE/COFF: the exports are found with nm (the crate's members are named
# uoanim-*.o, as on ELF); only C identifiers are exports. The compiler's
# .refptr.* cells (COMDAT pointers to an engine global, shared by name
# between objects by design) stay global as well. The Makefile builds the
# units with LTO, so the crate's objects hold all the code they reach.
# pe_member STATICLIB OBJECT: one member's object; its exports appended to
# $work/symbols.txt
pe_member() {
  local staticlib=$1 object=$2 members lib
  "${tools}nm" -g --defined-only "$staticlib" 2>/dev/null | awk '
    /^$/ { next }
    /:$/ { mine = ($0 ~ /^uoanim-.*\.o:$/); next }
    mine && $2 ~ /^[TDBR]$/ { print $3 }' |
    grep -E "^${cprefix}[A-Za-z][A-Za-z0-9_]*\$" |
    grep -v "^${cprefix}uoanim_internal_" | sort -u >"$work/member-symbols.txt"
  [ -s "$work/member-symbols.txt" ] || { echo "package-unit.sh: no exports found in $staticlib" >&2; exit 1; }
  cat "$work/member-symbols.txt" >>"$work/symbols.txt"
  # Only the crate's own objects: the few compiler helpers they call
  # (___chkstk_ms, __udivti3; i686 __alloca) stay undefined for the
  # toolchain's libgcc, which every mingw-w64 link has. (Relocating the
  # Rust copies of them into the object would break the unwind table: GNU
  # ld -r does not move the .pdata entries of a merged code section.)
  rm -rf "$work/objects" && mkdir -p "$work/objects"
  members=$("${tools}ar" t "$staticlib" | grep '^uoanim-.*\.o$')
  lib=$(realpath "$staticlib")
  (cd "$work/objects" && "${tools}ar" x "$lib" $members)
  "${tools}ld" -r -m "$emul" "$work"/objects/*.o -o "$work/linked.o"
  { cat "$work/member-symbols.txt"; "${tools}nm" -g --defined-only "$staticlib" 2>/dev/null | awk '$3 ~ /^\.refptr\./ { print $3 }'; } >"$work/keep.txt"
  "${tools}objcopy" -R .llvmbc -R .llvmcmd --strip-debug --strip-unneeded --keep-global-symbols="$work/keep.txt" \
    "$work/linked.o" "$object"
}
if [ -n "$tools" ]; then
  : >"$work/symbols.txt"
  objects=("$work/uoanim_$unit.o")
  pe_member "$staticlib" "$work/uoanim_$unit.o"
  if [ -n "$frame_staticlib" ]; then
    objects+=("$work/uoanim_${unit}_frame.o")
    pe_member "$frame_staticlib" "$work/uoanim_${unit}_frame.o"
  fi
  mkdir -p "$outdir"
  rm -f "$outdir/libuoanim_$unit.a"
  # (binutils warns that LLVM names the COMDAT sections of i686 .refptr
  # cells differently from GCC; the linker resolves them by symbol all the same)
  "${tools}ar" rcsD "$outdir/libuoanim_$unit.a" "${objects[@]}" 2> >(grep -v "COMDAT symbol '.refptr" >&2)
  sort -u "$work/symbols.txt" | sed "s/^$cprefix//" >"$outdir/libuoanim_$unit.exports"
  exit 0
fi

# elf_member STATICLIB OBJECT: one member's object. Its exports, the
# crate's global, defined, unmangled symbols (of the objects named
# uoanim-*.o; internal helpers called from assembly are named
# uoanim_internal_* and stay local), are appended to $work/exports.txt.
elf_member() {
  local staticlib=$1 object=$2 roots=() sym
  readelf -sW "$staticlib" | awk '
    /^File: / { mine = ($2 ~ /\(uoanim-[^)]*\.o\)$/); next }
    mine && ($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" && NF >= 8 {
      name = $8
      if (name !~ /^_ZN/ && name !~ /^_R/ && name !~ /^uoanim_internal_/ && name !~ /^__rustc/) print name
    }' | sort -u >"$work/member-exports.txt"
  [ -s "$work/member-exports.txt" ] || { echo "package-unit.sh: no exports found in $staticlib" >&2; exit 1; }
  cat "$work/member-exports.txt" >>"$work/exports.txt"
  while read -r sym; do roots+=(-u "$sym"); done <"$work/member-exports.txt"
  "${elftools}ld" -r -m "$emul" --gc-sections "${roots[@]}" "$staticlib" -o "$work/linked.o"
  "${elftools}objcopy" -R .llvmbc -R .llvmcmd --strip-debug --strip-unneeded --keep-global-symbols="$work/member-exports.txt" \
    "$work/linked.o" "$object"
  # A section group (COMDAT) of the runtime's, such as the personality
  # cell DW.ref.rust_eh_personality of the compiler's helpers, is local to
  # each member after the step above; two members with a group of the same
  # name would see one of them discarded by the final link, and the
  # member's unwind table point into it (lld refuses that). The second
  # member's groups get names of their own.
  if [ -n "${3:-}" ]; then
    "${elftools}readelf" -gW "$object" | sed -n 's/^COMDAT group section \[ *[0-9]*\] *`[^'"'"']*'"'"' \[\(.*\)\] contains.*/\1/p' |
      while read -r sym; do printf '%s %s%s\n' "$sym" "$sym" "$3"; done >"$work/groups.txt"
    if [ -s "$work/groups.txt" ]; then
      "${elftools}objcopy" --redefine-syms="$work/groups.txt" "$object"
    fi
  fi
}
: >"$work/exports.txt"
objects=("$work/uoanim_$unit.o")
elf_member "$staticlib" "$work/uoanim_$unit.o"
if [ -n "$frame_staticlib" ]; then
  objects+=("$work/uoanim_${unit}_frame.o")
  elf_member "$frame_staticlib" "$work/uoanim_${unit}_frame.o" ".uoanim_${unit}_frame"
fi
sort -u -o "$work/exports.txt" "$work/exports.txt"

mkdir -p "$outdir"
rm -f "$outdir/libuoanim_$unit.a"
"${elftools}ar" rcsD "$outdir/libuoanim_$unit.a" "${objects[@]}"
# --- SONAME and the C-library-only check (a block of its own) ---
root=$(cd "$(dirname "$0")/.." && pwd)
major=$(sed -n 's/^version = "\([0-9]*\)\..*/\1/p' "$root/Cargo.toml" | head -1)
"$cc" $mflag -shared -Wl,--gc-sections -Wl,-soname,"libuoanim_$unit.so.$major" \
  -o "$outdir/libuoanim_$unit.so" "${objects[@]}"
ln -sf "libuoanim_$unit.so" "$outdir/libuoanim_$unit.so.$major"
needed=$(readelf -dW "$outdir/libuoanim_$unit.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
[ "$needed" = "libc.so.6 " ] || { echo "package-unit.sh: libuoanim_$unit.so needs '$needed', not only libc.so.6" >&2; exit 1; }
if readelf -lW "$outdir/libuoanim_$unit.so" | grep -q ' TLS '; then
  echo "package-unit.sh: libuoanim_$unit.so has a TLS segment" >&2; exit 1
fi
# --- end ---
cp "$work/exports.txt" "$outdir/libuoanim_$unit.exports"
