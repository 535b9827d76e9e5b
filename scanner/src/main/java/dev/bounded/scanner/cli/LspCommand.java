package dev.bounded.scanner.cli;

import dev.bounded.scanner.lsp.LanguageServerRunner;
import dev.bounded.scanner.lsp.Scheduler;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bounded lsp}: the language server, on standard input and output. */
@Command(
    name = "lsp",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs Bounded's language server (LSP 3.17) on standard input and output, for editors:"
          + " diagnostics as you type, quick fixes, suppression, hovers. Start it from the editor,"
          + " not by hand; see docs/editors.md. Messages go to standard error and the editor's log."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the editor sent shutdown, then exit (or closed the input)",
      "1:the editor sent exit, or closed the input, without shutdown first",
      "2:usage error"
    })
final class LspCommand implements Callable<Integer> {
  /**
   * lsp4j's own log (java.util.logging, to standard error): warnings only, so that the end of the
   * input at exit is not reported as news. Held here: the logging framework keeps loggers weakly.
   */
  private static final Logger LSP4J_LOG = Logger.getLogger("org.eclipse.lsp4j");

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Bounded's settings file, relative to the workspace root (default: the editor's"
              + " initializationOptions.config, else bounded.properties at the root); read again"
              + " whenever it changes.")
  private Path config;

  @Option(
      names = "--debounce",
      paramLabel = "MILLIS",
      description = "Wait this long after the last change before analysing (default: 150).")
  private long debounceMillis = LanguageServerRunner.DEFAULT_DEBOUNCE.toMillis();

  @Override
  public Integer call() throws InterruptedException {
    if (debounceMillis < 0) {
      System.err.println("bounded: --debounce must not be negative");
      return ScanCommand.EXIT_ERROR;
    }
    // Standard output is the protocol's channel: keep the real one for it, and send anything else
    // that would print there (a library's stray println) to standard error.
    OutputStream protocol = new FileOutputStream(FileDescriptor.out);
    LSP4J_LOG.setLevel(Level.WARNING);
    PrintStream err =
        new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    System.setOut(err);
    // Through its channel, standard input is interruptible: the reader thread ends at exit even
    // while the editor keeps the pipe open.
    return LanguageServerRunner.run(
        Channels.newInputStream(new FileInputStream(FileDescriptor.in).getChannel()),
        protocol,
        new LanguageServerRunner.Options(
            Duration.ofMillis(debounceMillis), Scheduler.threaded(), config, err));
  }
}
