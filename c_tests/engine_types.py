#!/usr/bin/env python3
"""engine_types.py HEADER_DIR -- the UOANIM_ENGINE_TYPES option of the headers.

An engine defines the types the headers mirror itself, with its own struct
tags (`struct bg_anim_script_s`, `struct XAnim_s`, ...) and its own
`qboolean` (an enum). This writes such an engine header from the headers'
own type sections (every tag T renamed T_s, qboolean an enum), then compiles,
for both arches and every flavour macro, a C file that includes it and then
the four uoanim headers:

* with -DUOANIM_ENGINE_TYPES it must compile with -Wall -Wextra -Werror, and
  a call of each kind (a player-animation export with a table pointer, an
  animation-tree export with an XAnim pointer, a data symbol) type-checks
  against the engine's types;
* without it, it must fail (the headers would redefine the engine's types).
"""
import os
import re
import subprocess
import sys
import tempfile

BEGIN = "#if !defined(UOANIM_ENGINE_TYPES)"
END = "#endif /* !UOANIM_ENGINE_TYPES */"
HEADERS = ["uoanim_common.h", "uoanim_playeranim.h", "uoanim_animtree.h", "uoanim_action.h"]

USE = """
/* uses of the library's declarations with the engine's types */
void uses(bg_static_animation_table_t *table, XAnim *tree);
void uses(bg_static_animation_table_t *table, XAnim *tree)
{
    qboolean yes = qtrue;
    BG_SetupAnimNoteTypes(table);
    (void)XAnimGetNumChildren(tree, 0);
    (void)XAnimIsPrimitive(tree, 0);
    (void)yes;
    (void)script_animTreeChecksum;
}
"""


def engine_header(header_dir):
    sections = []
    for h in HEADERS:
        text = open(os.path.join(header_dir, h), encoding="utf-8").read()
        if BEGIN in text:
            sections.append(text.split(BEGIN, 1)[1].split(END, 1)[0])
    body = "\n".join(sections)
    tags = set(re.findall(r"\b(?:struct|union)\s+([A-Za-z_]\w*)\s*\{", body))
    for tag in sorted(tags, key=len, reverse=True):
        body = re.sub(r"\b(struct|union)\s+%s\b" % tag, r"\1 %s_s" % tag, body)
    body = body.replace("typedef int32_t qboolean;", "typedef enum { qfalse, qtrue } qboolean;")
    return ("/* an engine's own definitions of the types (other tags, an enum qboolean) */\n"
            "#include <stddef.h>\n#include <stdint.h>\n"
            "typedef struct XAnim_s XAnim;\n" + body)


def main():
    header_dir = sys.argv[1]
    work = tempfile.mkdtemp()
    with open(os.path.join(work, "engine.h"), "w", encoding="utf-8") as f:
        f.write(engine_header(header_dir))
    with open(os.path.join(work, "user.c"), "w", encoding="utf-8") as f:
        f.write('#include "engine.h"\n' + "".join('#include "%s"\n' % h for h in HEADERS) + USE)
    failed = 0
    checks = 0
    for arch in ("-m64", "-m32"):
        for flavour in ("UOANIM_FLAVOUR_GAME", "UOANIM_FLAVOUR_CGAME", "UOANIM_FLAVOUR_ENGINE", "UOANIM_FLAVOUR_CLIENT"):
            base = ["gcc", arch, "-std=gnu11", "-fsyntax-only", "-fno-short-enums", "-Wall", "-Wextra", "-Werror",
                    "-D" + flavour, "-I" + work, "-I" + header_dir, os.path.join(work, "user.c")]
            ok = subprocess.run(base + ["-DUOANIM_ENGINE_TYPES"], capture_output=True, text=True)
            checks += 1
            if ok.returncode != 0:
                failed += 1
                print("engine types %s %s: does not compile with UOANIM_ENGINE_TYPES:" % (arch, flavour))
                print("\n".join("  " + line for line in ok.stderr.splitlines()[:20]))
            bad = subprocess.run(base, capture_output=True, text=True)
            checks += 1
            if bad.returncode == 0:
                failed += 1
                print("engine types %s %s: compiles without UOANIM_ENGINE_TYPES (the headers should clash)" % (arch, flavour))
    print("engine types: %d checks, %d failed" % (checks, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
