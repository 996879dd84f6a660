#!/usr/bin/env bash
# run.sh ARCH "UNITS" -- contrib/coduomp/uoanim.mk against a miniature copy of
# the engine's build layout (gen_layout.py), for each unit (ARCH: x86_64,
# i686, x86_64-windows, i686-windows, darwin-arm64):
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
# darwin-arm64 (the engine's macOS arm64 rules): steps 1 to 3 with the
# dist/darwin-arm64/qemu builds (the same arithmetic for aarch64 Linux),
# clang and lld, the program run under qemu-aarch64; and 4. the Mach-O
# rule's link line, printed by make -n with UOANIM_ARCH=darwin-arm64 (no
# UOANIM_LIBDIR), names dist/darwin-arm64/libuoanim_UNIT.a and no replaced
# file.
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
cc=gcc tools= exe= run=() cannot_run= nmtool=nm libdir=$root/dist/$arch
case "$arch" in
  x86_64) m=-m64 ;;
  i686) m=-m32 ;;
  darwin-arm64)
    m= cc=$root/scripts/aarch64-cc.sh nmtool=aarch64-linux-gnu-nm libdir=$root/dist/darwin-arm64/qemu
    run=(qemu-aarch64 -L /usr/aarch64-linux-gnu) ;;
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
# the Mach-O rule of each binary (darwin-arm64)
declare -A macho_rule=(
  [game_windows]="game.mk native64-shared"
  [cgame]="client-targets.mk client-native-link"
  [engine]="server.mk native-macos-exe"
  [client]="client-targets.mk coduomp-native-link")
case "$arch" in
  darwin-arm64)
    label=(
      [game_windows]="game module uo_game_mp_arm64.dylib (game.mk native64-shared, SHARED_LIBS)"
      [cgame]="client-game module uo_cgame_mp_arm64.dylib (client-targets.mk client-native-link, one-command rule)"
      [engine]="dedicated server (server.mk native-macos-exe, ENGINE_IMPORT_LIBS)"
      [client]="client CoDUOMP (client-targets.mk coduomp-native-link, CODUOMP_NATIVE_PLATFORM_LIBS)")
    linkvar=([game_windows]=SHARED_LIBS [engine]=ENGINE_IMPORT_LIBS [client]=CODUOMP_NATIVE_PLATFORM_LIBS) ;;
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
  lib=$libdir/libuoanim_$unit.a
  work=$(mktemp -d)
  python3 "$here/gen_layout.py" "$unit" "$lib" "$root/docs/ABI.md" "$root/contrib/coduomp/uoanim.mk" "$work" ${linkvar[$unit]:+"${linkvar[$unit]}"} || { status=1; continue; }
  if ! make -s -C "$work" -f "build-mk/$unit.mk" CC=$cc M=$m CPPFLAGS="-I$root/include" >"$work/unswapped.log" 2>&1; then
    echo "contrib $arch $unit: the unswapped build does not link:"; tail -5 "$work/unswapped.log"; status=1; rm -rf "$work"; continue
  fi
  rm -rf "$work/obj" "$work/module.so"
  swapped=(make -s -C "$work" -f "build-mk/$unit.mk" CC=$cc M=$m CPPFLAGS="-I$root/include"
    UOANIM_MK="$root/contrib/coduomp/uoanim.mk" UOANIM_LIBDIR="$libdir")
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
  built_replaced_all=$(make -s -C "$work" -f "build-mk/$unit.mk" UOANIM_MK="$root/contrib/coduomp/uoanim.mk" \
    --eval 'print-all-replaced: ; @echo $(UOANIM_REPLACED)' print-all-replaced 2>/dev/null)
  built_replaced=$(make -s -C "$work" -f "build-mk/$unit.mk" UOANIM_MK="$root/contrib/coduomp/uoanim.mk" \
    --eval 'print-replaced: ; @for f in $(UOANIM_REPLACED); do [ ! -e obj/$${f%.c}.o ] || echo $$f; done' print-replaced 2>/dev/null)
  if [ -n "$built_replaced" ]; then
    echo "contrib $arch $unit: the swapped build compiled replaced files: $built_replaced"; status=1
  fi
  # the Mach-O rule's link line (make -n; no Mach-O linker here)
  macho=""
  if [ "$arch" = darwin-arm64 ]; then
    line=$(make -n -B -C "$work" -f "build-mk/$unit.mk" CC=cc M= UOANIM_MK="$root/contrib/coduomp/uoanim.mk" \
      UOANIM_ARCH=darwin-arm64 module.so 2>&1 | grep -- '-o module.so' | tail -1)
    macho_lib=$root/dist/darwin-arm64/libuoanim_$unit.a
    replaced_in_line=$(for f in $built_replaced_all; do case " $line " in *" obj/${f%.c}.o "*) echo "$f";; esac; done)
    if [ -z "$line" ] || [ "${line#*"$macho_lib"}" = "$line" ] || [ -n "$replaced_in_line" ]; then
      echo "contrib $arch $unit: the ${macho_rule[$unit]} link line does not take $macho_lib in place of the replaced files: ${line:-no line}${replaced_in_line:+ (links $replaced_in_line)}"; status=1
    else
      macho="; ${macho_rule[$unit]} (Mach-O): make -n links dist/darwin-arm64/libuoanim_$unit.a and none of the $(echo $built_replaced_all | wc -w) replaced files"
    fi
  fi
  case "$unit" in
    game|cgame|game_windows)
      if [ "$rc" != 0 ]; then
        echo "contrib $arch $unit: the swapped build does not link:"; tail -8 "$work/swapped.log"; status=1
      else
        missing=$(comm -23 <(sort "$libdir/libuoanim_$unit.exports") \
          <(if [ -n "$tools" ]; then "${tools}objdump" -p "$work/module.so" | sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p' | awk '/^\t\[/{print $NF}'; else "$nmtool" -D --defined-only "$work/module.so" | awk '{print $NF}'; fi | sort))
        if [ -n "$missing" ]; then
          echo "contrib $arch $unit: the swapped module lacks exports: $(echo $missing | head -c 300)"; status=1
        else
          echo "contrib: ${label[$unit]}, $arch: link ok (--no-undefined, unswapped and swapped; $(wc -l <"$libdir/libuoanim_$unit.exports") exports from the unit), $behaviour$macho"
        fi
      fi ;;
    engine|client)
      lib_defines=$("${tools:-${nmtool%nm}}nm" -g --defined-only "$libdir/libuoanim_$unit.a" 2>/dev/null | awk '{print $NF}' | sed "s/^$([ "$arch" = i686-windows ] && echo _)//" | sort -u)
      clash=$(for s in $owned; do echo "$lib_defines" | grep -qx "$s" && echo "$s"; done | tr '\n' ' ')
      if [ "$rc" != 0 ]; then
        echo "contrib $arch $unit: the swapped build does not link:"; grep -E 'undefined reference|multiple definition|error' "$work/swapped.log" | head -8; status=1
      elif [ -n "$clash" ]; then
        echo "contrib $arch $unit: the unit defines engine-owned symbols: $clash"; status=1
      else
        echo "contrib: ${label[$unit]}, $arch: link ok (--no-undefined, unswapped and swapped; the kept script_compile_load.c, script_value.c and storage define the 18 engine-owned symbols, the unit none), $behaviour$macho"
      fi ;;
  esac
  rm -rf "$work"
done
# build-mk/client-targets.mk links two units (the client-game module and,
# on macOS, the native client): uoanim.mk included twice in one file
if [ "$arch" = darwin-arm64 ]; then
  work=$(mktemp -d)
  cat >"$work/client-targets.mk" <<'MK'
CLIENT_SHARED_BG_C_SOURCES := src/bg/bg_animation_slots.c src/bg/bg_player_animation.c
UOANIM_UNIT := cgame
include $(UOANIM_MK)
CODUOMP_NATIVE_PLATFORM_LIBS := -framework OpenGL
SHARED_ANIMATION_C_SOURCES := src/animation/xanim_tree.c src/animation/xanim_runtime.c
SHARED_SCRIPT_C_SOURCES := src/scripting/script_anim_runtime.c src/scripting/script_value.c
UOANIM_UNIT := client
include $(UOANIM_MK)
print: ; @echo "$(CLIENT_SHARED_BG_C_SOURCES) | $(CODUOMP_NATIVE_PLATFORM_LIBS) | $(SHARED_ANIMATION_C_SOURCES) $(SHARED_SCRIPT_C_SOURCES)"
MK
  got=$(make -s -C "$work" -f client-targets.mk UOANIM_MK="$root/contrib/coduomp/uoanim.mk" UOANIM_ARCH=darwin-arm64 print)
  d=$root/dist/darwin-arm64
  want="src/bg/bg_player_animation.c $d/libuoanim_cgame.a | -framework OpenGL $d/libuoanim_client.a | src/animation/xanim_runtime.c src/scripting/script_value.c"
  if [ "$got" = "$want" ]; then
    echo "contrib: client-targets.mk with both units (uoanim.mk included twice), $arch: each rule takes its unit and keeps its other files"
  else
    echo "contrib $arch: uoanim.mk included twice gives '$got', not '$want'"; status=1
  fi
  rm -rf "$work"
fi
exit $status
