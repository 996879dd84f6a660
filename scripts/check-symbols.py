#!/usr/bin/env python3
"""check-symbols.py ABI.md ARCH:UNIT:LIB...

Compares the global symbols each built link unit defines and leaves undefined
(nm) with the export and import tables of docs/ABI.md. Every difference, in
either direction, is reported and makes the check fail.

ABI.md tables: a table under a heading that contains "Exports", "Imports" or
"Engine-owned" (symbols the engine defines: a unit must not define them)
whose rows look like

    | `Symbol` | game, cgame | function | `C signature` | role |

(the second column lists the units; `unit@arch`, e.g. `cgame@i686`, limits a
row to one target). Undefined symbols that the C runtime of
the target provides (Linux: libc, libm, the dynamic loader;
Windows: msvcrt and the mingw-w64 runtime libraries; macOS: the libSystem
functions listed in DARWIN_SYSTEM, nothing else) are the toolchain's, not
engine imports, and are left out of the comparison. On i686 Windows and on
macOS C symbols carry a leading underscore, which is removed before
comparing. The Mach-O archives (darwin-arm64, read with llvm-nm) may define
besides the exports the global bodies of their assembly entries,
`uoanim_internal_*` (docs/ABI.md, "Link units"), and nothing else.
"""
import re
import subprocess
import sys

ROW = re.compile(r"^\|\s*`([A-Za-z_][A-Za-z0-9_]*)`\s*\|\s*([a-z0-9_@, -]+?)\s*\|")
ARCHES = {"x86_64", "i686", "x86_64-windows", "i686-windows", "darwin-arm64"}
# What a macOS unit may take from the system (libSystem: the C library and
# its compiler runtime's two 128-bit helpers); the list is closed, so a new
# system dependency fails the check until it is named here.
DARWIN_SYSTEM = {"abort", "bzero", "calloc", "free", "malloc", "memcmp", "memcpy", "memmove", "memset",
                 "realloc", "strlen", "vsnprintf", "__udivti3", "__floatuntidf"}
MINGW = {"x86_64-windows": "x86_64-w64-mingw32", "i686-windows": "i686-w64-mingw32"}
UNITS = {"game", "cgame", "game_windows", "engine", "client"}


def parse_abi(path):
    exports, imports, owned = {}, {}, {}
    section = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            # "## Exports" / "## Imports" open a section; deeper headings
            # (### per module) stay in it.
            if line.startswith("#"):
                level = len(line) - len(line.lstrip("#"))
                if level <= 2:
                    section = (exports if "Exports" in line else imports if "Imports" in line
                               else owned if "Engine-owned" in line else None)
                continue
            table = section
            m = ROW.match(line)
            if not m or table is None:
                continue
            units = {u.strip() for u in m.group(2).replace(",", " ").split()}
            unknown = {u for u in units if u.split("@")[0] not in UNITS or ("@" in u and u.split("@")[1] not in ARCHES)}
            if unknown:
                sys.exit(f"check-symbols: {path}: unknown unit(s) {sorted(unknown)} for {m.group(1)}")
            table.setdefault(m.group(1), set()).update(units)
    return exports, imports, owned


def nm(args, lib, arch, weak=True):
    """Symbol names nm lists, as C names; weak=False leaves out weak undefined
    symbols (optional references of the Rust runtime, resolved to NULL when
    absent). Mach-O archives are read with llvm-nm in POSIX form (name,
    type, ...)."""
    if arch == "darwin-arm64":
        out = subprocess.run(["llvm-nm", "-P", *args, lib], check=True, capture_output=True, text=True).stdout
        names = set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) < 2 or line.endswith(":") or (not weak and parts[1] in ("w", "v")):
                continue
            names.add(c_name(parts[0], arch))
        return names
    tool = f"{MINGW[arch]}-nm" if arch in MINGW else "nm"
    out = subprocess.run([tool, *args, lib], check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and not line.endswith(":"):
            if not weak and parts[-2] in ("w", "v"):
                continue
            if parts[-1].startswith(".refptr."):
                continue  # mingw-w64: the compiler's COMDAT cell for an engine global
            names.add(c_name(parts[-1], arch))
    return names


def c_name(symbol, arch):
    return symbol[1:] if arch in ("i686-windows", "darwin-arm64") and symbol.startswith("_") else symbol


def windows_runtime_symbols(arch):
    """What a mingw-w64 program links besides the unit: msvcrt, the mingw-w64
    runtime and libgcc (the static libraries of the cross compiler)."""
    cc = f"{MINGW[arch]}-gcc"
    names = set()
    for lib in ("libmsvcrt.a", "libmingwex.a", "libmingw32.a", "libgcc.a", "libkernel32.a"):
        path = subprocess.run([cc, f"-print-file-name={lib}"], capture_output=True, text=True).stdout.strip()
        if path and path != lib:
            out = subprocess.run([f"{MINGW[arch]}-nm", "-g", "--defined-only", path], capture_output=True, text=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) >= 2 and not line.endswith(":"):
                    names.add(c_name(parts[-1], arch))
    if not names:
        sys.exit(f"check-symbols: the mingw-w64 runtime of {arch} was not found ({cc})")
    return names


def runtime_symbols(arch):
    if arch == "darwin-arm64":
        return set(DARWIN_SYSTEM)
    if arch in MINGW:
        return windows_runtime_symbols(arch)
    flag = "-m32" if arch == "i686" else "-m64"
    names = {"_GLOBAL_OFFSET_TABLE_", "__dso_handle", "_DYNAMIC"}
    # a unit needs nothing but the C library (no libgcc_s, no libpthread)
    for lib in ("libc.so.6", "libm.so.6"):
        path = subprocess.run(["gcc", flag, f"-print-file-name={lib}"], capture_output=True, text=True).stdout.strip()
        if path and path != lib:
            for line in subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True).stdout.splitlines():
                parts = line.split()
                if parts:
                    names.add(parts[-1].split("@")[0])
    ld = "/lib/ld-linux.so.2" if arch == "i686" else "/lib64/ld-linux-x86-64.so.2"
    for line in subprocess.run(["nm", "-D", "--defined-only", ld], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if parts:
            names.add(parts[-1].split("@")[0])
    return names


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    exports, imports, owned = parse_abi(sys.argv[1])
    failed = False
    runtime = {}
    for spec in sys.argv[2:]:
        arch, unit, lib = spec.split(":", 2)
        if arch not in runtime:
            runtime[arch] = runtime_symbols(arch)
        defined = nm(["-g", "--defined-only"], lib, arch)
        internal = {d for d in defined if arch == "darwin-arm64" and d.startswith("uoanim_internal_")}
        defined -= internal
        undefined = nm(["-u"], lib, arch, weak=False) - runtime[arch] - defined
        def wanted(units):
            return unit in units or f"{unit}@{arch}" in units

        want_defined = {s for s, u in exports.items() if wanted(u)}
        want_undefined = {s for s, u in imports.items() if wanted(u)}
        problems = []
        for s in sorted(defined - want_defined):
            problems.append(f"defines {s}, not an export of '{unit}' in ABI.md")
        for s in sorted(want_defined - defined):
            problems.append(f"does not define {s}, an export of '{unit}' in ABI.md")
        for s in sorted(undefined - want_undefined):
            problems.append(f"imports {s}, not an import of '{unit}' in ABI.md")
        for s in sorted(want_undefined - undefined):
            problems.append(f"does not import {s}, an import of '{unit}' in ABI.md")
        # the engine-owned symbols (ABI.md "Engine-owned symbols"): never
        # defined by the unit; those it uses are undefined references
        want_owned = {s for s, u in owned.items() if wanted(u)}
        clash = defined & (want_undefined | want_owned)
        for s in sorted(clash):
            problems.append(f"defines {s}, which the engine defines")
        if problems:
            failed = True
            print(f"symbols {arch} {unit}: {len(problems)} difference(s) with ABI.md")
            for p in problems:
                print(f"  {lib}: {p}")
        else:
            owned_note = f"; defines none of the {len(want_owned)} engine-owned symbols, imports the {len(want_owned & undefined)} it uses" if want_owned else ""
            internal_note = f"; and {len(internal)} assembly bodies ({', '.join(sorted(internal))})" if internal else ""
            print(f"symbols {arch} {unit}: {len(defined)} exports, {len(undefined)} imports, as in ABI.md{owned_note}{internal_note}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
