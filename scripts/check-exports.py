#!/usr/bin/env python3
"""check-exports.py — the boundary rules of docs/ABI.md, checked on the sources.

1. Every exported Rust function (`#[no_mangle] ... extern "C" fn` under
   src/ffi/) runs its body in the guard: its body calls one of the guard
   functions of src/ffi/mod.rs (or a module's one-line alias of them).
2. The engine's error functions (Com_Error, CompileError, CompileError2) are
   declared only in src/ffi/raise.rs, so nothing else can call them.
"""
import pathlib
import re
import sys

GUARDS = ("guard(", "guard_infallible(", "guard_with(")
ERROR_IMPORTS = re.compile(r"\bfn\s+(Com_Error|CompileError2?)\s*\(")
EXPORT = re.compile(r'#\[no_mangle\]\s*(?:#\[[^\]]*\]\s*|///[^\n]*\n\s*)*pub\s+(?:unsafe\s+)?extern\s+"C"\s+fn\s+(\w+)')


def body_after(text, start):
    """The brace-balanced body of the function whose signature starts at `start`."""
    open_at = text.index("{", start)
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[open_at : i + 1]
    return text[open_at:]


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    problems = []
    exports = 0
    for path in sorted((root / "src").rglob("*.rs")):
        rel = path.relative_to(root)
        text = path.read_text(encoding="utf-8")
        if ERROR_IMPORTS.search(text) and rel.as_posix() != "src/ffi/raise.rs":
            for m in ERROR_IMPORTS.finditer(text):
                problems.append(f"{rel}: declares the engine error function {m.group(1)} (only src/ffi/raise.rs may)")
        if not rel.as_posix().startswith("src/ffi/"):
            continue
        for m in EXPORT.finditer(text):
            exports += 1
            body = body_after(text, m.end())
            if not any(g in body for g in GUARDS):
                problems.append(f"{rel}: export {m.group(1)} does not run its body in the guard")
    for p in problems:
        print(p)
    print(f"exports: {exports} exported functions checked, {len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
