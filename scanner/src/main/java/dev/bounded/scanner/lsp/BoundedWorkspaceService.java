package dev.bounded.scanner.lsp;

import java.nio.file.Path;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.FileChangeType;
import org.eclipse.lsp4j.FileEvent;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * The workspace's files as the editor watches them: a changed, created or deleted Java file updates
 * the declaration index; a changed settings file is read again. Either way the open documents are
 * analysed again.
 */
final class BoundedWorkspaceService implements WorkspaceService {
  private final BoundedLanguageServer server;

  BoundedWorkspaceService(BoundedLanguageServer server) {
    this.server = server;
  }

  @Override
  public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
    server.runOnWorker(
        "updating the index",
        () -> {
          Workspace ws = server.workspace();
          boolean changed = false;
          for (FileEvent event : params.getChanges()) {
            Path path = BoundedLanguageServer.pathOf(event.getUri());
            if (path == null) {
              continue;
            }
            path = path.toAbsolutePath().normalize();
            if (path.equals(ws.configFile())) {
              changed |= ws.refreshSettings();
            } else if (path.toString().endsWith(".java")) {
              if (event.getType() == FileChangeType.Deleted) {
                ws.forget(path);
              } else {
                ws.indexFromDisk(path);
              }
              changed = true;
            }
          }
          if (changed) {
            server.documents().revalidateAll();
          }
        });
  }

  @Override
  public void didChangeConfiguration(DidChangeConfigurationParams params) {
    server.runOnWorker(
        "reading the settings",
        () -> {
          if (server.workspace().refreshSettings()) {
            server.documents().revalidateAll();
          }
        });
  }
}
