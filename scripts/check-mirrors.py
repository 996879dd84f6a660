#!/usr/bin/env python3
"""check-mirrors.py [--cc CC] [--arches x86_64,i686] [--root DIR]

The differential drivers' private mirrors of the C types
(tests/parity/{pa,at,bg-rest}/layout.h, kept identical to the judge's)
against the generated headers (include/): for each mirrored type, the
header type it mirrors (MIRRORS below), and in it every field the two
name alike, the same offset; for a mirror of the whole type, the same
size. Two C programs print the numbers, one over layout.h, one over
include/, built for each arch with the C compiler; the check compares
them; where the judge's suites are (../shared/difftest), each layout.h
equals the judge's byte for byte. Exits 1 on a difference, or when a mirrored type or the fields it
shares come to nothing (a renamed type would otherwise pass unseen).
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# suite -> (layout.h macros, [(mirror type, header type, whole type?)])
MIRRORS = {
    "pa": ([], [
        ("pam_indexed_string", "bg_indexed_string_t", True),
        ("pam_condition", "bg_anim_condition_t", True),
        ("pam_command", "bg_anim_script_command_t", True),
        ("pam_script", "bg_anim_script_t", True),
        ("pam_list", "bg_anim_script_list_t", True),
        ("pam_entry", "bg_static_animation_t", True),
        ("pam_scr_anim", "scr_anim_t", True),
        ("pam_runtime", "bg_runtime_animation_t", True),
        ("pam_table", "bg_static_animation_table_t", True),
        ("pam_client_info", "clientInfo_t", True),
        ("pam_bgs", "bgs_t", True),
        ("pam_player_state", "playerState_t", True),
        ("pam_weapon_info", "weaponInfo_t", False),
    ]),
    "at": ([], [
        ("xanim_notetrack_t", "xanim_notetrack_t", True),
        ("XAnimParts", "XAnimParts", True),
        ("fileData_t", "fileData_t", True),
        ("XAnimEntry", "XAnimEntry", True),
        ("XAnim", "XAnim", True),
        ("XAnimTree", "XAnimTree", True),
        ("scr_anim_t", "scr_anim_t", True),
        ("script_anim_tree_ref_t", "script_anim_tree_ref_t", True),
    ]),
    "bg-rest": ([], [
        ("bgr_entry", "bg_static_animation_t", True),
        ("bgr_scr_anim", "scr_anim_t", True),
        ("bgr_client_info", "clientInfo_t", True),
        ("bgr_bgs", "bgs_t", True),
        ("bgr_player_state", "playerState_t", True),
        ("bgr_entity_state", "entityState_t", True),
        ("struct bgr_slot", "bg_anim_slot_t", True),
        ("bgr_usercmd", "usercmd_t", False),
        ("bgr_pmove", "pmove_t", False),
        ("bgr_weapon_info", "weaponInfo_t", False),
    ]),
}

# A mirror's field under another name in the header (a nested member
# designator where the mirror flattens a nested record).
RENAMES = {
    "pam_table.animTreeHandle": "animTree",
    "bgr_client_info.viewPitchBits": "viewPitch",
    "bgr_bgs.entries": "animationTable.entries",
    "bgr_bgs.entryCount": "animationTable.entryCount",
    "bgr_bgs.resolved": "resolvedTorsoAnimHandle",
    "bgr_bgs.handles": "rootAnimHandle",
    "bgr_player_state.viewAnglesBits": "viewAngles",
    "bgr_entity_state.trBaseBits": "trBase",
    # the mirror's names[0] is the header's pickupName, its names[1..] the
    # header's names
    "bgr_weapon_info.names": "pickupName",
}

HEADERS = ["uoanim_common.h", "uoanim_playeranim.h", "uoanim_animtree.h"]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def body_end(text, open_at):
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def members(body):
    """The names a struct body declares at its top level (a nested
    struct or union by its member name)."""
    flat, i = "", 0
    while i < len(body):
        if body[i] == "{":
            end = body_end(body, i)
            flat += " "
            i = end + 1
        else:
            flat += body[i]
            i += 1
    names = []
    for decl in flat.split(";"):
        decl = re.sub(r"\s+", " ", decl).strip()
        if not decl or decl.startswith("#"):
            continue
        pointer = re.search(r"\(\s*\*\s*(\w+)\s*\)", decl)
        if pointer:
            names.append(pointer.group(1))
            continue
        decl = re.sub(r"\[[^\]]*\]", "", decl)
        parts = decl.split(",")
        first = re.findall(r"\w+", parts[0])
        if len(first) >= 2:
            names.append(first[-1])
        names += [re.findall(r"\w+", p)[-1] for p in parts[1:] if re.findall(r"\w+", p)]
    return names


def structs(text):
    """type name -> member names, for `typedef struct T {...} N;` (both T
    and N) and `struct T {...};`."""
    text = strip_comments(text)
    out = {}
    forward = re.findall(r"\btypedef\s+struct\s+(\w+)\s+(\w+)\s*;", text)
    for m in re.finditer(r"\b(typedef\s+)?(?:struct|union)\s+(\w+)?\s*\{", text):
        end = body_end(text, m.end() - 1)
        names = members(text[m.end():end])
        if m.group(2):
            out.setdefault(m.group(2), names)
        if m.group(1):
            after = re.match(r"\s*(\w+)\s*;", text[end + 1:])
            if after:
                out[after.group(1)] = names
    for tag, name in forward:
        if tag in out:
            out.setdefault(name, out[tag])
    return out


SKIP = re.compile(r"^(opaque|padding|pad|reserved|rest|tail|slots|unused)", re.I)


def program(includes, defines, rows):
    lines = ["#include <stdio.h>", "#include <stddef.h>", *[f"#define {d}" for d in defines], *[f'#include "{h}"' for h in includes], "int main(void) {"]
    for key, typ, field in rows:
        what = f"offsetof({typ}, {field})" if field else f"sizeof({typ})"
        lines.append(f'    printf("%s %zu\\n", "{key}", (size_t)({what}));')
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--arches", default="x86_64,i686")
    ap.add_argument("--root", default=str(ROOT), help="the tree holding include/ and tests/parity/ (a test's copy)")
    ap.add_argument("--judge", default=str(ROOT.parent / "shared" / "difftest"), help="the judge's suites, whose layout.h files ours equal (checked when there)")
    args = ap.parse_args()
    root = pathlib.Path(args.root)
    judge = pathlib.Path(args.judge)
    public = {}
    for h in HEADERS:
        public.update(structs((root / "include" / h).read_text(encoding="utf-8")))
    problems, plans = [], []
    for suite, (defines, pairs) in MIRRORS.items():
        layout = root / "tests/parity" / suite / "layout.h"
        mirror = structs(layout.read_text(encoding="utf-8"))
        mine, theirs = [], []
        for mtype, htype, whole in pairs:
            mname = mtype.split()[-1]  # a tag's type is `struct TAG`
            if mname not in mirror or htype not in public:
                problems.append(f"{suite}: {mtype} -> {htype}: {'the mirror' if mname not in mirror else 'the header'} has no such type")
                continue
            shared = []
            for f in mirror[mname]:
                h = RENAMES.get(f"{mname}.{f}", f)
                if h.split(".")[0] in public[htype] and not SKIP.match(f):
                    shared.append((f, h))
            if not shared:
                problems.append(f"{suite}: {mtype} -> {htype}: no field named alike")
            for f, h in shared:
                mine.append((f"{mname}.{f}", mtype, f))
                theirs.append((f"{mname}.{f}", htype, h))
            if whole:
                mine.append((f"sizeof {mname}", mtype, None))
                theirs.append((f"sizeof {mname}", htype, None))
        plans.append((suite, layout, defines, mine, theirs))
    for suite in MIRRORS:
        theirs_file = judge / suite / "layout.h"
        if not theirs_file.exists():
            print(f"mirrors: {suite}: no judge's layout.h to compare with ({theirs_file} is not there)")
        elif theirs_file.read_bytes() != (root / "tests/parity" / suite / "layout.h").read_bytes():
            problems.append(f"{suite}: tests/parity/{suite}/layout.h differs from the judge's")
        else:
            print(f"mirrors: {suite}: layout.h identical to the judge's")
    for p in problems:
        print(f"mirrors: {p}")
    counts = {}
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        for arch in args.arches.split(","):
            flag = {"x86_64": "-m64", "i686": "-m32"}[arch]
            for suite, layout, defines, mine, theirs in plans:
                results = []
                for name, src, inc in [("mirror", program(["layout.h"], defines, mine), layout.parent), ("include", program(HEADERS, [], theirs), root / "include")]:
                    c = work / f"{suite}-{name}-{arch}.c"
                    exe = work / f"{suite}-{name}-{arch}"
                    c.write_text(src)
                    build = subprocess.run([args.cc, flag, "-std=gnu11", "-w", "-I", str(inc), "-o", str(exe), str(c)], capture_output=True, text=True)
                    if build.returncode:
                        problems.append(f"{suite} ({arch}): the {name} program does not build:\n{build.stderr}")
                        results.append({})
                        continue
                    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
                    results.append(dict(line.rsplit(" ", 1) for line in out.splitlines()))
                a, b = results
                for key in a:
                    if key in b and a[key] != b[key]:
                        problems.append(f"{suite} ({arch}): {key}: the mirror says {a[key]}, include/ {b[key]}")
                counts[(suite, arch)] = len(a)
    for (suite, arch), n in counts.items():
        print(f"mirrors: {suite} {arch}: {n} offsets and sizes agree with include/" if not any(p.startswith(f"{suite} ({arch})") for p in problems) else f"mirrors: {suite} {arch}: differences")
    for p in problems:
        if "(" in p.split(":")[0]:
            print(f"mirrors: {p}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
