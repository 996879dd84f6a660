// Starts `uoanim lsp` for mp/playeranim.script and .atr files.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('uoanim');
  const command = config.get('path') || 'uoanim';
  const server = { command, args: ['lsp'] };
  client = new LanguageClient('uoanim', 'uoanim', server, {
    documentSelector: [{ language: 'uoanim-script' }, { language: 'uoanim-atr' }],
    initializationOptions: {
      modDirectory: config.get('modDirectory') || '',
      gameDirectory: config.get('gameDirectory') || '',
      weapons: config.get('weapons') || '',
      allow: config.get('allow') || [],
      warn: config.get('warn') || [],
    },
    // Files changed on disk (another editor, an archive rebuilt): the
    // server reads the mod again; the settings changed: it checks again.
    synchronize: {
      configurationSection: 'uoanim',
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{script,atr,pk3,iwd}'),
    },
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
