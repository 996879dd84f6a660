#!/usr/bin/env python3
"""Re-encode mutants of game files so that a case carries no game data.

    encode_mutants.py pa DATADIR CASE...    (playeranim.script mutants)
    encode_mutants.py at DATADIR CASE...    (stock .atr mutants)

The generators write a mutant of a game file with its bytes inline (pa:
`patch OFFSET DELETE N` + N bytes; at: `atr NAME LEN` + LEN bytes).  The
bytes are mostly the game file's own, which the repository does not hold.
This rewrites each such block, in place, as a list of pieces: `=OFF+LEN`
copies LEN bytes of the pristine game file from OFF, `+LEN` takes the next
LEN bytes of the (now short) literal blob after the line, and `~OFF+LEN`
copies from the game file with every LF turned into CR LF (a mutation the
generators make):

    pa:  patchx OFFSET DELETE PIECE...   + literal bytes + newline
    at:  atrx NAME RELPATH PIECE...      + literal bytes + newline

The drivers assemble the same bytes and count the same case lines, so the
expected outputs do not change (run.sh checks that).  DATADIR is the game
data directory (pa: playeranim.script; at: animtrees/*.atr).
"""
import os
import re
import sys

K = 16  # shortest copied run


def index_of(src):
    idx = {}
    for i in range(len(src) - K + 1):
        idx.setdefault(src[i:i + K], []).append(i)
    return idx


def pieces(data, src, idx):
    """greedy longest-match encoding of data against src and its CRLF variant"""
    crlf = src.replace(b'\n', b'\r\n')
    variants = (('=', src, idx), ('~', crlf, index_of(crlf)))
    out, lit, i = [], bytearray(), 0
    while i < len(data):
        best_kind, best_off, best_len = '', -1, 0
        for kind, s, ix in variants:
            for off in ix.get(data[i:i + K], ())[:64]:
                n = K
                while i + n < len(data) and off + n < len(s) and data[i + n] == s[off + n]:
                    n += 1
                if n > best_len:
                    best_kind, best_off, best_len = kind, off, n
        if best_len >= K:
            out.append((best_kind, best_off, best_len))
            i += best_len
        else:
            if out and out[-1][0] == '+':
                out[-1] = ('+', 0, out[-1][2] + 1)
            else:
                out.append(('+', 0, 1))
            lit.append(data[i])
            i += 1
    toks = ['%s%d+%d' % (k, o, n) if k != '+' else '+%d' % n for k, o, n in out]
    assert rebuild(toks, src, bytes(lit)) == data
    return toks, bytes(lit)


def rebuild(toks, src, lit):
    out, lp = bytearray(), 0
    crlf = src.replace(b'\n', b'\r\n')
    for t in toks:
        if t[0] in '=~':
            o, n = map(int, t[1:].split('+'))
            out += (src if t[0] == '=' else crlf)[o:o + n]
        else:
            n = int(t[1:])
            out += lit[lp:lp + n]
            lp += n
    assert lp == len(lit)
    return bytes(out)


def encode_pa(datadir, path):
    src = open(os.path.join(datadir, 'playeranim.script'), 'rb').read()
    idx = index_of(src)
    data = open(path, 'rb').read()
    out, pos = bytearray(), 0
    while pos < len(data):
        end = data.find(b'\n', pos)
        end = len(data) if end < 0 else end
        line = data[pos:end]
        pos = end + 1
        w = line.split()
        if w[:1] == [b'patch'] and len(w) == 4:
            n = int(w[3])
            blob = data[pos:pos + n]
            pos += n + 1
            toks, lit = pieces(blob, src, idx)
            out += b'patchx %s %s %s\n' % (w[1], w[2], ' '.join(toks).encode()) + lit + b'\n'
        else:
            out += line + b'\n'
    if not data.endswith(b'\n'):
        out = out[:-1]
    return bytes(out)


def encode_at(datadir, path):
    data = open(path, 'rb').read()
    m = re.match(rb'# mutant of stock (\S+\.atr)', data)
    if not m:
        return data
    rel = 'stock/animtrees/' + m.group(1).decode()
    src = open(os.path.join(datadir, 'animtrees', m.group(1).decode()), 'rb').read()
    idx = index_of(src)
    out, pos = bytearray(), 0
    while pos < len(data):
        end = data.find(b'\n', pos)
        end = len(data) if end < 0 else end
        line = data[pos:end]
        pos = end + 1
        w = line.split()
        if w[:1] == [b'atr'] and len(w) == 3:
            n = int(w[2])
            blob = data[pos:pos + n]
            pos += n + 1
            toks, lit = pieces(blob, src, idx)
            out += b'atrx %s %s %s\n' % (w[1], rel.encode(), ' '.join(toks).encode()) + lit + b'\n'
        else:
            out += line + b'\n'
    if not data.endswith(b'\n'):
        out = out[:-1]
    return bytes(out)


def main():
    kind, datadir, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
    enc = {'pa': encode_pa, 'at': encode_at}[kind]
    for c in cases:
        new = enc(datadir, c)
        with open(c, 'wb') as f:
            f.write(new)


if __name__ == '__main__':
    main()
