#!/usr/bin/env python3
"""check-boundary.py [FLAVOUR ...] — the boundary rules of docs/ABI.md,
checked on what the compiler made of the sources.

For each flavour (default: game cgame game_windows engine client) the library is compiled
for x86_64 Linux at opt-level 0 (nothing inlined, so every call the source
makes is a relocation in the object) into one object, and its relocations
are read as a graph: a function or data section points at every symbol it
calls or takes the address of. Then:

1. No export reaches another. From the code of an exported function
   (a `#[no_mangle]` function with a C name), following calls and
   addresses through any function or data of the library, no other exported
   function is reached. The bodies of the assembly entry points
   (`uoanim_internal_*`, which the C-variadic `BG_AnimParseError` and
   `XAnimGetLength` jump to) are reached from their assembly only.
2. One way to the engine's error functions. `Com_Error`, `CompileError`
   and `CompileError2` are referenced by `ffi::raise::raise` alone, and
   `raise` by `ffi::raise_cold` alone, which the guard calls once the
   export's body has returned.

Needs cargo, the x86_64-unknown-linux-gnu target and binutils (nm,
objdump). Exits 1 when a rule is broken.
"""
import collections
import pathlib
import re
import subprocess
import sys

FLAVOURS = ("game", "cgame", "game_windows", "engine", "client")
ERROR_FUNCTIONS = ("Com_Error", "G_Error", "CompileError", "CompileError2")
ASM_BODY = "uoanim_internal_"
RELOC = re.compile(r"^[0-9a-f]+\s+(R_X86_64_\w+)\s+(\S+)$")
SECTION = re.compile(r"^RELOCATION RECORDS FOR \[(.*)\]:$")
SYMBOL = re.compile(r"^[0-9a-f]+\s+(\S+)\s+(?:\S+\s+)?(\S+)\s+[0-9a-f]+\s+(\S+)$")
HASH = re.compile(r"17h[0-9a-f]{16}E$")


def run(*cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True).stdout


def readable(section):
    """A section name as a Rust path (for messages)."""
    name = section[len(".text."):] if section.startswith(".text.") else section
    if not name.startswith("_ZN"):
        return name
    name = HASH.sub("", name[3:])
    parts = []
    while name and name[0].isdigit():
        m = re.match(r"(\d+)", name)
        n = int(m.group(1))
        start = m.end()
        parts.append(name[start:start + n])
        name = name[start + n:]
    path = "::".join(parts)
    return path.replace("$u7b$", "{").replace("$u7d$", "}").replace("$LT$", "<").replace("$GT$", ">")


class Object:
    def __init__(self, path):
        self.section_of = {}
        self.exports = set()
        for line in run("objdump", "-tw", str(path)).splitlines():
            m = SYMBOL.match(line)
            if not m:
                continue
            _, section, name = m.groups()
            self.section_of[name] = section
        for line in run("nm", "--defined-only", str(path)).splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[1] == "T" and not fields[2].startswith(("_ZN", "_R")):
                self.exports.add(fields[2])
        self.edges = collections.defaultdict(set)
        current = None
        for line in run("objdump", "-rw", str(path)).splitlines():
            m = SECTION.match(line)
            if m:
                current = m.group(1)
                if current.startswith((".debug", ".eh_frame", ".rela.debug")):
                    current = None  # unwind and debug tables are no calls
                continue
            m = RELOC.match(line)
            if current and m:
                target = re.sub(r"[-+]0x[0-9a-f]+$", "", m.group(2))
                self.edges[current].add(self.section_of.get(target, target))

    def node(self, symbol):
        return self.section_of.get(symbol, symbol)

    def referrers(self, node):
        return sorted(s for s, targets in self.edges.items() if node in targets)


def check(flavour, root, out_dir):
    obj_path = out_dir / f"{flavour}.o"
    subprocess.run(
        ["cargo", "rustc", "--locked", "--quiet", "--lib", "--features", flavour,
         "--target", "x86_64-unknown-linux-gnu", "--target-dir", str(root / "target" / "boundary"),
         "--", "-C", "opt-level=0", "-C", "debuginfo=0", "-C", "codegen-units=1", f"--emit=obj={obj_path}"],
        cwd=root, check=True)
    obj = Object(obj_path)
    export_nodes = {obj.node(e): e for e in obj.exports}
    problems = []
    rust_exports = 0
    asm_bodies = {obj.node(e) for e in obj.exports if e.startswith(ASM_BODY)}
    asm_entries = set()
    for export in sorted(obj.exports):
        start = obj.node(export)
        if start != f".text.{export}" or (obj.edges.get(start) and obj.edges[start] <= asm_bodies):
            asm_entries.add(start)  # an assembly routine, or a jump to one
            continue
        rust_exports += 1
        if export.startswith(ASM_BODY):
            for referrer in obj.referrers(start):
                if referrer not in asm_entries:
                    problems.append(f"{flavour}: {export}, the body of an assembly entry point, is referenced by {readable(referrer)}")
            continue
        seen = {start}
        stack = [(start, [])]
        while stack:
            node, path = stack.pop()
            for target in obj.edges.get(node, ()):
                if target in export_nodes and target != start:
                    via = " -> ".join(readable(p) for p in path) or "directly"
                    problems.append(f"{flavour}: export {export} reaches export {export_nodes[target]} ({via})")
                    continue
                if target not in seen:
                    seen.add(target)
                    stack.append((target, path + [target]))
    raise_nodes = set()
    for function in ERROR_FUNCTIONS:
        for referrer in obj.referrers(function):
            if not re.match(r"^\.text\._ZN6uoanim3ffi5raise5raise17h[0-9a-f]{16}E$", referrer):
                problems.append(f"{flavour}: {function} is referenced by {readable(referrer)}, not only by ffi::raise::raise")
            else:
                raise_nodes.add(referrer)
    for node in raise_nodes:
        for referrer in obj.referrers(node):
            if not re.match(r"^\.text\._ZN6uoanim3ffi10raise_cold17h[0-9a-f]{16}E$", referrer):
                problems.append(f"{flavour}: ffi::raise::raise is referenced by {readable(referrer)}, not only by ffi::raise_cold")
    return rust_exports - len(asm_bodies), len(asm_entries), raise_nodes, problems


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    out_dir = root / "build" / "boundary"
    out_dir.mkdir(parents=True, exist_ok=True)
    flavours = sys.argv[1:] or FLAVOURS
    failed = False
    for flavour in flavours:
        rust_exports, asm_exports, raise_nodes, problems = check(flavour, root, out_dir)
        for problem in problems:
            print(problem)
        failed |= bool(problems)
        errors = "the engine's error functions reached only through ffi::raise_cold" if raise_nodes else "no engine error function"
        print(f"boundary ({flavour}): {rust_exports} exported Rust functions, {asm_exports} assembly entry points; "
              f"{'no export reaches another' if not problems else f'{len(problems)} problem(s)'}; {errors}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
