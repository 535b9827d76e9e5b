package dev.bounded.scanner.lsp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bounded.checks.rules.Rule;
import dev.bounded.scanner.Scanner;
import dev.bounded.scanner.Settings;
import dev.bounded.scanner.javaparser.SourceFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionContext;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesCapabilities;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentEdit;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceClientCapabilities;
import org.eclipse.lsp4j.WorkspaceEdit;
import org.eclipse.lsp4j.WorkspaceEditCapabilities;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;

/**
 * The real server, run in-process by {@link LanguageServerRunner} on a pair of pipes, and an lsp4j
 * client talking to it. Waits are on events (a message arriving, a thread ending), each with a
 * generous timeout that a passing test never reaches.
 */
final class LspHarness implements AutoCloseable {
  /** Longer than any wait a passing test has: a bound, not a pace. */
  static final long TIMEOUT_SECONDS = 60;

  final Path root;
  final TestClient client = new TestClient();
  final LanguageServer server;
  final CompletableFuture<Integer> exitCode = new CompletableFuture<>();
  final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
  private final OutputStream toServer;
  private final Pipe.SinkChannel toServerSink;
  private final ExecutorService clientThreads;
  private final Thread serverThread;

  /** The editor's side: what the server sent it. */
  static final class TestClient implements LanguageClient {
    final BlockingQueue<PublishDiagnosticsParams> diagnostics = new LinkedBlockingQueue<>();
    final List<MessageParams> logs = new CopyOnWriteArrayList<>();
    final List<RegistrationParams> registrations = new CopyOnWriteArrayList<>();

    @Override
    public void telemetryEvent(Object object) {}

    @Override
    public void publishDiagnostics(PublishDiagnosticsParams params) {
      diagnostics.add(params);
    }

    @Override
    public void showMessage(MessageParams params) {
      logs.add(params);
    }

    @Override
    public CompletableFuture<MessageActionItem> showMessageRequest(
        ShowMessageRequestParams params) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public void logMessage(MessageParams params) {
      logs.add(params);
    }

    @Override
    public CompletableFuture<Void> registerCapability(RegistrationParams params) {
      registrations.add(params);
      return CompletableFuture.completedFuture(null);
    }

    boolean logged(String fragment) {
      return logs.stream().anyMatch(m -> m.getMessage().contains(fragment));
    }
  }

  private LspHarness(Path root, Scheduler scheduler, Function<Settings, List<Rule>> rules)
      throws IOException {
    this.root = root;
    Pipe up = Pipe.open();
    Pipe down = Pipe.open();
    toServerSink = up.sink();
    toServer = Channels.newOutputStream(up.sink());
    InputStream serverIn = Channels.newInputStream(up.source());
    OutputStream serverOut = Channels.newOutputStream(down.sink());
    InputStream clientIn = Channels.newInputStream(down.source());
    PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);
    BoundedLanguageServer real =
        new BoundedLanguageServer(Duration.ZERO, scheduler, null, err, rules);
    serverThread =
        new Thread(
            () -> {
              try {
                exitCode.complete(LanguageServerRunner.run(serverIn, serverOut, real, err));
              } catch (Throwable t) {
                exitCode.completeExceptionally(t);
              } finally {
                try {
                  serverOut.close();
                } catch (IOException e) {
                  // the client's side is gone too
                }
              }
            },
            "test-lsp-server");
    serverThread.start();
    // The client's one reader task.
    clientThreads =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(1),
            r -> new Thread(r, "test-lsp-client"));
    Launcher<LanguageServer> launcher =
        LSPLauncher.createClientLauncher(client, clientIn, toServer, clientThreads, null);
    var unused = launcher.startListening();
    server = launcher.getRemoteProxy();
  }

  static LspHarness start(Path root) throws IOException {
    return new LspHarness(root, Scheduler.threaded(), Scanner::enabledRules);
  }

  static LspHarness start(Path root, Scheduler scheduler) throws IOException {
    return new LspHarness(root, scheduler, Scanner::enabledRules);
  }

  static LspHarness start(Path root, Function<Settings, List<Rule>> rules) throws IOException {
    return new LspHarness(root, Scheduler.threaded(), rules);
  }

  /** Initializes as an editor that watches files and takes versioned edits. */
  InitializeResult initialize() throws Exception {
    return initialize(List.of(root));
  }

  /** Initializes with these workspace folders. */
  InitializeResult initialize(List<Path> folders) throws Exception {
    ClientCapabilities caps = new ClientCapabilities();
    WorkspaceClientCapabilities workspace = new WorkspaceClientCapabilities();
    workspace.setDidChangeWatchedFiles(new DidChangeWatchedFilesCapabilities(true));
    WorkspaceEditCapabilities edits = new WorkspaceEditCapabilities();
    edits.setDocumentChanges(true);
    workspace.setWorkspaceEdit(edits);
    caps.setWorkspace(workspace);
    InitializeParams params = new InitializeParams();
    params.setCapabilities(caps);
    params.setWorkspaceFolders(
        folders.stream()
            .map(f -> new WorkspaceFolder(f.toUri().toString(), f.getFileName().toString()))
            .toList());
    InitializeResult result = server.initialize(params).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    server.initialized(new InitializedParams());
    return result;
  }

  String uri(String relative) {
    return root.resolve(relative).toUri().toString();
  }

  void open(String uri, String text) {
    server
        .getTextDocumentService()
        .didOpen(new DidOpenTextDocumentParams(new TextDocumentItem(uri, "java", 1, text)));
  }

  void change(String uri, int version, String text) {
    server
        .getTextDocumentService()
        .didChange(
            new DidChangeTextDocumentParams(
                new VersionedTextDocumentIdentifier(uri, version),
                List.of(new TextDocumentContentChangeEvent(text))));
  }

  void save(String uri) {
    server
        .getTextDocumentService()
        .didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(uri)));
  }

  /** The next diagnostics of {@code uri} that match, skipping others. */
  PublishDiagnosticsParams awaitDiagnostics(String uri, Predicate<PublishDiagnosticsParams> match)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (true) {
      PublishDiagnosticsParams p =
          client.diagnostics.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (p == null) {
        throw new AssertionError("no matching diagnostics for " + uri + "; stderr: " + stderr);
      }
      if (p.getUri().equals(uri) && match.test(p)) {
        return p;
      }
    }
  }

  PublishDiagnosticsParams awaitDiagnostics(String uri, int version) throws InterruptedException {
    return awaitDiagnostics(uri, p -> p.getVersion() != null && p.getVersion() == version);
  }

  List<CodeAction> codeActions(String uri, Range range) throws Exception {
    List<CodeAction> actions = new ArrayList<>();
    for (Either<org.eclipse.lsp4j.Command, CodeAction> e :
        server
            .getTextDocumentService()
            .codeAction(
                new CodeActionParams(
                    new TextDocumentIdentifier(uri), range, new CodeActionContext(List.of())))
            .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      actions.add(e.getRight());
    }
    return actions;
  }

  Hover hover(String uri, Position position) throws Exception {
    return server
        .getTextDocumentService()
        .hover(new HoverParams(new TextDocumentIdentifier(uri), position))
        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  /** Bytes written straight onto the server's input, outside the protocol. */
  void writeRaw(String bytes) throws IOException {
    synchronized (toServer) {
      toServer.write(bytes.getBytes(StandardCharsets.UTF_8));
      toServer.flush();
    }
  }

  /** The editor closes the server's standard input. */
  void closeInput() throws IOException {
    toServerSink.close();
  }

  int awaitExit() throws Exception {
    return exitCode.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  /** Applies a workspace edit of one document to its text, as an editor would. */
  static String apply(String text, WorkspaceEdit edit) {
    List<TextEdit> edits = new ArrayList<>();
    if (edit.getDocumentChanges() != null) {
      for (Either<TextDocumentEdit, ?> change : edit.getDocumentChanges()) {
        edits.addAll(change.getLeft().getEdits());
      }
    } else {
      edit.getChanges().values().forEach(edits::addAll);
    }
    SourceFile lines = new SourceFile("", text);
    List<int[]> spans = new ArrayList<>();
    for (int i = 0; i < edits.size(); i++) {
      Range r = edits.get(i).getRange();
      spans.add(
          new int[] {Protocol.offset(lines, r.getStart()), Protocol.offset(lines, r.getEnd()), i});
    }
    spans.sort(Comparator.<int[]>comparingInt(s -> s[0]).thenComparingInt(s -> s[2]).reversed());
    StringBuilder out = new StringBuilder(text);
    for (int[] s : spans) {
      out.replace(s[0], s[1], edits.get(s[2]).getNewText());
    }
    return out.toString();
  }

  @Override
  public void close() {
    try {
      if (!exitCode.isDone()) {
        closeInput();
      }
      try {
        awaitExit();
      } finally {
        clientThreads.shutdownNow();
        assertThat(clientThreads.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        serverThread.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        assertNoServerThreadLeft();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Every thread the server started has ended (joined, not polled). */
  static void assertNoServerThreadLeft() throws InterruptedException {
    List<Thread> left = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("bounded-lsp")) {
        t.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        if (t.isAlive()) {
          left.add(t);
        }
      }
    }
    assertThat(left).as("server threads still running").isEmpty();
  }
}
