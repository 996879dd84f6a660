#!/usr/bin/env python3
"""gen_layout.py UNIT LIB ABI_MD UOANIM_MK OUT [LINK_VAR]

The environment's UOANIM_TEST_ARCH (x86_64, i686, x86_64-windows,
i686-windows, darwin-arm64: LIB is then the aarch64 ELF build of the macOS
rules; default x86_64) says how to read LIB (the mingw nm and the i686 COFF
underscore for the Windows targets); LINK_VAR overrides the
library variable the target links with.

Writes into OUT a miniature copy of the engine's build layout for the binary
that UNIT (game, cgame, engine, client) replaces C files of:

* build-mk/sources/common.mk and build-mk/<unit>.mk, shaped like the
  engine's (the same variable names; the module's files and the
  subsystem's LAYOUT_* list copied into the variable the target links from,
  then `UOANIM_MK` included when set, then the objects and a shared-object
  link with -Wl,--no-undefined);
* uoanim_check/behaviour.c (behaviour_engine.c for engine and client,
  behaviour_module.c for game and cgame) and a `behaviour` rule that links
  it with the same objects and the same library variable as the target;
* stand-in C files under their real names: the files the unit replaces
  (together they define every symbol the unit exports, except those the
  engine keeps in other files), the kept files of the same subsystem, the
  module file that calls every export, and the engine files that define the
  unit's imports (functions and data, as docs/ABI.md lists them; engine,
  client: the services the tree load uses are engine_services.c, the
  others empty).

The symbols come from the built unit (its exports: nm; its imports: nm -u,
less the C library's) so the layout follows the library.
"""
import os
import re
import subprocess
import sys

# per unit: module sources variable, subsystem list, the variable the target
# copies it into, the module's own files, kept subsystem files with symbols of
# their own, and exports the engine defines in kept files (file -> symbols)
UNITS = {
    "game": dict(
        module_var="GAME_C_SOURCES",
        module_files=["src/server/game/animation.c", "src/server/game/syscall_veneers.c",
                      "src/server/game/game_globals.c"],
        layout_var="LAYOUT_BG_C_SOURCES", copy_var="BG_SRCS", replaced_var="UOANIM_PLAYERANIM_REPLACED",
        kept={
            "src/bg/bg_player_animation.c": ["BG_PlayerAnimation"],
            "src/bg/bg_pmove_core.c": ["PmoveSingle"],
        },
        engine_defined={},
    ),
    "engine": dict(
        module_var="SERVER_ENGINE_C_SOURCES",
        module_files=["src/server/engine/server_game_bridge.c", "src/qcommon/com_memory.c",
                      "src/server/standalone/engine_global_storage.c"],
        layout_var="LAYOUT_ANIMATION_C_SOURCES LAYOUT_SCRIPT_C_SOURCES", copy_var="",
        replaced_var="UOANIM_ANIMTREE_REPLACED",
        kept={
            "src/animation/xanim_tree_clear.c": ["XAnimClearTree"],
            "src/animation/xanim_runtime.c": ["XAnimCalc"],
            "src/scripting/script_compile_load.c": ["Scr_BeginLoadScripts", "Scr_LoadScript", "Scr_EndLoadScripts"],
        },
        engine_defined={},
        engine_code={
            "src/scripting/script_compile_load.c": "LOAD",
            "src/server/standalone/engine_global_storage.c": "STORAGE",
            "src/scripting/script_value.c": "READERS",
        },
    ),
}
UNITS["cgame"] = dict(UNITS["game"], module_var="CGAME_C_SOURCES",
                      module_files=["src/client/cgame/cg_players.c", "src/client/cgame/cg_syscalls.c",
                                    "src/client/cgame/cg_main.c"],
                      copy_var="CLIENT_SHARED_BG_C_SOURCES")
# the game module as the client packages build it: the game module's layout
UNITS["game_windows"] = dict(UNITS["game"])
UNITS["client"] = dict(UNITS["engine"], module_var="CLIENT_ENGINE_C_SOURCES",
                       module_files=["src/client/engine/cl_cgame.c", "src/qcommon/com_memory.c",
                                     "src/client/engine/scripting/script_global_storage.c"],
                       engine_code={
                           "src/scripting/script_compile_load.c": "LOAD",
                           "src/client/engine/scripting/script_global_storage.c": "STORAGE",
                           "src/scripting/script_value.c": "READERS",
                       })

# The engine's definitions around the animation-tree units, as its kept files
# have them (names and types; the bodies do what the engine's do, written for
# this test): the script-state storage, the three load functions of
# script_compile_load.c (which call into the unit) and the readers of
# script_value.c (which read the tree row the unit fills).
ENGINE_OWNED_DATA = [
    ("int32_t", "script_activeAnimTreeHandle", ""), ("int32_t", "script_animCheckEnabled", ""),
    ("int32_t", "script_animCommentDepth", ""), ("uint16_t", "script_animCurrentUsingTree", ""),
    ("uint32_t", "script_animTreeChecksum", ""), ("int32_t", "xanim_activePoolPayloadSlot", ""),
    ("int32_t", "script_animTreeCounts", "[2]"), ("void *", "script_animTrees", "[2][128]"),
    ("uint16_t", "script_animTreeHandles", "[2][128]"), ("uint16_t", "script_animTreeRoot", ""),
    ("uint16_t", "script_animCurrentTreeRoot", ""), ("const char *", "script_animParseStart", ""),
    ("char *", "script_animParseState", ""), ("uint8_t", "script_loadAnimTreesActive", ""),
    ("uint8_t *", "script_codeEnd", ""),
]
ENGINE_CODE = {
    "STORAGE": "#include <stdint.h>\n" + "\n".join("%s %s%s;" % d for d in ENGINE_OWNED_DATA),
    "LOAD": """#include <stdint.h>
#include <stddef.h>
extern int32_t xanim_activePoolPayloadSlot, script_animTreeCounts[2];
extern void *script_animTrees[2][128];
extern uint16_t script_animTreeRoot, script_animCurrentTreeRoot;
extern uint8_t script_loadAnimTreesActive, *script_codeEnd;
void coduo_script_compat_anim_release_unresolved_ref_sidecars(void);
void Scr_LoadAnimTreeAtIndex(int32_t treeIndex, void *(*allocCallback)(size_t));
static uint16_t next_object = 1;
static uint8_t low_hunk[16];
void Scr_BeginLoadAnimTrees(void)
{
    int32_t slot = xanim_activePoolPayloadSlot;
    coduo_script_compat_anim_release_unresolved_ref_sidecars();
    script_loadAnimTreesActive = 1;
    script_animTreeCounts[slot] = 0;
    script_animTrees[slot][0] = NULL;
    script_animTreeRoot = next_object++;
    script_animCurrentTreeRoot = 0;
}
void Scr_PrecacheAnimTrees(void *(*allocCallback)(size_t))
{
    for (int32_t i = 1; i <= script_animTreeCounts[xanim_activePoolPayloadSlot]; i++)
        Scr_LoadAnimTreeAtIndex(i, allocCallback);
}
void Scr_EndLoadAnimTrees(void)
{
    script_loadAnimTreesActive = 0;
    coduo_script_compat_anim_release_unresolved_ref_sidecars();
    script_animTreeRoot = 0;
    script_codeEnd = low_hunk;
}""",
    "READERS": """#include <stdint.h>
#include <stddef.h>
extern int32_t xanim_activePoolPayloadSlot, script_animTreeCounts[2];
extern void *script_animTrees[2][128];
uint32_t Scr_GetAnimsIndex(const void *tree)
{
    int32_t slot = xanim_activePoolPayloadSlot;
    for (int32_t i = script_animTreeCounts[slot]; i > 0; i--)
        if (i < 128 && script_animTrees[slot][i] == tree)
            return (uint32_t)i;
    return 0;
}
void *Scr_GetAnims(uint32_t index)
{
    return index < 128 ? script_animTrees[xanim_activePoolPayloadSlot][index] : NULL;
}
/* Scr_GetAnimTree's check of the tree index an #animtree argument holds
 * (here the index itself; NULL is the engine's "bad anim tree") */
void *Scr_GetAnimTree(uint32_t treeIndex)
{
    int32_t slot = xanim_activePoolPayloadSlot;
    if (treeIndex <= (uint32_t)script_animTreeCounts[slot] && treeIndex < 128 && script_animTrees[slot][treeIndex])
        return script_animTrees[slot][treeIndex];
    return NULL;
}""",
}


ARCH = os.environ.get("UOANIM_TEST_ARCH", "x86_64")
NM = {"x86_64-windows": "x86_64-w64-mingw32-nm", "i686-windows": "i686-w64-mingw32-nm",
      "darwin-arm64": "aarch64-linux-gnu-nm"}.get(ARCH, "nm")
CPREFIX = "_" if ARCH == "i686-windows" else ""


def nm(args, lib):
    out = subprocess.run([NM, *args, lib], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if not parts or line.endswith(":"):
            continue
        name = parts[-1]
        if CPREFIX:
            if not name.startswith(CPREFIX):
                continue
            name = name[len(CPREFIX):]
        if not re.match(r"^[A-Za-z_]\w*$", name) or name.startswith("__imp_"):
            continue
        rows.append(parts[:-1] + [name])
    return rows


def libc_symbols():
    names = set()
    for lib in ("libc.so.6", "libm.so.6"):
        path = subprocess.run(["gcc", "-print-file-name=" + lib], capture_output=True, text=True).stdout.strip()
        out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True).stdout
        names.update(line.split()[-1].split("@")[0] for line in out.splitlines() if line.split())
    return names


def abi_kinds(path):
    kinds = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^\|\s*`(\w+)`\s*\|[^|]*\|\s*(function|data)\s*\|", line)
        if m:
            kinds[m.group(1)] = m.group(2)
    return kinds


def replaced_files(mk, var):
    text = open(mk, encoding="utf-8").read()
    m = re.search(r"^%s := (.*?)(?:\n(?!\t)|\Z)" % var, text, re.M | re.S)
    body = m.group(1).replace("\\\n", " ")
    prefix = re.match(r"\$\(addprefix ([^,]+),(.*)\)\s*$", body.strip(), re.S)
    if prefix:
        return [prefix.group(1) + f for f in prefix.group(2).split()]
    return body.split()


def main():
    unit, lib, abi, mk, out = sys.argv[1:6]
    link_override = sys.argv[6] if len(sys.argv) > 6 else None
    spec = UNITS[unit]
    defined = {}
    for parts in nm(["-g", "--defined-only", "-S"], lib):
        name, kind = parts[-1], parts[-2]
        size = int(parts[1], 16) if len(parts) == 4 else 4
        defined[name] = ("function" if kind in "Tt" else "data", max(size, 1))
    libc = libc_symbols()
    kinds = abi_kinds(abi)
    imports = sorted({p[-1] for p in nm(["-u"], lib) if p[-2] == "U"} - libc - set(defined) - {"_GLOBAL_OFFSET_TABLE_"})
    replaced = replaced_files(mk, spec["replaced_var"])
    engine_defined = {s for syms in spec["engine_defined"].values() for s in syms}
    files = {}  # path -> list of C lines

    def define(path, name, kind, size=4):
        files.setdefault(path, [])
        files[path].append("char %s[%d];" % (name, size) if kind == "data" else "void %s(void) {}" % name)

    exports = sorted(s for s in defined if s not in engine_defined)
    for i, name in enumerate(exports):
        define(replaced[i % len(replaced)], name, *defined[name])
    for path in replaced:
        files.setdefault(path, [])
    for path, syms in spec["engine_defined"].items():
        for name in syms:
            define(path, name, *defined.get(name, ("function", 4)))
    calls = sorted(s for s in defined if defined[s][0] == "function")
    datas = sorted(s for s in defined if defined[s][0] == "data")
    for path, syms in spec["kept"].items():
        for name in syms:
            define(path, name, "function")
        # a kept file of the subsystem calls into the replaced code
        files[path].append("void %s(void);\nvoid %s_uses(void) { %s(); }" % (calls[0], syms[0], calls[0]))
    caller, services, storage = spec["module_files"]
    files.setdefault(caller, []).append(
        "\n".join("void %s(void);" % s for s in calls) + "\n" +
        "\n".join("extern char %s[];" % s for s in datas) + "\n" +
        "void *uoanim_standin_uses[] = {\n" + ",\n".join("    (void *)%s" % s for s in calls + datas) + "\n};")
    owned = {d[1] for d in ENGINE_OWNED_DATA}
    here = os.path.dirname(os.path.abspath(__file__))
    served = set()
    if spec.get("engine_code"):
        text = open(os.path.join(here, "engine_services.c"), encoding="utf-8").read()
        # the services every C test shares, written in (the engine's tree has no c_tests/)
        shared = os.path.join(here, "..", "..", "..", "c_tests")
        for header in ("engine_services.h", "engine_strings.h"):
            with open(os.path.join(shared, header), encoding="utf-8") as f:
                text = text.replace('#include "%s"\n' % header, f.read())
        served = set(re.findall(r"^(?!static)[A-Za-z_][\w \t\*]*?\b(\w+)\(", text, re.M))
        files.setdefault(services, []).append(text)
    program = "behaviour_engine.c" if spec.get("engine_code") else "behaviour_module.c"
    os.makedirs(os.path.join(out, "uoanim_check"), exist_ok=True)
    with open(os.path.join(out, "uoanim_check/behaviour.c"), "w", encoding="utf-8") as f:
        f.write(open(os.path.join(here, program), encoding="utf-8").read())
    for path, code in spec.get("engine_code", {}).items():
        files.setdefault(path, []).append(ENGINE_CODE[code])
    for name in imports:
        if (name in owned and spec.get("engine_code")) or name in served:
            continue
        kind = kinds.get(name, "function")
        define(storage if kind == "data" else services, name, kind, 1 << 16)
    for path, lines in files.items():
        full = os.path.join(out, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write("/* stand-in for the engine's %s (its name and symbols, not its code) */\n" % path)
            f.write("\n".join(lines) + "\n")
    module = spec["module_files"]
    layout_vars = spec["layout_var"].split()
    layout = [p for p in files if p not in module]
    os.makedirs(os.path.join(out, "build-mk/sources"), exist_ok=True)
    prefixes = {"LAYOUT_BG_C_SOURCES": "src/bg/", "LAYOUT_ANIMATION_C_SOURCES": "src/animation/",
                "LAYOUT_SCRIPT_C_SOURCES": "src/scripting/"}
    with open(os.path.join(out, "build-mk/sources/common.mk"), "w", encoding="utf-8") as f:
        for var in layout_vars:
            mine = sorted(p for p in layout if p.startswith(prefixes[var]))
            f.write("%s := \\\n\t%s\n\n" % (var, " \\\n\t".join(mine)))
        f.write("%s := \\\n\t%s\n" % (spec["module_var"], " \\\n\t".join(module)))
    copy = spec["copy_var"]
    with open(os.path.join(out, "build-mk/%s.mk" % unit), "w", encoding="utf-8") as f:
        f.write("include build-mk/sources/common.mk\n")
        if copy:
            f.write("%s := $(%s)\n" % (copy, layout_vars[0]))
        else:
            f.write("SRCS = $(%s) %s\n" % (spec["module_var"], " ".join("$(%s)" % v for v in layout_vars)))
        # the library variable the engine's build file links with (cgame: none,
        # the archive goes with the sources into the one-command rule)
        link_var = {"game": "SHARED_LIBS", "game_windows": "SHARED_LIBS", "cgame": "", "engine": "ENGINE_IMPORT_LIBS", "client": "LDLIBS"}[unit]
        if link_override is not None:
            link_var = link_override
        if link_var:
            f.write("%s ?= -lm\n" % link_var)
        f.write("ifdef UOANIM_MK\nUOANIM_UNIT := %s\ninclude $(UOANIM_MK)\nendif\n" % unit)
        if copy:
            f.write("SRCS := $(%s) $(%s)\n" % (spec["module_var"], copy))
        libs = "$(%s)" % link_var if link_var else "-lm"
        f.write("OBJS := $(patsubst %%.c,obj/%%.o,$(SRCS))\n"
                "module.so: $(OBJS)\n\t$(CC) $(M) -shared -Wl,--no-undefined -o $@ $(OBJS) %s\n"
                "behaviour: obj/uoanim_check/behaviour.o $(OBJS)\n"
                "\t$(CC) $(M) -Wl,--no-undefined -o $@ obj/uoanim_check/behaviour.o $(OBJS) %s\n"
                "obj/%%.o: %%.c\n\t@mkdir -p $(dir $@)\n\t$(CC) $(M) $(CPPFLAGS) -fPIC -c $< -o $@\n" % (libs, libs))


if __name__ == "__main__":
    main()
