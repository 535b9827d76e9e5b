import dev.bounded.scanner.ScanReport;
import dev.bounded.scanner.Scanner;
import dev.bounded.scanner.Settings;
import dev.bounded.scanner.javaparser.JavaParserFrontend;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;

/**
 * Latency of `bounded lsp` from didChange to publishDiagnostics on a generated 2,000-line file,
 * warm, against comparisons measured in the same run on the same text: a bare javaparser parse,
 * the scanner's one-file scan in-process (warm), and `bounded scan FILE` as a fresh process.
 *
 * <p>The server is the real one, a child process started as an editor starts it ({@code java
 * -jar bounded-scanner-all.jar lsp --debounce 0}); this JVM is the editor (lsp4j's client).
 *
 * <p>java -cp bounded-scanner-all.jar:. LspLatency JAR OUT_DIR [WARMUP] [RUNS]
 */
public final class LspLatency {
  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args[0]);
    Path out = Path.of(args[1]);
    int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    int runs = args.length > 3 ? Integer.parseInt(args[3]) : 300;
    Path ws = Files.createTempDirectory("bounded-lsp-bench");
    Path file = ws.resolve("src/bench/Generated.java");
    Files.createDirectories(file.getParent());
    String text = generate(2000);
    Files.writeString(file, text);
    long lines = text.lines().count();

    // --- the server, as an editor runs it --------------------------------------------------------
    Process server =
        new ProcessBuilder("java", "-XX:+UseSerialGC", "-jar", jar.toString(), "lsp", "--debounce", "0")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    Map<Integer, CompletableFuture<PublishDiagnosticsParams>> waiting = new ConcurrentHashMap<>();
    LanguageClient client =
        new LanguageClient() {
          @Override
          public void telemetryEvent(Object o) {}

          @Override
          public void publishDiagnostics(PublishDiagnosticsParams p) {
            CompletableFuture<PublishDiagnosticsParams> f = waiting.remove(p.getVersion());
            if (f != null) {
              f.complete(p);
            }
          }

          @Override
          public void showMessage(MessageParams m) {}

          @Override
          public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams p) {
            return CompletableFuture.completedFuture(null);
          }

          @Override
          public void logMessage(MessageParams m) {}
        };
    var launcher = LSPLauncher.createClientLauncher(client, server.getInputStream(), server.getOutputStream());
    launcher.startListening();
    LanguageServer remote = launcher.getRemoteProxy();
    InitializeParams init = new InitializeParams();
    init.setCapabilities(new ClientCapabilities());
    init.setWorkspaceFolders(List.of(new WorkspaceFolder(ws.toUri().toString(), "bench")));
    remote.initialize(init).get(60, TimeUnit.SECONDS);
    remote.initialized(new InitializedParams());
    String uri = file.toUri().toString();
    CompletableFuture<PublishDiagnosticsParams> first = new CompletableFuture<>();
    waiting.put(1, first);
    remote.getTextDocumentService().didOpen(new DidOpenTextDocumentParams(new TextDocumentItem(uri, "java", 1, text)));
    int findings = first.get(60, TimeUnit.SECONDS).getDiagnostics().size();

    // Interleaved, so that the three see the same load: one round is a change through the server,
    // a bare parse of the same text, and the scanner's one-file scan of it.
    double[] lsp = new double[runs];
    double[] parse = new double[runs];
    double[] scan = new double[runs];
    // CPU time too: on a shared machine the wall time mostly measures the queue for a core. The
    // server's is its whole process's (every thread, GC and JIT included) over the measured runs.
    double[] parseCpu = new double[runs];
    java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
    java.time.Duration serverCpuBefore = java.time.Duration.ZERO;
    int scanFindings = 0;
    int version = 1;
    String line10 = text.lines().skip(9).findFirst().orElseThrow();
    org.eclipse.lsp4j.Position endOf10 = new org.eclipse.lsp4j.Position(9, line10.length());
    for (int i = 0; i < warmup + runs; i++) {
      version++;
      // A keystroke's worth of change, as editors send it (incremental): a comment at the end of
      // line 10, then gone again.
      boolean add = version % 2 == 0;
      TextDocumentContentChangeEvent change =
          add
              ? new TextDocumentContentChangeEvent(new org.eclipse.lsp4j.Range(endOf10, endOf10), " // x")
              : new TextDocumentContentChangeEvent(
                  new org.eclipse.lsp4j.Range(endOf10, new org.eclipse.lsp4j.Position(9, line10.length() + 5)), "");
      CompletableFuture<PublishDiagnosticsParams> done = new CompletableFuture<>();
      waiting.put(version, done);
      if (i == warmup) {
        serverCpuBefore = server.toHandle().info().totalCpuDuration().orElseThrow();
      }
      long t0 = System.nanoTime();
      remote.getTextDocumentService().didChange(new DidChangeTextDocumentParams(
          new VersionedTextDocumentIdentifier(uri, version), List.of(change)));
      PublishDiagnosticsParams p = done.get(60, TimeUnit.SECONDS);
      long t1 = System.nanoTime();
      if (p.getDiagnostics().size() != findings) {
        throw new IllegalStateException("findings changed: " + p.getDiagnostics().size());
      }
      long c1 = cpu.getCurrentThreadCpuTime();
      JavaParserFrontend.parse(text);
      long t2 = System.nanoTime();
      long c2 = cpu.getCurrentThreadCpuTime();
      ScanReport r = new Scanner(Settings.defaults(), ws, 1, n -> {}).scan(List.of(file));
      long t3 = System.nanoTime();
      scanFindings = r.findings().size();
      if (i >= warmup) {
        lsp[i - warmup] = (t1 - t0) / 1e6;
        parse[i - warmup] = (t2 - t1) / 1e6;
        scan[i - warmup] = (t3 - t2) / 1e6;
        parseCpu[i - warmup] = (c2 - c1) / 1e6;
      }
    }
    double serverCpuPerChange =
        server.toHandle().info().totalCpuDuration().orElseThrow().minus(serverCpuBefore).toNanos()
            / 1e6 / runs;
    remote.shutdown().get(60, TimeUnit.SECONDS);
    remote.exit();
    int exit = server.waitFor();

    int processRuns = 5;
    double[] process = new double[processRuns];
    for (int i = 0; i < processRuns; i++) {
      long t0 = System.nanoTime();
      Process p = new ProcessBuilder("java", "-XX:+UseSerialGC", "-jar", jar.toString(), "scan", "--fail-on", "never", file.toString())
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      p.waitFor();
      process[i] = (System.nanoTime() - t0) / 1e6;
    }
    String load = Files.exists(Path.of("/proc/loadavg")) ? Files.readString(Path.of("/proc/loadavg")).strip() : "n/a";
    int cores = Runtime.getRuntime().availableProcessors();

    StringBuilder report = new StringBuilder();
    report.append(String.format("file: %d lines, %d chars, %d findings (scan: %d); server exit code %d%n",
        lines, text.length(), findings, scanFindings, exit));
    report.append(String.format("warm-up %d, measured %d, interleaved (process scan: %d runs); %d cores, load average at the end: %s%n", warmup, runs, processRuns, cores, load));
    report.append(String.format("%-44s %9s %9s %9s%n", "measure (ms)", "median", "p90", "min"));
    row(report, "lsp didChange -> publishDiagnostics", lsp);
    row(report, "bare javaparser parse (in-process, warm)", parse);
    row(report, "scanner one-file scan (in-process, warm)", scan);
    row(report, "bounded scan FILE (fresh process)", process);
    report.append(String.format("CPU ms: server process per change (mean, all threads) %.2f; bare parse (median, one thread) %.2f%n",
        serverCpuPerChange, median(parseCpu)));
    report.append(String.format("ratio server CPU per change / bare parse CPU: %.2f%n", serverCpuPerChange / median(parseCpu)));
    report.append(String.format("ratio lsp / bare parse (median): %.2f%n", median(lsp) / median(parse)));
    report.append(String.format("ratio lsp / in-process scan (median): %.2f%n", median(lsp) / median(scan)));
    report.append(String.format("ratio lsp / bare parse (min): %.2f%n", min(lsp) / min(parse)));
    System.out.print(report);
    Files.createDirectories(out);
    String date = java.time.LocalDate.now().toString();
    Files.writeString(out.resolve("lsp-" + date + ".txt"), report.toString());
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("lsp-" + date + ".tsv"), StandardCharsets.UTF_8))) {
      w.println("measure\trun\tms");
      raw(w, "lsp", lsp);
      raw(w, "parse", parse);
      raw(w, "scan", scan);
      raw(w, "process", process);
      raw(w, "parse-cpu", parseCpu);
      w.printf("server-cpu-per-change-mean\t-\t%.3f%n", serverCpuPerChange);
    }
  }

  private static void raw(PrintWriter w, String name, double[] values) {
    for (int i = 0; i < values.length; i++) {
      w.printf("%s\t%d\t%.3f%n", name, i, values[i]);
    }
  }

  private static void row(StringBuilder out, String name, double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    out.append(String.format("%-44s %9.2f %9.2f %9.2f%n", name, median(values), s[(int) Math.ceil(0.9 * s.length) - 1], s[0]));
  }

  private static double min(double[] values) {
    return Arrays.stream(values).min().orElseThrow();
  }

  private static double median(double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /**
   * A service class of about {@code lines} lines: methods of ordinary code (loops, conditions,
   * string building), and every fifth a retry loop, some with findings (a swallowed interrupt, a
   * fresh timeout per attempt, a catch of Exception that goes round again).
   */
  static String generate(int lines) {
    StringBuilder b = new StringBuilder();
    b.append("package bench;\n\n")
        .append("import java.util.ArrayList;\n")
        .append("import java.util.List;\n")
        .append("import java.util.concurrent.ExecutionException;\n")
        .append("import java.util.concurrent.Future;\n")
        .append("import java.util.concurrent.TimeUnit;\n")
        .append("import java.util.concurrent.TimeoutException;\n\n")
        .append("public class Generated {\n")
        .append("  private final List<String> log = new ArrayList<>();\n\n");
    int m = 0;
    while (b.chars().filter(c -> c == '\n').count() < lines - 20) {
      switch (m % 5) {
        case 0 -> b.append("""
              int sum%1$d(int[] values) {
                int total = 0;
                for (int i = 0; i < values.length; i++) {
                  if (values[i] %% 2 == 0) {
                    total += values[i];
                  } else {
                    total -= values[i] / 3;
                  }
                }
                log.add("sum%1$d " + total);
                return total;
              }

            """.formatted(m));
        case 1 -> b.append("""
              String describe%1$d(List<String> names) {
                StringBuilder out = new StringBuilder();
                for (String n : names) {
                  if (n.isEmpty()) {
                    continue;
                  }
                  out.append(n.trim()).append(',');
                }
                return out.length() == 0 ? "none" : out.substring(0, out.length() - 1);
              }

            """.formatted(m));
        case 2 -> b.append("""
              void pause%1$d(long millis) {
                try {
                  Thread.sleep(millis);
                } catch (InterruptedException ignored) {
                }
              }

            """.formatted(m));
        case 3 -> b.append("""
              String fetch%1$d(Future<String> future) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return future.get(5, TimeUnit.SECONDS);
                  } catch (TimeoutException e) {
                    log.add("attempt " + attempt + " timed out");
                  }
                }
                throw new IllegalStateException("gave up");
              }

            """.formatted(m));
        default -> b.append("""
              int parse%1$d(String s) {
                try {
                  return Integer.parseInt(s.strip());
                } catch (NumberFormatException e) {
                  log.add("not a number: " + s);
                  return -1;
                }
              }

            """.formatted(m));
      }
      m++;
    }
    b.append("}\n");
    return b.toString();
  }
}
