#!/usr/bin/env python3
"""check-ffi-confined.py [--pending FILE] [SRC]

The boundary's rule on the sources (docs/ABI.md, "The boundary"): outside
the units' layer (src/ffi/, and src/x87.rs, the hardware x87 the units
compute on) the library's code has no `#[no_mangle]` (or `export_name`), no
`extern "ABI" fn` definition, no `global_asm!`/`asm!`/`naked_asm!` and no
macro that makes data symbols (a `#[no_mangle]` in a `macro_rules!` body is
the first item); src/x87.rs may hold assembly only. Comments are left out;
so is test code (`tests.rs`, `*_tests.rs`, `#[cfg(test)] mod … { … }`),
which builds no unit.

--pending FILE lists findings (`path: what`, one a line) that are known and
scheduled to move: they are reported as pending, not failures, and an entry
that no longer matches a finding fails the check, so the list can only
shrink. Exits 1 on a finding not pending or a stale pending entry.
"""
import argparse
import pathlib
import re
import sys

RULES = (
    ("#[no_mangle]", re.compile(r"#\[\s*(?:unsafe\s*\(\s*)?no_mangle")),
    ("#[export_name]", re.compile(r"#\[\s*(?:unsafe\s*\(\s*)?export_name")),
    ("extern fn definition", re.compile(r"\bextern\s+\"[^\"]*\"\s+fn\s+[A-Za-z_]")),
    ("assembly", re.compile(r"\b(?:global_asm|naked_asm|asm)!")),
)
TEST_MOD = re.compile(r"\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{")


def strip(text):
    """The text with comments blanked (lines kept) and string literals
    emptied, so a rule's word in a comment or a string is no finding."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else "")
                    i += 1
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if re.search(r"extern\s*$", text[max(0, i - 12):i]):
                out.append(text[i:j + 1])  # an ABI name: kept
            else:
                out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def without_tests(lines):
    """The lines, with `#[cfg(test)] mod … { … }` blocks blanked."""
    i = 0
    while i < len(lines):
        if lines[i].strip() == "#[cfg(test)]" and i + 1 < len(lines) and TEST_MOD.match(lines[i + 1]):
            depth, j = 0, i + 1
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                if depth <= 0:
                    break
                j += 1
            for k in range(i, min(j + 1, len(lines))):
                lines[k] = ""
            i = j + 1
            continue
        i += 1
    return lines


def findings(src):
    found = []
    for path in sorted(src.rglob("*.rs")):
        rel = path.relative_to(src.parent).as_posix()
        if rel.startswith(f"{src.name}/ffi/") or path.name == "tests.rs" or path.name.endswith("_tests.rs"):
            continue
        lines = without_tests(strip(path.read_text(encoding="utf-8")).split("\n"))
        for number, line in enumerate(lines, 1):
            for what, rule in RULES:
                if what == "assembly" and rel == f"{src.name}/x87.rs":
                    continue
                if rule.search(line):
                    found.append((rel, number, what))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pending")
    parser.add_argument("src", nargs="?", default=str(pathlib.Path(__file__).resolve().parent.parent / "src"))
    args = parser.parse_args()
    pending = set()
    if args.pending:
        for line in pathlib.Path(args.pending).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                pending.add(line.strip())
    found = findings(pathlib.Path(args.src))
    failed = False
    matched = set()
    deferred = 0
    for rel, number, what in found:
        key = f"{rel}: {what}"
        if key in pending:
            matched.add(key)
            deferred += 1
            print(f"pending: {rel}:{number}: {what} outside src/ffi")
        else:
            failed = True
            print(f"{rel}:{number}: {what} outside src/ffi")
    for key in sorted(pending - matched):
        failed = True
        print(f"stale pending entry (nothing of it is left; remove it): {key}")
    print(f"ffi-confined: {len(found) - deferred} finding(s) outside src/ffi, {deferred} pending, "
          f"{len(pending - matched)} stale pending entr{'y' if len(pending - matched) == 1 else 'ies'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
