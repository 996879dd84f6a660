#!/usr/bin/env python3
"""Store the C original's outputs compactly in SUITE/expected/.

    store_expected.py SUITE CASEDIR... -- FLAVOUR:ARCH=DIR...

Each DIR holds the C original's <case>.out for one (flavour, arch).  An output
is kept once for every variant that shares it:

    expected/<case>.EXT                 the output most variants give
    expected/<flavour>/<case>.EXT       a flavour's output, where it differs
    expected/<flavour>-<arch>/<case>.EXT  one arch's output, where it differs

run.sh looks a case up in that order, most specific first.  EXT is `out`
(the output itself) for cases that need no game data, and `sha256` (its
digest) for cases that read game data: their outputs are derived from the
game files, which the repository does not hold.
"""
import collections
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from needs_data import needs_data  # noqa: E402


def main():
    args = sys.argv[1:]
    suite = args[0]
    sep = args.index('--')
    casedirs, variants = args[1:sep], args[sep + 1:]
    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), suite)
    cases = {}
    for d in casedirs:
        for f in sorted(os.listdir(d)):
            if f.endswith('.case'):
                cases[f[:-5]] = os.path.join(d, f)
    outputs = collections.defaultdict(dict)  # case -> (flavour, arch) -> bytes
    order = []
    for v in variants:
        key, d = v.split('=', 1)
        flavour, arch = key.split(':')
        order.append((flavour, arch))
        for f in os.listdir(d):
            if f.endswith('.out') and f[:-4] in cases:
                outputs[f[:-4]][(flavour, arch)] = open(os.path.join(d, f), 'rb').read()
    missing = [c for c in cases if c not in outputs]
    if missing:
        sys.exit('store_expected.py: no output for %s' % ', '.join(missing[:5]))
    exp = os.path.join(root, 'expected')
    written = 0
    for case, got in sorted(outputs.items()):
        data = needs_data(suite, open(cases[case], 'rb').read())
        ext = 'sha256' if data else 'out'

        def write(sub, body):
            nonlocal written
            d = os.path.join(exp, sub) if sub else exp
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, '%s.%s' % (case, ext)), 'wb') as f:
                f.write(hashlib.sha256(body).hexdigest().encode() + b'\n' if data else body)
            written += 1

        def most_common(keys):
            c = collections.Counter(got[k] for k in keys)
            best = max(c.values())
            for k in keys:  # ties: the earliest variant on the command line
                if c[got[k]] == best:
                    return got[k]

        keys = [k for k in order if k in got]
        common = most_common(keys)
        write('', common)
        for flavour in dict.fromkeys(f for f, _ in keys):
            fkeys = [k for k in keys if k[0] == flavour]
            fval = most_common(fkeys)
            if fval != common:
                write(flavour, fval)
            for k in fkeys:
                if got[k] != fval:
                    write('%s-%s' % k, got[k])
    print('%s: %d cases, %d files' % (suite, len(outputs), written))


if __name__ == '__main__':
    main()
