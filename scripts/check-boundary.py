#!/usr/bin/env python3
"""check-boundary.py [--targets T,...] [FLAVOUR ...]
   check-boundary.py --object FILE [--target T] --flavour NAME

The boundary rules of docs/ABI.md, checked on what the compiler made of the
sources.

For each target (default: the four shipped ones, x86_64 and i686 Linux and
Windows) and each flavour (default: game cgame game_windows engine client) the library
is compiled at opt-level 0 (nothing inlined but `#[inline(always)]`, so every
call the source makes is a relocation in the object) into one object. Its
symbols and relocations are read as a graph: a function (the code from its
symbol to the next one of its section: ELF gives each function a section,
PE/COFF puts them all in `.text`) points at every symbol it calls or takes
the address of. Then:

1. No export reaches another. From the code of an exported function (a
   `#[no_mangle]` function with a C name), following calls and addresses
   through any function or data of the library, no other exported function
   is reached. An assembly entry point (an export whose code references a
   `uoanim_internal_*` body: the C-variadic `BG_AnimParseError`,
   `XAnimGetLength`) references nothing but such bodies, and a body is
   referenced by assembly entry points only; the bodies follow rule 1 too.
2. One way to the engine's error functions. `Com_Error`, `CompileError`
   and `CompileError2` are referenced by `ffi::raise::raise` alone, `raise`
   by `ffi::raise_cold` alone, and `raise_cold` (and `ffi::guard` /
   `ffi::guard_with`, where a copy of them is not inlined) by the code of
   exported functions alone: a core function that calls the guard fails.

With --object, checks one given object (the fixtures of scripts/tests/).
Needs cargo, the Rust targets and binutils (objdump; the mingw-w64 one is not
needed: the host objdump reads PE/COFF). Exits 1 when a rule is broken.
"""
import argparse
import bisect
import collections
import pathlib
import re
import subprocess
import sys

FLAVOURS = ("game", "cgame", "game_windows", "engine", "client")
TARGETS = ("x86_64-unknown-linux-gnu", "i686-unknown-linux-gnu", "x86_64-pc-windows-gnu", "i686-pc-windows-gnu")
ERROR_FUNCTIONS = ("Com_Error", "G_Error", "CompileError", "CompileError2")
ASM_BODY = "uoanim_internal_"
SECTION = re.compile(r"^RELOCATION RECORDS FOR \[(.*)\]:$")
RELOC = re.compile(r"^([0-9a-f]+)\s+(\S+)\s+(\S+)$")
ELF_SYMBOL = re.compile(r"^([0-9a-f]+)\s+([lguw! ]+)\s*([a-zA-Z ]*?)\s*(\S+)\s+([0-9a-f]+)\s+(?:\.hidden\s+|\.protected\s+)?(\S+)$")
COFF_SYMBOL = re.compile(r"^\[\s*\d+\]\(sec\s+(-?\d+)\)\(fl [^)]*\)\(ty\s+([0-9a-f]+)\)\(scl\s+(\d+)\) \(nx \d+\) 0x([0-9a-f]+) (\S+)$")
HEADER = re.compile(r"^\s*(\d+)\s+(\S+)\s+[0-9a-f]+\s+")
ASM_DEFINITION = re.compile(r'(?:asm_function|_routine|_trampoline)!\s*\(\s*"([A-Za-z_][A-Za-z0-9_]*)"')
HASH = re.compile(r"17h[0-9a-f]{16}E$")
SKIPPED = (".debug", ".eh_frame", ".rela.debug", ".pdata", ".xdata", ".llvm")


def run(*cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True).stdout


def readable(name):
    """A symbol as a Rust path (for messages)."""
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
    for code, text in (("$u7b$", "{"), ("$u7d$", "}"), ("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("..", "::")):
        path = path.replace(code, text)
    return path


def rust_path(name):
    """`uoanim::ffi::raise_cold` for the mangled name of that function."""
    return readable(name) if name.startswith("_ZN") else None


class Object:
    """The functions and data of one object and what each one references."""

    def __init__(self, path, underscore):
        self.underscore = underscore
        starts = collections.defaultdict(list)  # section -> [(offset, symbol)]
        self.code = set()  # defined function symbols
        self.exports = set()
        text = run("objdump", "-tw", str(path))
        coff = "file format pe-" in text
        sections = {}
        if coff:
            for line in run("objdump", "-hw", str(path)).splitlines():
                m = HEADER.match(line)
                if m:
                    sections[int(m.group(1)) + 1] = m.group(2)
        for line in text.splitlines():
            if coff:
                m = COFF_SYMBOL.match(line)
                if not m:
                    continue
                sec, ty, scl, value, name = m.groups()
                section = sections.get(int(sec))
                if section is None or name.startswith(".") or name == section:
                    continue
                name = self.plain(name)
                starts[section].append((int(value, 16), name))
                if section.startswith(".text"):
                    self.code.add(name)
                    if scl == "2" and self.is_c_name(name):
                        self.exports.add(name)
            else:
                m = ELF_SYMBOL.match(line)
                if not m:
                    continue
                value, flags, kind, section, _size, name = m.groups()
                if section in ("*UND*", "*ABS*", "*COM*") or "d" in kind.split() or "f" in kind.split():
                    continue
                starts[section].append((int(value, 16), name))
                if "F" in kind.split() or section.startswith(".text"):
                    self.code.add(name)
                    if "g" in flags and self.is_c_name(name):
                        self.exports.add(name)
        self.starts = {}
        for section, entries in starts.items():
            entries.sort()
            self.starts[section] = ([o for o, _ in entries], [n for _, n in entries])
        self.edges = collections.defaultdict(set)
        current = None
        for line in run("objdump", "-rw", str(path)).splitlines():
            m = SECTION.match(line)
            if m:
                current = None if m.group(1).startswith(SKIPPED) else m.group(1)
                continue
            m = RELOC.match(line)
            if current and m:
                offset, _kind, target = m.groups()
                source = self.at(current, int(offset, 16))
                target = re.sub(r"[-+]0x[0-9a-f]+$", "", target)
                if target in self.starts and not coff:  # ELF: a section symbol is its item
                    target = self.starts[target][1][0] if self.starts[target][0] and self.starts[target][0][0] == 0 else target
                self.edges[source].add(self.plain(target))

    def plain(self, name):
        return name[1:] if self.underscore and name.startswith("_") else name

    @staticmethod
    def is_c_name(name):
        return re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) is not None and not name.startswith(("_ZN", "_R"))

    def at(self, section, offset):
        """The symbol whose item holds `offset` of `section` (or the section)."""
        if section not in self.starts:
            return section
        offsets, names = self.starts[section]
        i = bisect.bisect_right(offsets, offset) - 1
        return names[i] if i >= 0 else section

    def referrers(self, node):
        return sorted(s for s, targets in self.edges.items() if node in targets)


def assembly_names(source):
    """The C names of the assembly routines the sources define (the first
    literal of an `asm_function!`, `*_routine!` or `*_trampoline!` call)."""
    names = set()
    for path in sorted(pathlib.Path(source).rglob("*.rs")):
        for m in ASM_DEFINITION.finditer(path.read_text(encoding="utf-8")):
            names.add(m.group(1))
    return names


# Routines whose assembly is compiled for some flavours only: in these the
# export of that name is plain Rust (the client's XAnimGetLength returns a
# binary64 double; the engine flavour's x87 long double needs assembly).
PLAIN_RUST_IN = {"client": {"XAnimGetLength"}}


def check_object(obj, label, asm_names, reach=True):
    problems = []
    flavour = label.split()[-1]
    asm_entries = obj.exports & (asm_names - PLAIN_RUST_IN.get(flavour, set()))
    asm_bodies = {e for e in obj.exports if e.startswith(ASM_BODY)}
    rust_exports = obj.exports - asm_entries - asm_bodies
    for entry in sorted(asm_entries):
        for target in sorted(obj.edges.get(entry, set()) - asm_bodies):
            problems.append(f"{label}: assembly routine {entry} references {readable(target)}, not only a uoanim_internal_ body")
    for body in sorted(asm_bodies):
        for referrer in obj.referrers(body):
            if not reach and referrer.startswith("."):
                continue  # PE/COFF: an unnamed constant of .rdata (see is_elf)
            if referrer not in asm_entries:
                problems.append(f"{label}: {body}, the body of an assembly entry point, is referenced by {readable(referrer)}")
    for export in sorted(rust_exports | (asm_bodies - asm_entries)) if reach else ():
        seen = {export}
        stack = [(export, [])]
        while stack:
            node, path = stack.pop()
            for target in sorted(obj.edges.get(node, ())):
                if target in obj.exports and target != export:
                    via = " -> ".join(readable(p) for p in path) or "directly"
                    problems.append(f"{label}: export {export} reaches export {target} ({via})")
                    continue
                if target not in seen:
                    seen.add(target)
                    stack.append((target, path + [target]))
    raise_nodes = set()
    for function in ERROR_FUNCTIONS:
        for referrer in obj.referrers(function):
            if rust_path(referrer) != "uoanim::ffi::raise::raise":
                problems.append(f"{label}: {function} is referenced by {readable(referrer)}, not only by ffi::raise::raise")
            else:
                raise_nodes.add(referrer)
    cold_nodes = set()
    for node in sorted(raise_nodes):
        for referrer in obj.referrers(node):
            if rust_path(referrer) != "uoanim::ffi::raise_cold":
                problems.append(f"{label}: ffi::raise::raise is referenced by {readable(referrer)}, not only by ffi::raise_cold")
            else:
                cold_nodes.add(referrer)
    # the guard: raise_cold, and any copy of guard / guard_with the compiler
    # kept out of line, is called from the code of an export alone
    guards = {n for n in obj.code if rust_path(n) in ("uoanim::ffi::guard", "uoanim::ffi::guard_with")}
    for node in sorted(cold_nodes | guards):
        for referrer in obj.referrers(node):
            if referrer in rust_exports or referrer in guards or referrer in asm_bodies - asm_entries:
                continue
            problems.append(f"{label}: {readable(node)} is called by {readable(referrer)}, not by an export: "
                            "only an exported function guards its call of the core")
    return len(rust_exports), len(asm_entries), raise_nodes, problems, reach


def is_elf(target):
    """Rule 1 is followed on the ELF objects, whose every function and datum
    has its own section; a PE/COFF object keeps its constants unnamed in one
    `.rdata` (rule 2, which follows direct references only, holds there)."""
    return "windows" not in target


def compile_object(root, flavour, target, out_dir):
    obj_path = out_dir / f"{target}-{flavour.replace(',', '+')}.o"  # (a comma would split --emit)
    subprocess.run(
        ["cargo", "rustc", "--locked", "--quiet", "--lib", "--features", flavour,
         "--target", target, "--target-dir", str(root / "target" / "boundary"),
         "--", "-C", "opt-level=0", "-C", "debuginfo=0", "-C", "codegen-units=1", f"--emit=obj={obj_path}"],
        cwd=root, check=True)
    return obj_path


def report(label, result):
    rust_exports, asm_exports, raise_nodes, problems, reach = result
    for problem in problems:
        print(problem)
    errors = ("the engine's error functions reached only through ffi::raise_cold, called by exports alone"
              if raise_nodes else "no engine error function")
    print(f"boundary ({label}): {rust_exports} exported Rust functions, {asm_exports} assembly routines; "
          f"{('no export reaches another' if reach else 'export reach not followed on PE/COFF') if not problems else f'{len(problems)} problem(s)'}; {errors}")
    return bool(problems)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("--object")
    parser.add_argument("--target", default="x86_64-unknown-linux-gnu")
    parser.add_argument("--flavour", default="fixture")
    parser.add_argument("--source", help="the sources of --object (default: src/)")
    parser.add_argument("flavours", nargs="*")
    args = parser.parse_args()
    root = pathlib.Path(__file__).resolve().parent.parent
    asm_names = assembly_names(args.source or root / "src")
    if args.object:
        obj = Object(args.object, args.target == "i686-pc-windows-gnu")
        result = check_object(obj, args.flavour, asm_names, reach=is_elf(args.target))
        sys.exit(1 if report(f"{args.target} {args.flavour}", result) else 0)
    out_dir = root / "build" / "boundary"
    out_dir.mkdir(parents=True, exist_ok=True)
    failed = False
    for target in args.targets.split(","):
        for flavour in args.flavours or FLAVOURS:
            obj = Object(compile_object(root, flavour, target, out_dir), target == "i686-pc-windows-gnu")
            label = f"{target} {flavour}"
            failed |= report(label, check_object(obj, label, asm_names, reach=is_elf(target)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
