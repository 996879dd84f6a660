#!/usr/bin/env python3
"""fuzz-filter.py DIR [DIFFTEST] — removes from the minimised corpus DIR every
input that carries game data: a run of 40 or more bytes that also occurs in
one of the stock files under DIFFTEST/*/stock (the stock trees and script
seed the working corpus, but are not the project's to commit), and inputs
over 16 KiB."""
import pathlib
import sys

WINDOW = 40


def main():
    corpus = pathlib.Path(sys.argv[1])
    difftest = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
    grams = set()
    if difftest and difftest.is_dir():
        for f in difftest.glob("*/stock/**/*"):
            if f.is_file():
                data = f.read_bytes()
                grams.update(data[i : i + WINDOW] for i in range(0, max(len(data) - WINDOW + 1, 0)))
    removed = 0
    for f in sorted(corpus.iterdir()):
        data = f.read_bytes()
        stock = any(data[i : i + WINDOW] in grams for i in range(0, max(len(data) - WINDOW + 1, 0)))
        if stock or len(data) > 16384:
            f.unlink()
            removed += 1
    print(f"fuzz-filter: {removed} inputs with game data or over 16 KiB left out of {corpus}")


if __name__ == "__main__":
    main()
