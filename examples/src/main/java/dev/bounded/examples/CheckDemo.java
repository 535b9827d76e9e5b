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
          "NonIdempotentRetry");

  private final PrintStream out;

  private CheckDemo(PrintStream out) {
    this.out = out;
  }

  /**
   * Checks the sources in a directory and prints the findings and the suggested patch.
   *
   * @param args the directory of Java sources to check
   * @throws IOException if the sources cannot be read or the patch not written
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: CheckDemo <directory of Java sources>");
      System.exit(2);
    }
    int findings = new CheckDemo(System.out).run(Path.of(args[0]));
    System.out.println();
    System.out.println(
        findings == 0
            ? "No findings."
            : findings
                + " findings. The same diagnostics appear in any build that adds"
                + " bounded-checks to Error Prone's processor path (see the README).");
  }

  private int run(Path sources) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(sources)) {
      files = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
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
    out.println("Bounded's checks on " + sources + " (" + files.size() + " files):");
    out.println();
    List<Diagnostic<? extends JavaFileObject>> found = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() != Diagnostic.Kind.NOTE || d.getMessage(Locale.ROOT).startsWith("[")) {
        found.add(d);
      }
    }
    found.sort(
        Comparator.comparing((Diagnostic<? extends JavaFileObject> d) -> d.getSource().getName())
            .thenComparingLong(Diagnostic::getLineNumber));
    for (Diagnostic<? extends JavaFileObject> d : found) {
      String file = Path.of(d.getSource().getName()).getFileName().toString();
      String message = d.getMessage(Locale.ROOT);
      int linkAt = message.indexOf("\n");
      out.println(
          file
              + ":"
              + d.getLineNumber()
              + ": "
              + message.substring(0, linkAt < 0 ? message.length() : linkAt));
      out.println("    " + sourceLine(d).strip());
    }
    if (!compiled) {
      out.println("(the sources did not compile; see the errors above)");
    }
    Path patch = patchDir.resolve("error-prone.patch");
    if (Files.exists(patch)) {
      out.println();
      out.println("Suggested fixes, as the patch Error Prone wrote with -XepPatchChecks:");
      out.println();
      for (String line : Files.readAllLines(patch)) {
        if (line.startsWith("--- ") || line.startsWith("+++ ")) {
          // Error Prone writes paths relative to the patch's directory: show the source's path.
          line = line.substring(0, 4) + sources.resolve(line.substring(line.lastIndexOf('/') + 1));
        }
        out.println(line);
      }
    }
    deleteRecursively(output);
    deleteRecursively(patchDir);
    return found.size();
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
