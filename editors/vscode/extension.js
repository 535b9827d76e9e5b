// Starts `bounded lsp` for Java files and hands it to VS Code's language client.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration('bounded');
  const [command, ...args] = settings.get('command');
  const config = settings.get('config');
  client = new LanguageClient(
    'bounded',
    'Bounded',
    { command, args },
    {
      documentSelector: [{ scheme: 'file', language: 'java' }],
      // The server registers its own file watchers (*.java and the settings file).
      initializationOptions: config ? { config } : {},
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
