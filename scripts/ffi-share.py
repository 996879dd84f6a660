#!/usr/bin/env python3
"""ffi-share.py [LIMIT] — how much of the library's code is the C boundary.

Counts the non-test lines of src/ (not blank, not only a comment; test files
`tests.rs` / `*_tests.rs` and `#[cfg(test)] mod … { … }` blocks left out)
and the part of them under src/ffi/, per file. With LIMIT (a percentage),
exits 1 when src/ffi holds more than LIMIT percent of them.
"""
import pathlib
import re
import sys

TEST_MOD = re.compile(r"\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{")


def code_lines(text):
    lines = text.split("\n")
    count = 0
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line == "#[cfg(test)]" and i + 1 < len(lines) and TEST_MOD.match(lines[i + 1]):
            depth = 0
            j = i + 1
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                if depth <= 0:
                    break
                j += 1
            i = j + 1
            continue
        if line and not line.startswith("//"):
            count += 1
        i += 1
    return count


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    limit = float(sys.argv[1]) if len(sys.argv) > 1 else None
    total = 0
    ffi = {}
    for path in sorted((root / "src").rglob("*.rs")):
        if path.name == "tests.rs" or path.name.endswith("_tests.rs"):
            continue
        n = code_lines(path.read_text(encoding="utf-8"))
        total += n
        rel = path.relative_to(root).as_posix()
        if rel.startswith("src/ffi/"):
            ffi[rel] = n
    share = 100.0 * sum(ffi.values()) / total
    for rel, n in sorted(ffi.items(), key=lambda kv: -kv[1]):
        print(f"{n:6} {rel}")
    print(f"src/ffi: {sum(ffi.values())} of {total} non-test lines ({share:.1f}%)")
    if limit is not None and share > limit:
        print(f"src/ffi holds more than {limit:g}% of the non-test lines")
        sys.exit(1)


if __name__ == "__main__":
    main()
