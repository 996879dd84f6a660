#!/usr/bin/env python3
# The uoanim lsp re-check benchmark (docs/PERFORMANCE.md): usage
#   scripts/lsp-bench.py dist/bin/uoanim MODDIR   (MODDIR/mp/playeranim.script)
import json, subprocess, sys, time
exe, root = sys.argv[1], __import__("os").path.abspath(sys.argv[2])
p = subprocess.Popen([exe, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(m):
    b = json.dumps(m).encode(); p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b); p.stdin.flush()
def recv():
    h = {}
    while True:
        l = p.stdout.readline().strip()
        if not l: break
        k, v = l.split(b": "); h[k] = v
    return json.loads(p.stdout.read(int(h[b"Content-Length"])))
send({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"rootUri":"file://"+root}}); recv()
send({"jsonrpc":"2.0","method":"initialized","params":{}})
uri = "file://"+root+"/mp/playeranim.script"; text = open(root+"/mp/playeranim.script").read()
send({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":uri,"languageId":"x","version":1,"text":text}}}); recv()
ts = []
for i in range(50):
    t = text.replace("ANIMATIONS", "ANIMATIONS" if i % 2 else "ANIMATIONs", 1)
    t0 = time.perf_counter()
    send({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":uri,"version":i+2},"contentChanges":[{"text":t}]}})
    r = recv(); ts.append((time.perf_counter()-t0)*1000)
ts.sort(); print("re-check after a one-character edit: median %.1f ms, max %.1f ms (50 edits)" % (ts[len(ts)//2], ts[-1]))
send({"jsonrpc":"2.0","id":2,"method":"shutdown"}); recv(); send({"jsonrpc":"2.0","method":"exit"}); p.wait()
