#!/usr/bin/env python3
"""check-prose.py [FILE...]

The prose of the project's Markdown (default: README.md and docs/*.md):
each prose line under 100 characters, each paragraph under 15 lines.
Tables (lines starting with `|`), code (fenced, or indented four spaces
after a blank line) and headings are not prose; a list item starts a
paragraph of its own. Prints each finding as FILE:LINE: ...; exits 1 when
there is one.
"""
import pathlib
import re
import sys

MAX_LINE = 99
MAX_PARAGRAPH = 14
ITEM = re.compile(r"^\s*(?:[*-]|\d+\.)\s")


def findings(path):
    out = []
    para, start, fenced, code = [], 0, False, False

    def flush():
        if len(para) > MAX_PARAGRAPH:
            out.append(f"{path}:{start}: a paragraph of {len(para)} lines (at most {MAX_PARAGRAPH})")
        para.clear()

    for number, line in enumerate((pathlib.Path(__file__).resolve().parent.parent / path).read_text(encoding="utf-8").split("\n"), 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            fenced = not fenced
            continue
        if fenced:
            continue
        if not stripped:
            flush()
            code = False
            continue
        # an indented block after a blank line is code, to the next blank
        # line (a list item's continuation lines are indented less)
        if code or (not para and line.startswith("    ") and not ITEM.match(line)):
            code = True
            continue
        if stripped.startswith("|") or stripped.startswith("#"):
            flush()
            continue
        if ITEM.match(line):
            flush()
        if not para:
            start = number
        para.append(line)
        if len(line) > MAX_LINE:
            out.append(f"{path}:{number}: a prose line of {len(line)} characters (at most {MAX_LINE})")
    flush()
    return out


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    files = [pathlib.Path(a) for a in sys.argv[1:]] or [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    bad = [f for path in files for f in findings(path.resolve().relative_to(root) if path.resolve().is_relative_to(root) else path)]
    for f in bad:
        print(f)
    print(f"prose: {len(bad)} finding(s) in {len(files)} file(s)")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
