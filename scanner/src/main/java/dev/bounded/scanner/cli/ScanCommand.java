package dev.bounded.scanner.cli;

import dev.bounded.scanner.Baseline;
import dev.bounded.scanner.ChangedLines;
import dev.bounded.scanner.FixApplier;
import dev.bounded.scanner.RuleInfo;
import dev.bounded.scanner.ScanFinding;
import dev.bounded.scanner.ScanProblem;
import dev.bounded.scanner.ScanReport;
import dev.bounded.scanner.Scanner;
import dev.bounded.scanner.Settings;
import dev.bounded.scanner.Severity;
import dev.bounded.scanner.UnifiedDiff;
import dev.bounded.scanner.output.GithubReportWriter;
import dev.bounded.scanner.output.JsonReportWriter;
import dev.bounded.scanner.output.RdjsonReportWriter;
import dev.bounded.scanner.output.ReportWriter;
import dev.bounded.scanner.output.SarifReportWriter;
import dev.bounded.scanner.output.TextReportWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bounded scan}: the classpath-free CI gate. */
@Command(
    name = "scan",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Scans Java sources without building them: indexes the declarations of every file first,"
          + " then runs Bounded's rules on each method."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:no finding at or above --fail-on",
      "1:findings at or above --fail-on",
      "2:usage error, or an input that could not be scanned (reported on stderr)"
    })
final class ScanCommand implements Callable<Integer> {
  static final int EXIT_OK = 0;
  static final int EXIT_FINDINGS = 1;
  static final int EXIT_ERROR = 2;

  /** The output formats. */
  enum Format {
    text,
    json,
    sarif,
    rdjson,
    github
  }

  /** When to use colour in text output. */
  enum Color {
    auto,
    always,
    never
  }

  @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

  private final Path workingDirectory;

  ScanCommand(Path workingDirectory) {
    this.workingDirectory = workingDirectory.toAbsolutePath().normalize();
  }

  @Parameters(
      paramLabel = "PATH",
      arity = "0..*",
      description = "Files or directories to scan (default: the current directory).")
  private List<Path> paths = new ArrayList<>();

  @Option(
      names = {"-f", "--format"},
      paramLabel = "FORMAT",
      description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  private Format format = Format.text;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write the report to FILE instead of standard output.")
  private Path output;

  @Option(
      names = "--fail-on",
      paramLabel = "LEVEL",
      description =
          "Lowest level that fails the scan: error, warning, note or never (default: warning).")
  private String failOn = "warning";

  @Option(
      names = "--baseline",
      paramLabel = "FILE",
      description = "Report only findings not recorded in this baseline file.")
  private Path baseline;

  @Option(
      names = "--write-baseline",
      paramLabel = "FILE",
      description = "Record the current findings in FILE (to review and commit) and exit 0.")
  private Path writeBaseline;

  @Option(
      names = "--new-since",
      paramLabel = "GIT_REF",
      description =
          "Report only findings on lines changed since GIT_REF (git diff), for pull requests.")
  private String newSince;

  @Option(names = "--fix", description = "Apply the suggested fixes in place.")
  private boolean fix;

  @Option(
      names = "--patch",
      paramLabel = "FILE",
      description =
          "Write the suggested fixes as a unified diff (git apply, from the repository root).")
  private Path patch;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Bounded's settings file (rule levels, non-idempotent, idempotent and timeout methods,"
              + " idempotency-key headers); the Error Prone plugin reads the same file.")
  private Path config;

  @Option(names = "--rules", description = "List the rules and their levels, and exit.")
  private boolean listRules;

  @Option(
      names = "--exclude",
      paramLabel = "GLOB",
      description =
          "Leave out paths matching GLOB, relative to the current directory (repeatable).")
  private List<String> excludes = new ArrayList<>();

  @Option(
      names = {"-j", "--jobs"},
      paramLabel = "N",
      description = "Files to work on at once (default: the number of cores).")
  private int jobs = Runtime.getRuntime().availableProcessors();

  @Option(
      names = "--docs-url",
      paramLabel = "URL",
      description = "Where the rule pages are published, for links in SARIF and rdjson.")
  private String docsUrl;

  @Option(
      names = "--color",
      paramLabel = "WHEN",
      description = "Colour in text output: auto (a terminal), always or never.")
  private Color color = Color.auto;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter out = spec.commandLine().getOut();
    Path base = workingDirectory;
    config = resolve(config);
    output = resolve(output);
    baseline = resolve(baseline);
    writeBaseline = resolve(writeBaseline);
    patch = resolve(patch);
    Settings settings;
    Severity threshold;
    try {
      settings = config == null ? Settings.defaults() : Settings.read(config);
      settings = settings.with(excludes, docsUrl);
      threshold = failOn.equalsIgnoreCase("never") ? null : Severity.parse(failOn);
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    } catch (IOException e) {
      return usage(err, "cannot read settings " + config + ": " + e.getMessage());
    }
    if (listRules) {
      for (RuleInfo info : RuleInfo.all()) {
        out.printf(
            "%-28s %-8s %s%n", info.name(), settings.severity(info.name()).id(), info.summary());
      }
      return EXIT_OK;
    }
    if (jobs < 1) {
      return usage(err, "--jobs must be at least 1");
    }
    Baseline accepted = null;
    if (baseline != null) {
      try {
        accepted = Baseline.read(baseline);
      } catch (IOException e) {
        return usage(
            err,
            "cannot read baseline "
                + baseline
                + " (create it with --write-baseline): "
                + e.getMessage());
      } catch (IllegalArgumentException e) {
        return usage(err, e.getMessage());
      }
    }
    ChangedLines changed = null;
    if (newSince != null) {
      try {
        changed = ChangedLines.since(base, newSince);
      } catch (IOException e) {
        return usage(err, "--new-since " + newSince + ": " + e.getMessage());
      }
    }
    List<Path> roots = paths.isEmpty() ? List.of(Path.of(".")) : paths;
    Progress progress = new Progress(err, Terminal.isInteractive());
    ScanReport report = new Scanner(settings, base, jobs, progress::update).scan(roots);
    progress.done();
    for (ScanProblem p : report.problems()) {
      err.println(p.path() + ": " + (p.isError() ? "" : "note: ") + p.message());
    }
    List<ScanFinding> kept = new ArrayList<>();
    for (ScanFinding f : report.findings()) {
      if (changed != null && !changed.changed(base.resolve(f.path()), f.line())) {
        continue;
      }
      if (accepted != null && accepted.contains(f)) {
        continue;
      }
      kept.add(f);
    }
    report = report.withFindings(kept);
    if (writeBaseline != null) {
      Baseline.write(writeBaseline, report.findings());
      err.println(
          "Wrote a baseline of " + report.findings().size() + " findings to " + writeBaseline);
      return EXIT_OK;
    }
    if (fix || patch != null) {
      report = applyFixes(report, base, err);
    }
    writeReport(report, base, out);
    if (report.hasInputErrors()) {
      return EXIT_ERROR;
    }
    boolean failing =
        threshold != null
            && report.findings().stream().anyMatch(f -> f.severity().atLeast(threshold));
    return failing ? EXIT_FINDINGS : EXIT_OK;
  }

  private ScanReport applyFixes(ScanReport report, Path base, PrintWriter err) throws IOException {
    Map<String, List<ScanFinding>> byFile = FixApplier.byFile(report.findings());
    Set<ScanFinding> fixed = new java.util.HashSet<>();
    StringBuilder diff = new StringBuilder();
    Path root = gitRoot(base);
    int files = 0;
    for (Map.Entry<String, List<ScanFinding>> e : byFile.entrySet()) {
      Path file = base.resolve(e.getKey());
      String before = Files.readString(file, StandardCharsets.UTF_8);
      FixApplier.Result result = FixApplier.apply(before, e.getValue());
      if (result.applied().isEmpty() || result.text().equals(before)) {
        continue;
      }
      files++;
      fixed.addAll(result.applied());
      String shown =
          root.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
      diff.append(UnifiedDiff.of(shown, before, result.text()));
      if (fix) {
        Files.writeString(file, result.text(), StandardCharsets.UTF_8);
      }
    }
    if (patch != null) {
      Files.writeString(patch, diff.toString(), StandardCharsets.UTF_8);
      err.println(
          "Wrote fixes for " + fixed.size() + " findings in " + files + " files to " + patch);
    }
    if (fix) {
      err.println("Fixed " + fixed.size() + " findings in " + files + " files.");
      return report.withFindings(
          report.findings().stream().filter(f -> !fixed.contains(f)).collect(Collectors.toList()));
    }
    return report;
  }

  private static Path gitRoot(Path base) {
    Path root = dev.bounded.scanner.ScannerPaths.gitRoot(base);
    return root == null ? base : root;
  }

  private void writeReport(ScanReport report, Path base, PrintWriter stdout) throws IOException {
    boolean tty = output == null && Terminal.isInteractive() && System.getenv("NO_COLOR") == null;
    ReportWriter writer =
        switch (format) {
          case text -> new TextReportWriter(color == Color.always || (color == Color.auto && tty));
          case json -> new JsonReportWriter();
          case sarif -> new SarifReportWriter(base, docsUrlOf());
          case rdjson -> new RdjsonReportWriter(docsUrlOf());
          case github -> new GithubReportWriter();
        };
    if (output == null) {
      writer.write(report, stdout);
      stdout.flush();
    } else {
      try (Writer w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
        writer.write(report, w);
      }
    }
  }

  private String docsUrlOf() {
    if (docsUrl == null) {
      return null;
    }
    return docsUrl.endsWith("/") ? docsUrl : docsUrl + "/";
  }

  private Path resolve(Path path) {
    return path == null ? null : workingDirectory.resolve(path);
  }

  private static int usage(PrintWriter err, String message) {
    err.println("bounded: " + message);
    return EXIT_ERROR;
  }

  /** Progress on stderr, only when a terminal is attached and the scan is long. */
  private static final class Progress {
    private final PrintWriter err;
    private final boolean enabled;
    private boolean shown;

    Progress(PrintWriter err, boolean enabled) {
      this.err = err;
      this.enabled = enabled;
    }

    synchronized void update(int done) {
      if (enabled && done % 500 == 0) {
        err.print("\rbounded: " + done + " files...");
        err.flush();
        shown = true;
      }
    }

    synchronized void done() {
      if (shown) {
        err.print("\r\u001b[K");
        err.flush();
      }
    }
  }
}
