#!/usr/bin/env bash
# run.sh ARCH "UNITS" -- contrib/coduomp/uoanim.mk against a miniature copy of
# the engine's build layout (gen_layout.py), for each unit (ARCH: x86_64,
# i686, x86_64-windows, i686-windows):
#   1. the unswapped build (all C files) links with -Wl,--no-undefined;
#   2. the swapped build (uoanim.mk included) compiles none of the replaced
#      files and links the unit:
#      the link succeeds with -Wl,--no-undefined; game, cgame, game_windows: the module
#        defines every export of the unit; engine, client: the kept files
#        define the engine's script-state storage (fifteen data symbols), the
#        three load functions of script_compile_load.c (calling into the unit)
#        and the readers of script_value.c, and the unit defines none of them;
#   3. behaviour: a program linked the swapped way (the same objects and
#      library variable, -Wl,--no-undefined) runs: engine, client: a tree
#      loaded through the engine's Scr_BeginLoadAnimTrees, the unit's
#      Scr_UsingTree and Scr_FindAnim on an in-memory .atr
#      (engine_services.c), the engine's Scr_PrecacheAnimTrees with a tree
#      allocator and Scr_EndLoadAnimTrees, then read back through the
#      engine's readers (Scr_GetAnims, Scr_GetAnimsIndex, Scr_GetAnimTree's
#      check) and the unit's queries (behaviour_engine.c); game, cgame: one
#      export called (behaviour_module.c).
# Prints one line per engine binary and rule and exits non-zero when one is
# not as described.
set -uo pipefail
arch=$1 units=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# Linux: gcc; Windows: the mingw-w64 gcc (a PE link has no undefined
# reference or fails), the program run under Wine ($WINE, default wine);
# where Wine cannot run the target's programs, the links are still checked
# and the line says the program was not run, and why.
cc=gcc tools= exe= run=() cannot_run=
case "$arch" in
  x86_64) m=-m64 ;;
  i686) m=-m32 ;;
  x86_64-windows|i686-windows)
    m= tools=${arch%-windows}-w64-mingw32- cc=${tools}gcc exe=.exe run=(env WINEDEBUG=-all "${WINE:-wine}")
    why=$("$root/scripts/wine/can-run.sh" "$arch") || cannot_run=$why ;;
  *) echo "contrib test: unknown arch $arch" >&2; exit 2 ;;
esac
export UOANIM_TEST_ARCH=$arch
owned="Scr_BeginLoadAnimTrees Scr_EndLoadAnimTrees Scr_PrecacheAnimTrees script_activeAnimTreeHandle script_animCheckEnabled script_animCommentDepth script_animCurrentUsingTree script_animTreeChecksum xanim_activePoolPayloadSlot script_animTreeCounts script_animTrees script_animTreeHandles script_animTreeRoot script_animCurrentTreeRoot script_animParseStart script_animParseState script_loadAnimTreesActive script_codeEnd"
# the binary, its build file and the library variable its rule links with
declare -A label=(
  [game]="server game module (game.mk, SHARED_LIBS)"
  [game_windows]="game module of the client packages (game.mk CODUO_BEHAVIOR=windows, SHARED_LIBS)"
  [cgame]="client-game module (client-targets.mk, one-command rule)"
  [engine]="dedicated server (server.mk, ENGINE_IMPORT_LIBS)"
  [client]="multiplayer client (LDLIBS)")
declare -A linkvar=()
case "$arch" in
  *-windows)
    label=(
      [game]="game module uo_game_mp_x86.dll (game.mk windows-i686, WINDOWS_LIBS)"
      [game_windows]="game module of the client packages (game.mk $([ "$arch" = i686-windows ] && echo "windows-i686 CODUO_BEHAVIOR=windows" || echo windows-x86_64), WINDOWS_LIBS)"
      [cgame]="client-game module uo_cgame_mp_x86.dll (client-targets.mk $([ "$arch" = i686-windows ] && echo client-win32-abi-link || echo client-windows-cross-link), one-command rule)"
      [engine]="dedicated server coduo_dedicated_recovered.exe (server.mk windows-i686, WINDOWS_COMMON_LIBS)"
      [client]="client CoDUOMP.exe (client-engine-mingw.mk $([ "$arch" = i686-windows ] && echo mingw32 || echo mingw64), MINGW32_LIBS)")
    linkvar=([game]=WINDOWS_LIBS [game_windows]=WINDOWS_LIBS [engine]=WINDOWS_COMMON_LIBS [client]=MINGW32_LIBS) ;;
esac
status=0
for unit in $units; do
  lib=$root/dist/$arch/libuoanim_$unit.a
  work=$(mktemp -d)
  python3 "$here/gen_layout.py" "$unit" "$lib" "$root/docs/ABI.md" "$root/contrib/coduomp/uoanim.mk" "$work" ${linkvar[$unit]:+"${linkvar[$unit]}"} || { status=1; continue; }
  if ! make -s -C "$work" -f "build-mk/$unit.mk" CC=$cc M=$m CPPFLAGS="-I$root/include" >"$work/unswapped.log" 2>&1; then
    echo "contrib $arch $unit: the unswapped build does not link:"; tail -5 "$work/unswapped.log"; status=1; rm -rf "$work"; continue
  fi
  rm -rf "$work/obj" "$work/module.so"
  swapped=(make -s -C "$work" -f "build-mk/$unit.mk" CC=$cc M=$m CPPFLAGS="-I$root/include"
    UOANIM_MK="$root/contrib/coduomp/uoanim.mk" UOANIM_LIBDIR="$root/dist/$arch")
  "${swapped[@]}" >"$work/swapped.log" 2>&1
  rc=$?
  behaviour="behaviour not run"
  if [ "$rc" = 0 ]; then
    if ! "${swapped[@]}" behaviour >"$work/behaviour.log" 2>&1; then
      behaviour="behaviour FAILED (the program does not link: $(grep -E 'undefined reference|multiple definition|error' "$work/behaviour.log" | head -3 | tr '\n' ' '))"
      status=1
    elif [ -n "$cannot_run" ]; then
      behaviour="behaviour not run ($cannot_run)"
    elif out=$("${run[@]}" "$work/behaviour$exe" 2>&1 | tr -d '\r') && [ -n "$out" ] && [ "${out#behaviour FAILED}" = "$out" ]; then
      behaviour="behaviour ok ($out)"
    else
      behaviour="behaviour FAILED (${out:-no output})"
      status=1
    fi
  fi
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
          <(if [ -n "$tools" ]; then "${tools}objdump" -p "$work/module.so" | sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p' | awk '/^\t\[/{print $NF}'; else nm -D --defined-only "$work/module.so" | awk '{print $NF}'; fi | sort))
        if [ -n "$missing" ]; then
          echo "contrib $arch $unit: the swapped module lacks exports: $(echo $missing | head -c 300)"; status=1
        else
          echo "contrib: ${label[$unit]}, $arch: link ok (--no-undefined, unswapped and swapped; $(wc -l <"$root/dist/$arch/libuoanim_$unit.exports") exports from the unit), $behaviour"
        fi
      fi ;;
    engine|client)
      lib_defines=$("${tools}nm" -g --defined-only "$root/dist/$arch/libuoanim_$unit.a" 2>/dev/null | awk '{print $NF}' | sed "s/^$([ "$arch" = i686-windows ] && echo _)//" | sort -u)
      clash=$(for s in $owned; do echo "$lib_defines" | grep -qx "$s" && echo "$s"; done | tr '\n' ' ')
      if [ "$rc" != 0 ]; then
        echo "contrib $arch $unit: the swapped build does not link:"; grep -E 'undefined reference|multiple definition|error' "$work/swapped.log" | head -8; status=1
      elif [ -n "$clash" ]; then
        echo "contrib $arch $unit: the unit defines engine-owned symbols: $clash"; status=1
      else
        echo "contrib: ${label[$unit]}, $arch: link ok (--no-undefined, unswapped and swapped; the kept script_compile_load.c, script_value.c and storage define the 18 engine-owned symbols, the unit none), $behaviour"
      fi ;;
  esac
  rm -rf "$work"
done
exit $status
