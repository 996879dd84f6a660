#!/usr/bin/env bash
# run.sh ARCH "UNITS" -- contrib/coduomp/uoanim.mk against a miniature copy of
# the engine's build layout (gen_layout.py), for each unit:
#   1. the unswapped build (all C files) links with -Wl,--no-undefined;
#   2. the swapped build (uoanim.mk included) compiles none of the replaced
#      files and links the unit:
#      game, cgame, game_windows: the link succeeds with -Wl,--no-undefined and the module
#        defines every export of the unit;
#      engine, client: the link fails with exactly the duplicate definitions
#        the README names (three functions of script_compile_load.c and six
#        data symbols of the script-state storage), nothing else.
# Prints one line per unit and exits non-zero when one is not as described.
set -uo pipefail
arch=$1 units=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
case "$arch" in x86_64) m=-m64 ;; i686) m=-m32 ;; *) echo "contrib test: unknown arch $arch" >&2; exit 2 ;; esac
conflicts="Scr_BeginLoadAnimTrees Scr_EndLoadAnimTrees Scr_PrecacheAnimTrees script_activeAnimTreeHandle script_animCheckEnabled script_animCommentDepth script_animCurrentUsingTree script_animTreeChecksum xanim_activePoolPayloadSlot"
status=0
for unit in $units; do
  lib=$root/dist/$arch/libuoanim_$unit.a
  work=$(mktemp -d)
  python3 "$here/gen_layout.py" "$unit" "$lib" "$root/docs/ABI.md" "$root/contrib/coduomp/uoanim.mk" "$work" || { status=1; continue; }
  if ! make -s -C "$work" -f "build-mk/$unit.mk" M=$m >"$work/unswapped.log" 2>&1; then
    echo "contrib $arch $unit: the unswapped build does not link:"; tail -5 "$work/unswapped.log"; status=1; rm -rf "$work"; continue
  fi
  rm -rf "$work/obj" "$work/module.so"
  make -s -C "$work" -f "build-mk/$unit.mk" M=$m UOANIM_MK="$root/contrib/coduomp/uoanim.mk" \
    UOANIM_LIBDIR="$root/dist/$arch" >"$work/swapped.log" 2>&1
  rc=$?
  built_replaced=$(make -s -C "$work" -f "build-mk/$unit.mk" UOANIM_MK="$root/contrib/coduomp/uoanim.mk" \
    --eval 'print-replaced: ; @for f in $(UOANIM_REPLACED); do [ ! -e obj/$${f%.c}.o ] || echo $$f; done' print-replaced 2>/dev/null)
  if [ -n "$built_replaced" ]; then
    echo "contrib $arch $unit: the swapped build compiled replaced files: $built_replaced"; status=1
  fi
  case "$unit" in
    game|cgame|game_windows)
      if [ "$rc" != 0 ]; then
        echo "contrib $arch $unit: the swapped build does not link:"; tail -8 "$work/swapped.log"; status=1
      else
        missing=$(comm -23 <(sort "$root/dist/$arch/libuoanim_$unit.exports") \
          <(nm -D --defined-only "$work/module.so" | awk '{print $NF}' | sort))
        if [ -n "$missing" ]; then
          echo "contrib $arch $unit: the swapped module lacks exports: $(echo $missing | head -c 300)"; status=1
        else
          echo "contrib $arch $unit: unswapped and swapped links succeed with -Wl,--no-undefined ($(wc -l <"$root/dist/$arch/libuoanim_$unit.exports") exports from the unit)"
        fi
      fi ;;
    engine|client)
      dups=$(sed -n "s/.*multiple definition of \`\([^']*\)'.*/\1/p" "$work/swapped.log" | sort -u | tr '\n' ' ')
      other=$(grep -E 'undefined reference|error:' "$work/swapped.log" | grep -v 'multiple definition' | grep -v 'collect2' | head -3)
      if [ "$rc" = 0 ]; then
        echo "contrib $arch $unit: the swapped build links; the README's duplicate-definition note is out of date"; status=1
      elif [ "$dups" != "$(echo $conflicts | tr ' ' '\n' | sort | tr '\n' ' ')" ] || [ -n "$other" ]; then
        echo "contrib $arch $unit: the swapped link fails otherwise than the README says: duplicates '$dups' $other"; status=1
      else
        echo "contrib $arch $unit: unswapped link succeeds; swapped link fails only on the 9 duplicate definitions the README names"
      fi ;;
  esac
  rm -rf "$work"
done
exit $status
