#!/usr/bin/env python3
"""gen_own.py -- the project's own bg-rest cases (cases-own/), seeded, and
their expected outputs.

    gen_own.py cases                 writes cases-own/*.case
    gen_own.py expected DIST         runs each case on the units of DIST
                                     (dist/<arch>/libuoanim_<unit>.a, the
                                     Linux arches; the Windows ones give the
                                     same dumps, PROTOCOL.md), checks the
                                     values of own_ref.c in each dump, and
                                     stores the dumps (../../gen/store_expected.py)

darwin-arm64 has no outputs of these cases: own_ref.c models the x86 builds'
steps, and bg-rest/run.sh leaves cases-own out on that arch (../README.md).

Each case aims at one rule of the C original's arithmetic (the classes of
DIVERGENCES.md, "Per-frame arithmetic"); its comment says which and how the
value follows. The values are not taken from the unit under test: own_ref.c,
compiled with each build's flags, computes them, and `expected` refuses a
dump that does not show them.
"""
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)
CASES = os.path.join(SUITE, 'cases-own')

# the C original's builds (PROTOCOL.md of pa and bg-rest): flavour, arch ->
# (compiler flags of own_ref.c, behaviour)
COMMON = '-O0 -fsigned-char -fno-short-enums -fwrapv -fno-common -D_DEFAULT_SOURCE'
BUILDS = {
    ('game', 'x86_64'): ('-m64 -mfpmath=387 -fexcess-precision=fast -std=c99', 'LINUX'),
    ('game', 'i686'): ('-m32 -march=i686 -fexcess-precision=fast -std=c99', 'LINUX'),
    ('game-windows', 'x86_64'): ('-m64 -mfpmath=387 -fexcess-precision=fast -std=c99', 'WINDOWS'),
    ('game-windows', 'i686'): ('-m32 -march=i686 -fexcess-precision=fast -std=c99', 'WINDOWS'),
    ('cgame', 'x86_64'): ('-m64 -std=c11', 'WINDOWS'),
    ('cgame', 'i686'): ('-m32 -march=i686 -std=c11', 'WINDOWS'),
}
UNIT = {'game': 'game', 'game-windows': 'game_windows', 'cgame': 'cgame'}
# the platform's C ABI alone (the engine's functions the units call)
ABI = {'x86_64': '-m64 -std=c11', 'i686': '-m32 -march=i686 -std=c11'}


def h(x):
    return '0x%08x' % (x & 0xffffffff)


def nan(r, quiet):
    """A NaN of a kind, with a random sign and payload."""
    payload = r.getrandbits(22) or 1
    return (r.getrandbits(1) << 31) | 0x7f800000 | (0x400000 if quiet else 0) | payload


def header(lines, comment):
    return ['bgr-case 1'] + ['# ' + c for c in comment] + lines


def rate_case(n, r):
    """BG_RunLerpFrameRate over a NaN in lastOrigin and in trBase: which NaN
    VectorDistance's subtraction gives. The first eight cases pair the kinds
    (signalling or quiet, in lastOrigin and in trBase) with either one's
    significand the larger; the rest are random."""
    lo = [r.choice([nan(r, False), nan(r, True), 0x42c00000]) for _ in range(3)]
    tb = [r.choice([nan(r, False), nan(r, True), 0x42c80000]) for _ in range(3)]
    lane = r.randrange(3)
    if n < 8:
        quiet_lo, quiet_tb, lo_larger = n & 1, (n >> 1) & 1, (n >> 2) & 1
        small, large = 1 + r.getrandbits(10), 0x3ff000 + r.getrandbits(10)
        lo[lane] = 0x7f800000 | (0x400000 if quiet_lo else 0) | (large if lo_larger else small)
        tb[lane] = 0x7f800000 | (0x400000 if quiet_tb else 0) | (small if lo_larger else large)
    else:
        lo[lane], tb[lane] = nan(r, r.random() < 0.5), nan(r, r.random() < 0.5)
    lines = [
        'entries 8',
        'anim 1 100 90 0x00000000 0', 'entry 1 0x00000000 0x00000100',
        'animsindex 0x00000007',
        'clock 1000 5000 0',
        'slot 3 legs 0x00000001 1 100 0x3f800000 4950 %s %s %s' % tuple(h(v) for v in lo),
        'runrate 3 legs 0x00000001 0x00000000 %s %s %s' % tuple(h(v) for v in tb),
    ]
    comment = [
        'own rate_%03d: VectorDistance with NaN operands (DIVERGENCES.md "Per-frame arithmetic", class 1).' % n,
        'The rate follows from the distance, a NaN: its bits are the NaN the subtraction gives.',
        'Linux: each difference second - first on the x87 with `first` (lastOrigin) the memory operand of',
        'fsub: a signalling NaN there meets the loaded (quiet) trBase NaN, and the x87 gives the quiet',
        'operand (Intel SDM vol. 1, table 4-7); Windows x87: both loaded, the larger significand;',
        'Windows SSE (the cgame, x86_64): the first operand, quieted. own_ref.c `rate` computes it per build.',
    ]
    checks = lambda flags, behaviour: [('X SetAnimRate', ref(flags, 'rate', behaviour, *['%08x' % v for v in lo + tb], '50', '90'))]
    return header(lines, comment), checks


def blend_case(n, r):
    """BG_SetNewAnimation with a blend time beyond 2^24: (float)blendTime *
    0.001f, where rounding the int to binary32 first changes the product
    (the reference builds are asked which)."""
    while True:
        blend = 0x1000001 + r.getrandbits(26)
        if ref(BUILDS[('game', 'x86_64')][0], 'blend', str(blend)) != ref(BUILDS[('cgame', 'x86_64')][0], 'blend', str(blend)):
            break
    lines = [
        'entries 8',
        'anim 1 100 0 0x00000000 0', 'entry 1 0x00000000 0x00000100',
        'anim 2 %d 0 0x00000000 0' % blend, 'entry 2 0x00000000 0x00000100',
        'animsindex 0x00000007',
        'clock 1000 5000 0',
        'slot 5 torso 0x00000001 1 100 0x3f800000 4950 0x00000000 0x00000000 0x00000000',
        'ret 0x00000000',
        'setnew 5 torso 0x00000002 0',
    ]
    comment = [
        'own blend_%03d: (float)blendTime * 0.001f with |blendTime| > 2^24 (class 2).' % n,
        'The x87 builds with -fexcess-precision=fast multiply the exact fild of the int; an SSE build',
        '(the cgame, x86_64) and an ISO excess-precision build (the cgame, i686) round (float)blendTime',
        'to binary32 first. own_ref.c `blend` computes it per build.',
    ]
    checks = lambda flags, behaviour: [('X ClearGoalWeight', ref(flags, 'blend', str(blend)))]
    return header(lines, comment), checks


def start_case(n, r):
    """BG_SetNewAnimation starting a moving loop from the old one's time: the
    float GetTime returns, handed to SetTime."""
    t = nan(r, False)
    lines = [
        'entries 8',
        'anim 1 100 90 0x00000000 0', 'entry 1 0x00000000 0x00000100',
        'anim 2 100 90 0x00000000 0', 'entry 2 0x00000000 0x00000100',
        'animsindex 0x00000007',
        'clock 1000 5000 0',
        'slot 5 torso 0x00000001 1 100 0x3f800000 4950 0x00000000 0x00000000 0x00000000',
        'ret 0x00000001 0x00000001 %s 0x00000000' % h(t),
        'setnew 5 torso 0x00000002 0',
    ]
    comment = [
        'own start_%03d: a signalling NaN from GetTime handed on to SetTime (class 3).' % n,
        'The value comes back from a function returning float: through st(0) on i686, which quiets it;',
        'in xmm0 on x86_64, kept. The cgame\'s own trap veneer returns it (its build: own_ref.c `returned`',
        'with the cgame\'s flags); the game builds get it from the engine\'s function as the platform ABI',
        'returns it (own_ref.c built for the ABI alone).',
    ]
    checks = lambda flags, behaviour: [('X SetTime', ref(flags, 'returned', '%08x' % t))]
    return header(lines, comment), checks


def pass_case(n, r):
    """BG_RunLerpFrameRate within the sample: the slot's rate, unchanged, handed
    to SetAnimRate."""
    rate = nan(r, False)
    lines = [
        'entries 8',
        'anim 1 100 90 0x00000000 0', 'entry 1 0x00000000 0x00000100',
        'animsindex 0x00000007',
        'clock 1000 5000 0',
        'slot 3 legs 0x00000001 1 100 %s 5000 0x42c00000 0x43400000 0x00000000' % h(rate),
        'runrate 3 legs 0x00000001 0x00000000 0x42c80000 0x43480000 0x41200000',
    ]
    comment = [
        'own pass_%03d: a signalling NaN rate handed to SetAnimRate (class 4).' % n,
        'The 32-bit builds at -O0 copy a float argument to the stack through the x87, which quiets it;',
        'the 64-bit builds move it in xmm0. own_ref.c `pass` computes it per build.',
    ]
    checks = lambda flags, behaviour: [('X SetAnimRate', ref(flags, 'pass', '%08x' % rate))]
    return header(lines, comment), checks


KINDS = [('rate', rate_case, 12), ('blend', blend_case, 4), ('start', start_case, 4), ('pass', pass_case, 4)]
_refs = {}


def ref(flags, *args):
    """own_ref.c's value for the build of FLAGS (BUILDS)."""
    exe = _refs.get(flags)
    if exe is None:
        exe = os.path.join(tempfile.mkdtemp(), 'own_ref')
        subprocess.run(['gcc'] + COMMON.split() + flags.split() + ['-o', exe, os.path.join(HERE, 'own_ref.c'), '-lm'], check=True)
        _refs[flags] = exe
    return subprocess.run([exe] + list(args), check=True, capture_output=True, text=True).stdout.strip()


def cases():
    out = []
    for kind, make, count in KINDS:
        for n in range(count):
            r = random.Random(880000 + 1000 * KINDS.index((kind, make, count)) + n)
            out.append(('%s_%03d' % (kind, n), make(n, r)))
    return out


def main():
    if len(sys.argv) == 2 and sys.argv[1] == 'cases':
        os.makedirs(CASES, exist_ok=True)
        for name, (lines, _) in cases():
            with open(os.path.join(CASES, name + '.case'), 'w', newline='\n') as f:
                f.write('\n'.join(lines) + '\n')
        print('%d cases' % len(cases()))
        return
    if len(sys.argv) == 3 and sys.argv[1] == 'expected':
        dist = sys.argv[2]
        outdirs = {}
        bad = 0
        for (flavour, arch), (flags, behaviour) in BUILDS.items():
            d = tempfile.mkdtemp()
            lib = os.path.join(dist, arch, 'libuoanim_%s.a' % UNIT[flavour])
            subprocess.run([os.path.join(SUITE, 'run.sh'), '--lib', lib, '--arch', arch, '--flavour', flavour,
                            '--cases', CASES, '--expected', d, '--out', d], capture_output=True)
            for name, (_, checks) in cases():
                dump = open(os.path.join(d, 'actual', name + '.out')).read()
                # a float the engine's own function returns: the platform's ABI
                by = ABI[arch] if name.startswith('start') and flavour != 'cgame' else flags
                for prefix, value in checks(by, behaviour):
                    lines = [l for l in dump.split('\n') if l.startswith(prefix) or l.startswith('C ')]
                    if not any(value in l for l in lines):
                        print('%s %s %s: expected %s in %s' % (flavour, arch, name, value, lines))
                        bad += 1
            outdirs[(flavour, arch)] = os.path.join(d, 'actual')
        if bad:
            sys.exit('gen_own.py: %d dumps do not show the reference values' % bad)
        variants = []
        for (flavour, arch), d in outdirs.items():
            variants.append('%s:%s=%s' % (flavour, arch, d))
            variants.append('%s:%s-windows=%s' % (flavour, arch, d))
        subprocess.run([sys.executable, os.path.join(SUITE, '..', 'gen', 'store_expected.py'), 'bg-rest', CASES, '--'] + variants, check=True)
        return
    sys.exit(__doc__)


main()
