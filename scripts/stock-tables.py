#!/usr/bin/env python3
"""stock-tables.py [STOCK_DIR]

Writes cli/src/stock_tables.rs: the names of stock United Offensive
multiplayer, as tables the tool builds in, from a folder holding the
game's `multiplayer.atr` (animtrees/) and `weapons_mp.txt` (the names of
the files of weapons/mp/, one a line). Default STOCK_DIR:
../shared/difftest/pa/stock (beside the repository). When the folder also
holds `stock_tree.inc` (the differential suites' node list of the same
tree), the tree read here is checked against it.

Only names and their places are written (the tree's structure, its block
flags and the body part each name's prefix gives), never the files.

The weapons are written in the order the game numbers them: the game
module sorts the names of weapons/mp/ with Q_stricmp (BG_SetupWeaponInfo),
ASCII letters folded to upper case, bytes compared as signed chars.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "cli", "src", "stock_tables.rs")
FLAGS = ("loopsync", "nonloopsync", "complete")


def tokens(text):
    """The tokens of an .atr text as the engine's tokenizer cuts it: white
    space is every byte whose signed value is at most 32; `//` and `/* */`
    comments. Each token with whether a line break precedes it."""
    out, i, newline = [], 0, True
    n = len(text)
    while i < n:
        b = text[i]
        if b == 0x0A:
            newline = True
            i += 1
        elif b <= 32 or b >= 0x80:
            i += 1
        elif text.startswith(b"//", i):
            while i < n and text[i] != 0x0A:
                i += 1
        elif text.startswith(b"/*", i):
            end = text.find(b"*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            s = i
            while i < n and 32 < text[i] < 0x80:
                i += 1
            out.append((text[s:i].decode("ascii"), newline))
            newline = False
    return out


def tree(text):
    """[(name, parent index or None, [flags])] in file order."""
    nodes, stack, last, in_flags = [], [], None, False
    for tok, newline in tokens(text):
        if newline:
            in_flags = False
        if tok == "{":
            if last is None:
                sys.exit("stock-tables.py: a '{' with no name before it")
            stack.append(last)
            last = None
        elif tok == "}":
            stack.pop()
            last = None
        elif tok == ":":
            in_flags = True
        elif in_flags:
            if tok.lower() not in FLAGS:
                sys.exit(f"stock-tables.py: unknown flag {tok!r}")
            nodes[last][2].append(tok.lower())
        else:
            nodes.append((tok, stack[-1] if stack else None, []))
            last = len(nodes) - 1
    if stack:
        sys.exit("stock-tables.py: a '{' is never closed")
    return nodes


def part(nodes, i):
    """The body part of name i: the tree's naming convention (its header:
    pt_ torso only, pl_ legs only, pb_ both; after an optional c_), else
    Torso for a name under the `torso` block of `main`, else Unknown."""
    n = nodes[i][0].lower()
    if n.startswith("c_"):
        n = n[2:]
    by_name = {"pb_": "Both", "pl_": "Legs", "pt_": "Torso"}.get(n[:3])
    if by_name:
        return by_name
    up = [i]
    while nodes[up[-1]][1] is not None:
        up.append(nodes[up[-1]][1])
    names = [nodes[j][0].lower() for j in reversed(up)]
    if len(names) > 2 and names[:2] == ["main", "torso"]:
        return "Torso"
    return "Unknown"


def stricmp_key(name):
    """Q_stricmp's order: signed bytes, 'a'..'z' folded to upper case, the
    terminating zero compared too."""
    key = []
    for b in name.encode("latin-1"):
        c = b - 256 if b >= 128 else b
        if ord("a") <= c <= ord("z"):
            c -= 32
        key.append(c)
    return tuple(key) + (0,)


def main():
    stock = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "difftest", "pa", "stock")
    with open(os.path.join(stock, "multiplayer.atr"), "rb") as f:
        nodes = tree(f.read())
    with open(os.path.join(stock, "weapons_mp.txt"), encoding="latin-1") as f:
        weapons = [w.strip() for w in f if w.strip()]
    parents = {p for _, p, _ in nodes if p is not None}
    inc = os.path.join(stock, "stock_tree.inc")
    if os.path.exists(inc):
        want = []
        with open(inc) as f:
            for line in f:
                w = line.split()
                if w and w[0] in ("node", "synth"):
                    want.append((w[1], w[0] == "synth"))
        got = [("root", False)] + [(n, i not in parents) for i, (n, _, _) in enumerate(nodes)]
        if got != want:
            sys.exit("stock-tables.py: the tree read differs from stock_tree.inc")
    weapons.sort(key=stricmp_key)
    keys = [stricmp_key(w) for w in weapons]
    if len(set(keys)) != len(keys):
        sys.exit("stock-tables.py: two weapon names differ only in case")

    out = [
        "// Generated by scripts/stock-tables.py from the stock multiplayer tree",
        "// (animtrees/multiplayer.atr) and the weapon files' names (weapons/mp/) of",
        "// Call of Duty: United Offensive: names and their places only. Do not edit.",
        "",
        "/// The stock weapon names, weapon 1 first (the module adds `none` as 0), in",
        "/// the game's order: `BG_SetupWeaponInfo` sorts the names of `weapons/mp/`",
        "/// with `Q_stricmp` (case ignored).",
        "pub const UO_MP_WEAPONS: &[&str] = &[",
    ]
    out += [f'    "{w}",' for w in weapons]
    out += [
        "];",
        "",
        "/// The stock multiplayer tree, every name in file order: its parent (an",
        "/// index into this table), whether it is a leaf, its block flags and the",
        "/// body part it plays on where the tree says (its name's prefix, or the",
        "/// `torso` block).",
        "pub const UO_MP_TREE: &[StockNode] = &[",
    ]
    for i, (name, parent, flags) in enumerate(nodes):
        p = "None" if parent is None else f"Some({parent})"
        fl = ", ".join(f'"{x}"' for x in flags)
        leaf = "false" if i in parents else "true"
        out.append(f'    StockNode {{ name: "{name}", parent: {p}, leaf: {leaf}, flags: &[{fl}], part: Part::{part(nodes, i)} }},')
    out.append("];")
    with open(OUT, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"stock-tables.py: {len(weapons)} weapons, {len(nodes)} tree names -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
