#!/usr/bin/env python3
"""module-graph.py [--summary] [SRC]

The library's module graph: for each module (a file of src/; `mod.rs` is
its folder's module) its `use crate::` lines, and the modules it names by any
`crate::` path in its non-test code (comments, strings and tests left out:
`tests.rs`, `*_tests.rs`, `#[cfg(test)] mod … { … }`). Fails (exit 1) when
the modules form a circle, printing each circle. --summary prints only the
counts and the circles.
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
confined = __import__("check-ffi-confined")

PATH = re.compile(r"\bcrate((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+crate::[^;]*;", re.M)
GROUP = re.compile(r"\bcrate::((?:[A-Za-z_]\w*::)*)\{([^{}]*)\}")


def module_of(src, path):
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return "::".join(parts)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    summary = "--summary" in sys.argv
    src = pathlib.Path(args[0] if args else pathlib.Path(__file__).resolve().parent.parent / "src")
    texts = {}
    for path in sorted(src.rglob("*.rs")):
        if path.name == "tests.rs" or path.name.endswith("_tests.rs"):
            continue
        code = "\n".join(confined.without_tests(confined.strip(path.read_text(encoding="utf-8")).split("\n")))
        texts[module_of(src, path)] = code
    modules = set(texts) - {""}
    edges = {m: set() for m in texts}
    uses = {}
    for module, code in texts.items():
        uses[module] = [" ".join(u.split()) for u in USE.findall(code)]
        names = [m.group(1) for m in PATH.finditer(code)]
        for m in GROUP.finditer(code):  # crate::a::{b, c::d}
            names += ["::" + m.group(1) + item.strip() for item in m.group(2).split(",") if item.strip()]
        for name in names:
            parts = name.strip(":").split("::")
            for n in range(len(parts), 0, -1):
                target = "::".join(parts[:n])
                if target in modules:
                    if target != module and not module.startswith(target + "::") and not target.startswith(module + "::"):
                        edges[module].add(target)
                    break
    # Tarjan's strongly connected components
    index, low, on, stack, circles, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    if not summary:
        for module in sorted(texts):
            name = module or "crate"
            print(f"{name} -> {', '.join(sorted(edges[module])) or '(nothing)'}")
            for use in uses[module]:
                print(f"    {use}")
    for circle in circles:
        inner = [f"{a} -> {b}" for a in circle for b in sorted(edges[a]) if b in circle]
        print(f"circle: {', '.join(circle)} ({'; '.join(inner)})")
    print(f"module graph: {len(texts)} modules, {sum(len(e) for e in edges.values())} edges, "
          f"{len(circles)} circle{'s' if len(circles) != 1 else ''}")
    sys.exit(1 if circles else 0)


if __name__ == "__main__":
    main()
