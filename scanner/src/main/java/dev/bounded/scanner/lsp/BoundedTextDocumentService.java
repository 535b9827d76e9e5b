package dev.bounded.scanner.lsp;

import dev.bounded.scanner.ScanFinding;
import dev.bounded.scanner.javaparser.ParsedFile;
import dev.bounded.scanner.javaparser.SourceFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.TextDocumentService;

/**
 * The documents the editor has open: their text kept in step with its changes (full or incremental)
 * on the protocol's thread, their analysis, quick fixes and hovers on the worker.
 */
final class BoundedTextDocumentService implements TextDocumentService {
  private final BoundedLanguageServer server;
  private final Map<String, Document> open = new ConcurrentHashMap<>();

  /**
   * An open document's text.
   *
   * @param uri its URI, as the editor spells it
   * @param text the current text
   * @param version the editor's version of it
   */
  record Document(String uri, String text, int version) {}

  BoundedTextDocumentService(BoundedLanguageServer server) {
    this.server = server;
  }

  @Override
  public void didOpen(DidOpenTextDocumentParams params) {
    var doc = params.getTextDocument();
    open.put(doc.getUri(), new Document(doc.getUri(), doc.getText(), doc.getVersion()));
    server.runOnWorker("analysing " + doc.getUri(), () -> validate(doc.getUri()));
  }

  @Override
  public void didChange(DidChangeTextDocumentParams params) {
    String uri = params.getTextDocument().getUri();
    Document doc = open.get(uri);
    if (doc == null) {
      server.logError("bounded: a change to " + uri + ", which is not open: ignored");
      return;
    }
    String text = doc.text();
    for (TextDocumentContentChangeEvent change : params.getContentChanges()) {
      text = apply(text, change);
    }
    Integer version = params.getTextDocument().getVersion();
    open.put(uri, new Document(uri, text, version == null ? doc.version() + 1 : version));
    server.debouncer().submit(uri, server.guarded("analysing " + uri, () -> validate(uri)));
  }

  /** One content change: the whole text, or a range replaced. */
  static String apply(String text, TextDocumentContentChangeEvent change) {
    if (change.getRange() == null) {
      return change.getText();
    }
    SourceFile lines = new SourceFile("", text);
    int start = Protocol.offset(lines, change.getRange().getStart());
    int end = Math.max(start, Protocol.offset(lines, change.getRange().getEnd()));
    return text.substring(0, start) + change.getText() + text.substring(end);
  }

  @Override
  public void didClose(DidCloseTextDocumentParams params) {
    String uri = params.getTextDocument().getUri();
    open.remove(uri);
    server.debouncer().cancel(uri);
    server.runOnWorker(
        "closing " + uri,
        () -> {
          server.workspace().close(uri);
          LanguageClient client = server.client();
          if (client != null) {
            client.publishDiagnostics(new PublishDiagnosticsParams(uri, List.of()));
          }
        });
  }

  @Override
  public void didSave(DidSaveTextDocumentParams params) {
    String uri = params.getTextDocument().getUri();
    server.runOnWorker("indexing " + uri, () -> saved(uri));
  }

  /** A saved document: the settings file is read again; a Java file's declarations indexed. */
  private void saved(String uri) {
    Path path = BoundedLanguageServer.pathOf(uri);
    Workspace ws = server.workspace();
    if (path == null || ws == null) {
      return;
    }
    if (path.toAbsolutePath().normalize().equals(ws.configFile())) {
      if (ws.refreshSettings()) {
        revalidateAll();
      }
      return;
    }
    if (!path.toString().endsWith(".java")) {
      return;
    }
    Workspace.Analysis analysis = current(uri);
    if (analysis != null) {
      ws.index(path, analysis.file());
    } else {
      ws.indexFromDisk(path);
    }
    revalidateAll();
  }

  /** Analyses every open document again (the index or the settings changed). */
  void revalidateAll() {
    for (String uri : open.keySet()) {
      server.runOnWorker("analysing " + uri, () -> validate(uri));
    }
  }

  /**
   * Analyses a document's current text and publishes its diagnostics. A text that does not parse
   * publishes nothing: the editor keeps showing the last good diagnostics.
   */
  void validate(String uri) {
    Workspace ws = server.workspace();
    if (ws == null) {
      return; // before initialize: the editor broke the protocol's order
    }
    if (ws.refreshSettings()) {
      revalidateAll();
      return;
    }
    current(uri);
  }

  /**
   * The analysis of a document's current version, computed (and published) if the last one is
   * older; {@code null} if the document is closed or its current text does not parse.
   */
  private Workspace.Analysis current(String uri) {
    Document doc = open.get(uri);
    Workspace ws = server.workspace();
    if (doc == null || ws == null) {
      return null;
    }
    Workspace.Analysis last = ws.lastAnalysis(uri);
    if (last != null && ws.isCurrent(last, doc.version(), doc.text())) {
      return last;
    }
    Workspace.Analysis analysis;
    try {
      analysis = ws.analyse(uri, BoundedLanguageServer.pathOf(uri), doc.text(), doc.version());
    } catch (Workspace.UnparsableException e) {
      server.logInfo(
          "bounded: "
              + uri
              + " (version "
              + doc.version()
              + "): "
              + e.getMessage()
              + "; keeping the last diagnostics");
      return null;
    }
    publish(uri, analysis);
    return analysis;
  }

  private void publish(String uri, Workspace.Analysis analysis) {
    String docsUrl = server.workspace().settings().docsUrl();
    List<Diagnostic> diagnostics = new ArrayList<>();
    for (ScanFinding f : analysis.findings()) {
      diagnostics.add(Protocol.diagnostic(f, docsUrl));
    }
    LanguageClient client = server.client();
    if (client != null) {
      client.publishDiagnostics(new PublishDiagnosticsParams(uri, diagnostics, analysis.version()));
    }
  }

  @Override
  public CompletableFuture<List<Either<Command, CodeAction>>> codeAction(CodeActionParams params) {
    String uri = params.getTextDocument().getUri();
    List<String> only = params.getContext() == null ? null : params.getContext().getOnly();
    if (only != null
        && !only.isEmpty()
        && only.stream()
            .noneMatch(k -> CodeActionKind.QuickFix.startsWith(k) || k.startsWith("quickfix"))) {
      return CompletableFuture.completedFuture(List.of());
    }
    return server.supplyOnWorker(
        "computing code actions for " + uri, () -> codeActions(uri, params), List.of());
  }

  private List<Either<Command, CodeAction>> codeActions(String uri, CodeActionParams params) {
    Workspace.Analysis analysis = current(uri);
    List<Either<Command, CodeAction>> actions = new ArrayList<>();
    if (analysis == null) {
      return actions; // no fix against a text that does not parse: its offsets are stale
    }
    SourceFile source = analysis.source();
    int start = Protocol.offset(source, params.getRange().getStart());
    int end = Protocol.offset(source, params.getRange().getEnd());
    String docsUrl = server.workspace().settings().docsUrl();
    boolean versioned = supportsVersionedEdits(server.capabilities());
    List<CodeAction> suppressions = new ArrayList<>();
    for (ScanFinding f : analysis.findings()) {
      if (!Protocol.touches(f, start, end)) {
        continue;
      }
      Diagnostic d = Protocol.diagnostic(f, docsUrl);
      for (CodeAction a : Protocol.quickFixes(uri, analysis.version(), f, d, versioned)) {
        actions.add(Either.forRight(a));
      }
      ParsedFile.Suppression s = analysis.file().suppression(f.start(), f.rule());
      if (s != null) {
        suppressions.add(Protocol.suppress(uri, analysis.version(), f, d, s, source, versioned));
      }
    }
    for (CodeAction a : suppressions) {
      actions.add(Either.forRight(a));
    }
    return actions;
  }

  private static boolean supportsVersionedEdits(ClientCapabilities caps) {
    return caps.getWorkspace() != null
        && caps.getWorkspace().getWorkspaceEdit() != null
        && Boolean.TRUE.equals(caps.getWorkspace().getWorkspaceEdit().getDocumentChanges());
  }

  @Override
  public CompletableFuture<Hover> hover(HoverParams params) {
    String uri = params.getTextDocument().getUri();
    return server.supplyOnWorker(
        "computing the hover for " + uri,
        () -> {
          Workspace.Analysis analysis = current(uri);
          if (analysis == null) {
            return null;
          }
          int at = Protocol.offset(analysis.source(), params.getPosition());
          List<ScanFinding> here = new ArrayList<>();
          for (ScanFinding f : analysis.findings()) {
            if (Protocol.touches(f, at, at)) {
              here.add(f);
            }
          }
          return here.isEmpty()
              ? null
              : Protocol.hover(here, analysis.source(), server.workspace().settings().docsUrl());
        },
        null);
  }
}
