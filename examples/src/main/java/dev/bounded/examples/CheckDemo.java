package dev.bounded.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles the sample order service with Error Prone and Bounded's checks, as a build would, and
 * prints what they find and the fixes they suggest (as the patch Error Prone writes).
 *
 * <p>Run by the README's main command; needs the javac internals opened to Error Prone (the exec
 * configuration in the examples pom passes them) and Error Prone and the checks on the class path.
 */
public final class CheckDemo {
  private static final List<String> CHECKS =
      List.of(
          "InterruptRetried",
          "InterruptSwallowed",
          "UnclassifiedRetry",
          "UnclassifiedExceptionRetry",
          "PerAttemptTimeout",
          "UnboundedSubmission",
          "UnboundedExecutor",
          "NonIdempotentRetry",
          "UnboundedRetry",
          "UnboundedBackgroundRetry",
          "BackoffWithoutJitter",
          "UncappedBackoff",
          "RetryPolicyWithoutJitter",
          "CancellationRetried",
          "UntimedWait",
          "UnownedExecutor",
          "NestedRetry");

  private static final String SUGGESTED_FIX = ". Suggested fix: ";

  private final Terminal out;
  private final Path root;

  private CheckDemo(PrintStream out, Path root) {
    this.out = new Terminal(out);
    this.root = root;
  }

  /**
   * Checks the sources in a directory and prints the findings and the suggested patch.
   *
   * @param args the directory of Java sources to check, and the repository's root (paths are shown
   *     relative to it)
   * @throws IOException if the sources cannot be read or the patch not written
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: CheckDemo <directory of Java sources> <repository root>");
      System.exit(2);
    }
    Path root = Path.of(args[1]).toAbsolutePath().normalize();
    CheckDemo demo = new CheckDemo(System.out, root);
    demo.run(Path.of(args[0]).toAbsolutePath().normalize());
  }

  private void run(Path sources) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(sources)) {
      files = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
    out.wrapped(
        "",
        "Compiling " + shown(sources) + " (" + files.size() + " files) with Bounded's checks...",
        "");
    Path output = Files.createTempDirectory("bounded-demo-classes");
    Path patchDir = Files.createTempDirectory("bounded-demo-patch");
    String classPath = System.getProperty("java.class.path");
    List<String> options =
        List.of(
            "-d",
            output.toString(),
            "-classpath",
            classPath,
            "-processorpath",
            classPath,
            "-proc:none",
            "-XDcompilePolicy=simple",
            "--should-stop=ifError=FLOW",
            "-Xplugin:ErrorProne -XepDisableAllChecks"
                + " -Xep:UnclassifiedExceptionRetry:WARN"
                + checksAsWarnings()
                + " -XepPatchChecks:"
                + String.join(",", CHECKS)
                + " -XepPatchLocation:"
                + patchDir);
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    boolean compiled;
    try (StandardJavaFileManager fileManager =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      compiled =
          javac
              .getTask(
                  new StringWriter(),
                  fileManager,
                  diagnostics,
                  options,
                  null,
                  fileManager.getJavaFileObjectsFromPaths(files))
              .call();
    }
    List<Diagnostic<? extends JavaFileObject>> found = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() != Diagnostic.Kind.NOTE || d.getMessage(Locale.ROOT).startsWith("[")) {
        found.add(d);
      }
    }
    found.sort(
        Comparator.comparing((Diagnostic<? extends JavaFileObject> d) -> d.getSource().getName())
            .thenComparingLong(Diagnostic::getLineNumber));
    int withFix = 0;
    String file = null;
    for (Diagnostic<? extends JavaFileObject> d : found) {
      String path = shown(Path.of(d.getSource().toUri()));
      if (!path.equals(file)) {
        out.println();
        out.raw(path);
        file = path;
      }
      // "[Check] message. Suggested fix: ...", then Error Prone's link and "Did you mean" lines.
      String message = d.getMessage(Locale.ROOT);
      int end = message.indexOf('\n');
      String text = message.substring(0, end < 0 ? message.length() : end);
      String fix = null;
      int fixAt = text.indexOf(SUGGESTED_FIX);
      if (fixAt >= 0) {
        fix = text.substring(fixAt + SUGGESTED_FIX.length());
        text = text.substring(0, fixAt);
        withFix++;
      }
      String line = String.format(Locale.ROOT, "%4d: ", d.getLineNumber());
      out.wrapped(line, text, "      ");
      out.wrapped("      code: ", sourceLine(d).strip(), "            ");
      out.wrapped(
          "      fix:  ",
          fix == null ? "none: the right change is the author's call" : fix,
          "            ");
    }
    if (!compiled) {
      out.println();
      out.wrapped("(the sources did not compile; see the errors above)");
    }
    out.println();
    out.wrapped(
        "",
        found.size()
            + " findings, "
            + withFix
            + " with a suggested fix. The same diagnostics appear in any build that adds"
            + " bounded-checks to Error Prone's processor path (see the README).",
        "");
    Path patch = patchDir.resolve("error-prone.patch");
    if (Files.exists(patch)) {
      out.println();
      out.wrapped(
          "",
          "The suggested fixes, as the patch Error Prone writes with -XepPatchChecks (paths from"
              + " the repository root; apply with patch -p0 -u -i error-prone.patch):",
          "");
      out.println();
      for (String patchLine : Files.readAllLines(patch)) {
        if (patchLine.startsWith("--- ") || patchLine.startsWith("+++ ")) {
          // Written relative to the patch's directory: shown from the repository root.
          String name = patchLine.substring(patchLine.lastIndexOf('/') + 1);
          patchLine = patchLine.substring(0, 4) + shown(sources.resolve(name));
        }
        out.raw(patchLine);
      }
    }
    deleteRecursively(output);
    deleteRecursively(patchDir);
  }

  /** A path as shown: from the repository's root. */
  private String shown(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    return absolute.startsWith(root) ? root.relativize(absolute).toString() : absolute.toString();
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static String checksAsWarnings() {
    StringBuilder flags = new StringBuilder();
    for (String check : CHECKS) {
      flags.append(" -Xep:").append(check).append(":WARN");
    }
    return flags.toString();
  }

  private static String sourceLine(Diagnostic<? extends JavaFileObject> d) {
    try {
      long line = d.getLineNumber();
      return line < 1
          ? ""
          : d.getSource()
              .getCharContent(true)
              .toString()
              .lines()
              .skip(line - 1)
              .findFirst()
              .orElse("");
    } catch (IOException e) {
      return "";
    }
  }
}
