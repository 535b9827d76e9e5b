package dev.bounded.scanner.lsp;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.bounded.checks.rules.Rule;
import dev.bounded.scanner.Scanner;
import dev.bounded.scanner.Settings;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionOptions;
import org.eclipse.lsp4j.DidChangeWatchedFilesRegistrationOptions;
import org.eclipse.lsp4j.FileSystemWatcher;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Registration;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.SaveOptions;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.ServerInfo;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.TextDocumentSyncOptions;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageClientAware;
import org.eclipse.lsp4j.services.LanguageServer;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * Bounded's language server: wires the protocol's services to one {@link Workspace} on one worker
 * thread. Every analysis, index update and settings read runs on that thread, in the order the
 * editor's messages arrived; the protocol's thread only records documents and hands work on.
 * Nothing here writes to standard output: messages go to the editor's log and to the given error
 * stream.
 */
public final class BoundedLanguageServer implements LanguageServer, LanguageClientAware {
  /** Files indexed per turn of the worker, so that analyses are not held up by indexing. */
  static final int INDEX_BATCH = 64;

  /** How many tasks may wait for the worker. */
  static final int WORKER_QUEUE = 4096;

  /** The worker's stack: javaparser and the model recurse into nested expressions. */
  private static final long STACK_BYTES = 64L * 1024 * 1024;

  private final Path configOverride;
  private final Function<Settings, List<Rule>> rules;
  private final Scheduler scheduler;
  private final PrintStream err;
  private final ThreadPoolExecutor worker;
  private final Debouncer debouncer;
  private final BoundedTextDocumentService documents;
  private final BoundedWorkspaceService workspaceService;
  private final CompletableFuture<Integer> exited = new CompletableFuture<>();
  private volatile LanguageClient client;
  private volatile ClientCapabilities capabilities = new ClientCapabilities();
  private volatile boolean shutdownRequested;
  private Workspace workspace; // worker thread only

  /**
   * Creates a server.
   *
   * @param debounce how long a document must be left alone after a change before it is analysed
   * @param scheduler the clock of that delay (closed with the server)
   * @param configOverride the settings file, relative to the workspace root, or {@code null} for
   *     the editor's {@code initializationOptions.config}, else {@code bounded.properties} at the
   *     root
   * @param err where messages go besides the editor's log
   */
  public BoundedLanguageServer(
      Duration debounce, Scheduler scheduler, Path configOverride, PrintStream err) {
    this(debounce, scheduler, configOverride, err, Scanner::enabledRules);
  }

  /** A server running the given rules: tests give it a rule that fails. */
  BoundedLanguageServer(
      Duration debounce,
      Scheduler scheduler,
      Path configOverride,
      PrintStream err,
      Function<Settings, List<Rule>> rules) {
    this.rules = rules;
    this.configOverride = configOverride;
    this.scheduler = scheduler;
    this.err = err;
    // One thread, so that the workspace needs no locks. The queue holds about one analysis per
    // open document (the debouncer coalesces changes) besides the editor's requests; a full queue
    // rejects, and the rejected work is logged.
    this.worker =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(WORKER_QUEUE),
            r -> {
              Thread t = new Thread(null, r, "bounded-lsp-worker", STACK_BYTES);
              t.setDaemon(true);
              return t;
            });
    this.debouncer = new Debouncer(debounce, scheduler, worker);
    this.documents = new BoundedTextDocumentService(this);
    this.workspaceService = new BoundedWorkspaceService(this);
  }

  @Override
  public void connect(LanguageClient client) {
    this.client = client;
  }

  @Override
  public CompletableFuture<InitializeResult> initialize(InitializeParams params) {
    if (params.getCapabilities() != null) {
      capabilities = params.getCapabilities();
    }
    List<Path> folders = foldersOf(params);
    Path config = configOverride != null ? configOverride : configOption(params);
    return CompletableFuture.supplyAsync(
        () -> {
          workspace = new Workspace(folders, config, this::logError, rules);
          logInfo(
              "bounded: workspace "
                  + workspace.root()
                  + ", settings "
                  + workspace.configFile()
                  + " (read on change)");
          return new InitializeResult(serverCapabilities(), new ServerInfo("bounded", version()));
        },
        worker);
  }

  private static ServerCapabilities serverCapabilities() {
    ServerCapabilities caps = new ServerCapabilities();
    TextDocumentSyncOptions sync = new TextDocumentSyncOptions();
    sync.setOpenClose(true);
    sync.setChange(TextDocumentSyncKind.Incremental);
    sync.setSave(new SaveOptions(false));
    caps.setTextDocumentSync(sync);
    caps.setCodeActionProvider(new CodeActionOptions(List.of(CodeActionKind.QuickFix)));
    caps.setHoverProvider(true);
    return caps;
  }

  @Override
  public void initialized(InitializedParams params) {
    ClientCapabilities caps = capabilities;
    if (caps.getWorkspace() != null
        && caps.getWorkspace().getDidChangeWatchedFiles() != null
        && Boolean.TRUE.equals(
            caps.getWorkspace().getDidChangeWatchedFiles().getDynamicRegistration())) {
      runOnWorker(
          "registering file watchers",
          () -> {
            String configName = workspace.configFile().getFileName().toString();
            DidChangeWatchedFilesRegistrationOptions options =
                new DidChangeWatchedFilesRegistrationOptions(
                    List.of(
                        new FileSystemWatcher(Either.forLeft("**/*.java")),
                        new FileSystemWatcher(Either.forLeft("**/" + configName))));
            var unused =
                client
                    .registerCapability(
                        new RegistrationParams(
                            List.of(
                                new Registration(
                                    "bounded-watched-files",
                                    "workspace/didChangeWatchedFiles",
                                    options))))
                    .exceptionally(
                        e -> {
                          logError("bounded: the editor refused the file watchers: " + e);
                          return null;
                        });
          });
    }
    runOnWorker(
        "indexing the workspace", () -> indexBatch(workspace.javaFiles(), 0, System.nanoTime()));
  }

  /** Indexes one batch of files, then queues the next behind whatever arrived meanwhile. */
  private void indexBatch(List<Path> files, int from, long startNanos) {
    int to = Math.min(files.size(), from + INDEX_BATCH);
    for (int i = from; i < to; i++) {
      workspace.indexFromDisk(files.get(i));
    }
    if (to < files.size()) {
      runOnWorker("indexing the workspace", () -> indexBatch(files, to, startNanos));
      return;
    }
    logInfo(
        "bounded: indexed "
            + workspace.indexedFiles()
            + " files in "
            + Duration.ofNanos(System.nanoTime() - startNanos).toMillis()
            + " ms");
    documents.revalidateAll();
  }

  @Override
  public CompletableFuture<Object> shutdown() {
    shutdownRequested = true;
    debouncer.cancelAll();
    return CompletableFuture.supplyAsync(() -> null, worker);
  }

  @Override
  public void exit() {
    exited.complete(shutdownRequested ? 0 : 1);
  }

  @Override
  public TextDocumentService getTextDocumentService() {
    return documents;
  }

  @Override
  public WorkspaceService getWorkspaceService() {
    return workspaceService;
  }

  /**
   * Returns the exit code once the editor sent {@code exit}: 0 after {@code shutdown}, 1 without.
   *
   * @return a future completed by the {@code exit} notification
   */
  public CompletableFuture<Integer> exited() {
    return exited;
  }

  /**
   * Tells whether the editor asked the server to shut down.
   *
   * @return {@code true} after a {@code shutdown} request
   */
  public boolean shutdownRequested() {
    return shutdownRequested;
  }

  /**
   * Stops the debounce timer and the worker: queued work is dropped, the task under way (one file's
   * analysis) may finish, and only one that overruns 10 s is interrupted.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void close() throws InterruptedException {
    debouncer.cancelAll();
    scheduler.close();
    worker.getQueue().clear();
    worker.shutdown();
    if (!worker.awaitTermination(10, TimeUnit.SECONDS)) {
      worker.shutdownNow();
      if (!worker.awaitTermination(10, TimeUnit.SECONDS)) {
        logError("bounded: the analysis thread did not stop");
      }
    }
  }

  // --- for the services --------------------------------------------------------------------------

  Workspace workspace() {
    return workspace;
  }

  BoundedTextDocumentService documents() {
    return documents;
  }

  Debouncer debouncer() {
    return debouncer;
  }

  ClientCapabilities capabilities() {
    return capabilities;
  }

  LanguageClient client() {
    return client;
  }

  /** Runs a task on the worker; a failure is logged, never thrown at the protocol. */
  void runOnWorker(String what, Runnable task) {
    try {
      worker.execute(guarded(what, task));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      if (!worker.isShutdown()) {
        logError("bounded: too much work queued; dropped: " + what);
      }
    }
  }

  /**
   * Computes a request's answer on the worker; a failure is logged and answers {@code fallback}.
   */
  <T> CompletableFuture<T> supplyOnWorker(
      String what, java.util.function.Supplier<T> supplier, T fallback) {
    try {
      return CompletableFuture.supplyAsync(
          () -> {
            try {
              return supplier.get();
            } catch (RuntimeException | StackOverflowError e) {
              logError("bounded: internal error while " + what + ": " + e);
              return fallback;
            }
          },
          worker);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      return CompletableFuture.completedFuture(fallback);
    }
  }

  Runnable guarded(String what, Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException | StackOverflowError e) {
        logError("bounded: internal error while " + what + ": " + e);
      }
    };
  }

  void logInfo(String message) {
    log(MessageType.Log, message);
  }

  void logError(String message) {
    log(MessageType.Error, message);
  }

  private void log(MessageType type, String message) {
    err.println(message);
    LanguageClient c = client;
    if (c != null) {
      c.logMessage(new MessageParams(type, message));
    }
  }

  /** The path of a {@code file:} URI, or {@code null} for any other document. */
  static Path pathOf(String uri) {
    try {
      URI u = URI.create(uri);
      return "file".equalsIgnoreCase(u.getScheme()) ? Path.of(u) : null;
    } catch (IllegalArgumentException | FileSystemNotFoundException e) {
      return null;
    }
  }

  /** The workspace folders, else the root URI (deprecated in 3.17; older clients send it). */
  @SuppressWarnings("deprecation")
  private static List<Path> foldersOf(InitializeParams params) {
    List<Path> folders = new java.util.ArrayList<>();
    if (params.getWorkspaceFolders() != null) {
      for (var folder : params.getWorkspaceFolders()) {
        Path p = pathOf(folder.getUri());
        if (p != null) {
          folders.add(p);
        }
      }
    }
    if (folders.isEmpty() && params.getRootUri() != null) {
      Path p = pathOf(params.getRootUri());
      if (p != null) {
        folders.add(p);
      }
    }
    if (folders.isEmpty()) {
      folders.add(Path.of("").toAbsolutePath());
    }
    return folders;
  }

  private static Path configOption(InitializeParams params) {
    Object options = params.getInitializationOptions();
    if (options instanceof JsonObject o) {
      JsonElement e = o.get("config");
      if (e != null && e.isJsonPrimitive()) {
        String value = e.getAsString().strip();
        return value.isEmpty() ? null : Path.of(value);
      }
    }
    return null;
  }

  private static String version() {
    return dev.bounded.scanner.output.Version.VERSION;
  }
}
