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
# ARCH is x86_64, i686, aarch64 (ELF), x86_64-windows, i686-windows
# (PE/COFF, the mingw-w64 binutils) or darwin-arm64 (Mach-O, LLVM's tools). On i686 Windows C symbols carry a leading underscore;
# the exports list (OUTDIR/libuoanim_UNIT.exports) names them as C does.
set -euo pipefail
arch=$1 unit=$2 staticlib=$3 outdir=$4 frame_staticlib=${5:-}
tools="" elftools="" cc=gcc asflag=""
case "$arch" in
  x86_64) emul=elf_x86_64 mflag=-m64 asflag=--64 ;;
  i686) emul=elf_i386 mflag=-m32 asflag=--32 ;;
  # aarch64 Linux: the cross binutils, clang as the C driver (aarch64-cc.sh)
  aarch64) elftools=aarch64-linux-gnu- emul=aarch64linux mflag="" cc="$(dirname "$0")/aarch64-cc.sh" ;;
  # macOS arm64 (Mach-O): see the block below
  darwin-arm64) ;;
  x86_64-windows) tools=x86_64-w64-mingw32- emul=i386pep cprefix="" ;;
  i686-windows) tools=i686-w64-mingw32- emul=i386pe cprefix=_ ;;
  *) echo "package-unit.sh: unknown arch $arch" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if "${tools}ar" t "$staticlib" | grep -E '^(std|panic_unwind|unwind|backtrace|gimli|addr2line|miniz|object|hashbrown|rustc_demangle)-' >&2; then
  echo "package-unit.sh: $staticlib links the Rust std runtime (the members above); a unit is no_std" >&2; exit 1
fi

# Mach-O (macOS arm64): one member, the crate's own object as rustc built
# it (with LTO it holds all the Rust code the unit reaches: the Rust runtime
# there is private to it, `.private_extern`). There is no Mach-O
# relocatable link or symbol localisation here, so nothing is relinked: the
# player-animation units are one build with both sets of exports (build.rs:
# `parse_exports`, `frame_exports`), and the compiler runtime's members of
# the staticlib are left out, its two helpers (___udivti3, ___floatuntidf)
# being the system's (libSystem's compiler runtime). FRAME_STATICLIB is not
# taken. Beyond the exports the object defines only the global
# _uoanim_internal_* bodies of its assembly entries (docs/ABI.md).
if [ "$arch" = darwin-arm64 ]; then
  [ -z "$frame_staticlib" ] || { echo "package-unit.sh: darwin-arm64 takes one staticlib" >&2; exit 2; }
  member=$(llvm-ar t "$staticlib" | grep '^uoanim-.*\.o$')
  [ "$(echo "$member" | wc -l)" = 1 ] || { echo "package-unit.sh: $staticlib holds no single crate object: $member" >&2; exit 1; }
  lib=$(realpath "$staticlib")
  (cd "$work" && llvm-ar x "$lib" "$member" && mv "$member" "uoanim_$unit.o")
  llvm-nm -m --defined-only "$work/uoanim_$unit.o" | awk '/ external / && !/non-external/ && !/private external/ { print $NF }' |
    grep -E '^_[A-Za-z][A-Za-z0-9_]*$' | grep -v '^_uoanim_internal_' | sed 's/^_//' | sort -u >"$work/exports.txt"
  [ -s "$work/exports.txt" ] || { echo "package-unit.sh: no exports found in $staticlib" >&2; exit 1; }
  mkdir -p "$outdir"
  rm -f "$outdir/libuoanim_$unit.a"
  llvm-ar --format=darwin rcsD "$outdir/libuoanim_$unit.a" "$work/uoanim_$unit.o"
  cp "$work/exports.txt" "$outdir/libuoanim_$unit.exports"
  exit 0
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

# personality_stub: the assembly of a trapping rust_eh_personality
personality_stub() {
  local trap
  case "$arch" in
    aarch64) trap="brk #1" ;;
    *) trap="ud2" ;;
  esac
  printf '\t.text\n\t.globl rust_eh_personality\n\t.type rust_eh_personality, %%function\nrust_eh_personality:\n\t%s\n\t.size rust_eh_personality, .-rust_eh_personality\n' "$trap"
}

# elf_member STATICLIB OBJECT SUFFIX: one member's object. Its exports, the
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
  # The unwind tables of the prebuilt runtime (aarch64) name Rust's
  # personality routine, which a no_std unit does not have: a C link
  # would fail on it. Nothing unwinds through a unit (panic = "abort"; the
  # engine leaves by longjmp), so a stub that traps resolves it, local to
  # the member like the rest of the runtime.
  if "${elftools}readelf" -sW "$work/linked.o" | awk '$7 == "UND" && $8 == "rust_eh_personality" { found = 1 } END { exit !found }'; then
    personality_stub >"$work/personality.s"
    "${elftools}as" $asflag "$work/personality.s" -o "$work/personality.o"
    "${elftools}ld" -r -m "$emul" "$work/linked.o" "$work/personality.o" -o "$work/linked-personality.o"
    mv "$work/linked-personality.o" "$work/linked.o"
  fi
  "${elftools}objcopy" -R .llvmbc -R .llvmcmd --strip-debug --strip-unneeded --keep-global-symbols="$work/member-exports.txt" \
    "$work/linked.o" "$object"
  # A section group (COMDAT) of the runtime's, such as the personality
  # cell DW.ref.rust_eh_personality of the compiler's helpers, is local to
  # each member after the step above; two members with a group of the same
  # name would see one of them discarded by the final link, and the
  # member's unwind table point into it (lld refuses that): between the
  # two members of a unit, and between two units linked into one program.
  # Each member's groups get names of their own (SUFFIX: the member's).
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
elf_member "$staticlib" "$work/uoanim_$unit.o" ".uoanim_${unit}"
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
