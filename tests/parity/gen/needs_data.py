#!/usr/bin/env python3
"""Which cases read game data (the same rule as run.sh's `needs_data`).

    needs_data.py SUITE CASE...   prints the cases that need game data

pa: a `script-file` or `include` line (both name files of the data
directory).  at: a path under `stock/` (the data directory, as the driver's
root sees it) in an `atrfile`, `atrdir`, `atrx` or `xanimauto` line.
bg-rest: none.
"""
import re
import sys

RULES = {
    'pa': re.compile(rb'^(script-file|include)[ \t]', re.M),
    'at': re.compile(rb'^(atrfile|atrdir|atrx|xanimauto)[ \t].*stock/', re.M),
    # bg-rest: no case reads game data
    'bg-rest': re.compile(rb'(?!)'),
}


def needs_data(suite, text):
    return RULES[suite].search(text) is not None


if __name__ == '__main__':
    for path in sys.argv[2:]:
        if needs_data(sys.argv[1], open(path, 'rb').read()):
            print(path)
