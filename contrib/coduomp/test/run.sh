#!/usr/bin/env bash
# run.sh ARCH "UNITS" -- contrib/coduomp/uoanim.mk against a miniature copy of
# the engine's build layout (gen_layout.py), for each unit:
#   1. the unswapped build (all C files) links with -Wl,--no-undefined;
#   2. the swapped build (uoanim.mk included) compiles none of the replaced
#      files and links the unit:
#      the link succeeds with -Wl,--no-undefined; game, cgame, game_windows: the module
#        defines every export of the unit; engine, client: the kept files
#        define the engine's script-state storage (fifteen data symbols), the
#        three load functions of script_compile_load.c (calling into the unit)
#        and the readers of script_value.c, and the unit defines none of them.
# Prints one line per unit and exits non-zero when one is not as described.
set -uo pipefail
arch=$1 units=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
case "$arch" in x86_64) m=-m64 ;; i686) m=-m32 ;; *) echo "contrib test: unknown arch $arch" >&2; exit 2 ;; esac
owned="Scr_BeginLoadAnimTrees Scr_EndLoadAnimTrees Scr_PrecacheAnimTrees script_activeAnimTreeHandle script_animCheckEnabled script_animCommentDepth script_animCurrentUsingTree script_animTreeChecksum xanim_activePoolPayloadSlot script_animTreeCounts script_animTrees script_animTreeHandles script_animTreeRoot script_animCurrentTreeRoot script_animParseStart script_animParseState script_loadAnimTreesActive script_codeEnd"
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
      lib_defines=$(nm -g --defined-only "$root/dist/$arch/libuoanim_$unit.a" 2>/dev/null | awk '{print $NF}' | sort -u)
      clash=$(for s in $owned; do echo "$lib_defines" | grep -qx "$s" && echo "$s"; done | tr '\n' ' ')
      if [ "$rc" != 0 ]; then
        echo "contrib $arch $unit: the swapped build does not link:"; grep -E 'undefined reference|multiple definition|error' "$work/swapped.log" | head -8; status=1
      elif [ -n "$clash" ]; then
        echo "contrib $arch $unit: the unit defines engine-owned symbols: $clash"; status=1
      else
        echo "contrib $arch $unit: unswapped and swapped links succeed with -Wl,--no-undefined (the kept script_compile_load.c, script_value.c and storage define the 18 engine-owned symbols; the unit none)"
      fi ;;
  esac
  rm -rf "$work"
done
exit $status
