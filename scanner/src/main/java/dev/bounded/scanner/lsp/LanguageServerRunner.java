package dev.bounded.scanner.lsp;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Runs {@code bounded lsp}: the server on a pair of streams until the editor sends {@code exit} or
 * closes the input, then stops every thread the server started. Exit codes follow the protocol: 0
 * when {@code shutdown} came first, 1 otherwise.
 */
public final class LanguageServerRunner {
  /** The exit code after {@code shutdown} and {@code exit}. */
  public static final int EXIT_OK = 0;

  /** The exit code when the server ends without {@code shutdown} first. */
  public static final int EXIT_WITHOUT_SHUTDOWN = 1;

  /** The default debounce delay: long enough to coalesce a burst of typing. */
  public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(150);

  private LanguageServerRunner() {}

  /**
   * What to run the server with.
   *
   * @param debounce how long a document must be left alone after a change before it is analysed
   * @param scheduler the clock of that delay; closed when the server stops
   * @param config the settings file (relative to the workspace root), or {@code null}
   * @param err where the server's messages go besides the editor's log (never standard output)
   */
  public record Options(Duration debounce, Scheduler scheduler, Path config, PrintStream err) {
    /**
     * Returns the defaults: {@link #DEFAULT_DEBOUNCE} on a thread of its own, no settings file
     * named, messages on {@code System.err}.
     *
     * @return the options
     */
    public static Options defaults() {
      return new Options(DEFAULT_DEBOUNCE, Scheduler.threaded(), null, System.err);
    }
  }

  /**
   * Serves one editor: reads the protocol from {@code in}, writes it to {@code out}, and returns
   * once the editor sent {@code exit} or closed {@code in}. Every thread the server started has
   * ended when this returns.
   *
   * @param in the editor's messages
   * @param out the server's messages (nothing else is written to it)
   * @param options the options
   * @return {@link #EXIT_OK} after {@code shutdown}, {@link #EXIT_WITHOUT_SHUTDOWN} otherwise
   * @throws InterruptedException if interrupted while waiting
   */
  public static int run(InputStream in, OutputStream out, Options options)
      throws InterruptedException {
    return run(
        in,
        out,
        new BoundedLanguageServer(
            options.debounce(), options.scheduler(), options.config(), options.err()),
        options.err());
  }

  /** Serves one editor with a server built by the caller (tests give it other rules). */
  static int run(InputStream in, OutputStream out, BoundedLanguageServer server, PrintStream err)
      throws InterruptedException {
    CompletableFuture<Void> inputClosed = new CompletableFuture<>();
    ThreadPoolExecutor reader =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(1),
            r -> {
              Thread t = new Thread(r, "bounded-lsp-reader");
              t.setDaemon(true);
              return t;
            }) {
          @Override
          protected void afterExecute(Runnable r, Throwable t) {
            inputClosed.complete(null); // the reader's one task, the message loop, has ended
          }
        };
    try {
      var launcher =
          new LSPLauncher.Builder<LanguageClient>()
              .setLocalService(server)
              .setRemoteInterface(LanguageClient.class)
              .setInput(in)
              .setOutput(out)
              .setExecutorService(reader)
              .create();
      server.connect(launcher.getRemoteProxy());
      Future<Void> listening = launcher.startListening();
      CompletableFuture.anyOf(server.exited(), inputClosed).join();
      listening.cancel(true);
      server.close();
    } finally {
      reader.shutdownNow();
      if (!reader.awaitTermination(10, TimeUnit.SECONDS)) {
        err.println("bounded: the protocol reader did not stop (input still open)");
      }
    }
    Integer code = server.exited().getNow(null);
    if (code != null) {
      return code;
    }
    return server.shutdownRequested() ? EXIT_OK : EXIT_WITHOUT_SHUTDOWN;
  }
}
