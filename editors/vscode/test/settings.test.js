// The extension's settings reach `uoanim lsp` as the server reads them:
// extension.js is loaded against stand-ins of the `vscode` and
// `vscode-languageclient` modules (no VS Code needed), the options it
// gives the language client are recorded, and the real server is started
// with them (UOANIM_BIN, default dist/bin/uoanim of the repository) over
// stdio on a mod the test writes: `uoanim.weapons` and `uoanim.allow`
// change its diagnostics as `check --weapons` and `check -A` do.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const Module = require('node:module');

// ---- the extension against stand-ins --------------------------------------------
function activateWith(settings) {
  const made = [];
  const stubs = {
    vscode: {
      workspace: {
        getConfiguration: (section) => {
          assert.strictEqual(section, 'uoanim');
          return { get: (key) => settings[key] };
        },
        createFileSystemWatcher: (glob) => ({ glob }),
      },
    },
    'vscode-languageclient/node': {
      LanguageClient: class {
        constructor(id, name, server, options) {
          made.push({ id, name, server, options });
        }
        start() { return Promise.resolve(); }
        stop() { return Promise.resolve(); }
      },
    },
  };
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return request in stubs ? request : resolve.call(this, request, ...rest);
  };
  for (const [name, exports] of Object.entries(stubs)) {
    require.cache[name] = { id: name, filename: name, loaded: true, exports };
  }
  const file = require.resolve('../extension.js');
  delete require.cache[file];
  try {
    require(file).activate({ subscriptions: [] });
  } finally {
    Module._resolveFilename = resolve;
  }
  assert.strictEqual(made.length, 1);
  return made[0];
}

// ---- a language client over stdio ---------------------------------------------
function server(bin, cwd) {
  const child = spawn(bin, ['lsp'], { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
  let buffer = Buffer.alloc(0);
  const waiting = [];
  const messages = [];
  child.stdout.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: *(\d+)/i.exec(buffer.slice(0, end).toString())[1]);
      if (buffer.length < end + 4 + length) return;
      messages.push(JSON.parse(buffer.slice(end + 4, end + 4 + length).toString()));
      buffer = buffer.slice(end + 4 + length);
      for (const w of waiting.splice(0)) w();
    }
  });
  const send = (m) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...m }));
    child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    child.stdin.write(body);
  };
  const next = async (pred) => {
    const deadline = Date.now() + 20000;
    for (;;) {
      const i = messages.findIndex(pred);
      if (i >= 0) return messages.splice(i, 1)[0];
      assert.ok(Date.now() < deadline, 'no reply from uoanim lsp');
      await new Promise((r) => { waiting.push(r); setTimeout(r, 200); });
    }
  };
  return { child, send, next };
}

async function diagnosticsWith(settings, mod, script) {
  const client = activateWith(settings);
  const bin = process.env.UOANIM_BIN || path.join(__dirname, '..', '..', '..', 'dist', 'bin', 'uoanim');
  assert.ok(fs.existsSync(bin), `no uoanim at ${bin}: build it (make) or give UOANIM_BIN`);
  assert.deepStrictEqual(client.server, { command: settings.path || 'uoanim', args: ['lsp'] });
  const s = server(bin, mod);
  const uri = 'file://' + script;
  s.send({ id: 1, method: 'initialize', params: { processId: null, rootUri: 'file://' + mod, capabilities: {}, initializationOptions: client.options.initializationOptions } });
  await s.next((m) => m.id === 1);
  s.send({ method: 'initialized', params: {} });
  s.send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'uoanim-script', version: 1, text: fs.readFileSync(script, 'utf8') } } });
  const d = await s.next((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri);
  s.send({ id: 2, method: 'shutdown', params: null });
  await s.next((m) => m.id === 2);
  s.send({ method: 'exit', params: null });
  const code = await new Promise((r) => s.child.on('exit', r));
  assert.strictEqual(code, 0);
  return d.params.diagnostics.map((x) => [x.code, x.range.start.line + 1]);
}

test('the settings reach the server as initialization options', async () => {
  const mod = fs.mkdtempSync(path.join(os.tmpdir(), 'uoanim-vscode-'));
  fs.mkdirSync(path.join(mod, 'mp'));
  const script = path.join(mod, 'mp', 'playeranim.script');
  // a weapon of the mod's own (not a stock name), and 'none' outside
  // WEAPONS (the none-bit0 warning)
  fs.writeFileSync(script, 'ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tweapons my_rifle_mp\n\t\t{\n\t\t\tboth a\n\t\t}\n\t\tmovetype none\n\t\t{\n\t\t\tboth b\n\t\t}\n\t}\n}\n');
  fs.writeFileSync(path.join(mod, 'weapons.txt'), 'my_rifle_mp\n');

  // the options as the extension gives them
  const client = activateWith({ path: '/opt/uoanim', weapons: 'weapons.txt', allow: ['none-bit0'], warn: ['and-union'], gameDirectory: '', modDirectory: '' });
  assert.deepStrictEqual(client.server, { command: '/opt/uoanim', args: ['lsp'] });
  assert.deepStrictEqual(client.options.initializationOptions, { modDirectory: '', gameDirectory: '', weapons: 'weapons.txt', allow: ['none-bit0'], warn: ['and-union'] });
  assert.deepStrictEqual(client.options.documentSelector, [{ language: 'uoanim-script' }, { language: 'uoanim-atr' }]);
  assert.strictEqual(client.options.synchronize.configurationSection, 'uoanim');
  // every setting package.json contributes is read (and only those)
  const contributed = Object.keys(require('../package.json').contributes.configuration.properties).map((k) => k.replace('uoanim.', '')).sort();
  const read = [];
  activateWith(new Proxy({}, { get: (_, key) => { read.push(key); return undefined; } }));
  assert.deepStrictEqual([...new Set(read)].sort(), contributed);

  // the server: without settings, the unknown weapon is an error and
  // 'none' a warning; with them, neither
  const plain = await diagnosticsWith({}, mod, script);
  assert.ok(plain.some(([c, l]) => c === 'parse' && l === 6), JSON.stringify(plain));
  assert.ok(plain.some(([c, l]) => c === 'none-bit0' && l === 10), JSON.stringify(plain));
  const set = await diagnosticsWith({ weapons: 'weapons.txt', allow: ['none-bit0'] }, mod, script);
  assert.ok(!set.some(([c]) => c === 'parse' || c === 'none-bit0'), JSON.stringify(set));
});
