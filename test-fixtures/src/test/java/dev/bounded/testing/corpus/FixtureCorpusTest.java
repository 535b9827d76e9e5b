package dev.bounded.testing.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.errorprone.CompilationTestHelper;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.Rules;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the shared fixture corpus through the compiler frontend (the Error Prone plugin), with the
 * runtime on the class path: every expected finding and no other, every fix pair exactly, and every
 * fixed file compiles with none of Bounded's findings left.
 */
final class FixtureCorpusTest {

  static Path corpus() {
    try {
      return Path.of(FixtureCorpusTest.class.getResource("/fixtures").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Class<? extends BugChecker> checker(String rule) {
    try {
      return (Class<? extends BugChecker>) Class.forName("dev.bounded.checks.javac." + rule);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("no Error Prone check for rule " + rule, e);
    }
  }

  private static List<Path> files(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The stubs of libraries that are not on the fixtures' class path ({@code stubs/reactor/}): added
   * to every fixture of several files.
   */
  private static List<Path> stubs() {
    try (Stream<Path> files = Files.walk(corpus().resolve("stubs"))) {
      return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The fixtures of several files in a rule's directory: directories compiled as one. */
  private static List<Path> cases(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(Files::isDirectory).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String[] lines(Path file) {
    try {
      return Files.readAllLines(file).toArray(new String[0]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void everyRuleHasPositiveNegativeAndWhereItFixesAFixPair() {
    for (Rule rule : Rules.all()) {
      Path dir = corpus().resolve(rule.name());
      assertThat(dir).as(rule.name()).isDirectory();
      List<Path> files = files(dir);
      assertThat(files)
          .as("%s has a file with expected findings", rule.name())
          .anySatisfy(f -> assertThat(String.join("\n", lines(f))).contains("// BUG: Diagnostic"));
      assertThat(files)
          .as("%s has a file without findings (near misses)", rule.name())
          .anySatisfy(
              f -> assertThat(String.join("\n", lines(f))).doesNotContain("// BUG: Diagnostic"));
    }
  }

  @TestFactory
  Stream<DynamicTest> identification() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Rule rule : Rules.all()) {
      for (Path file : files(corpus().resolve(rule.name()))) {
        if (file.getFileName().toString().endsWith(".fixed.java")) {
          continue;
        }
        tests.add(
            DynamicTest.dynamicTest(
                rule.name() + "/" + file.getFileName(),
                () ->
                    CompilationTestHelper.newInstance(checker(rule.name()), getClass())
                        .addSourceLines(file.getFileName().toString(), lines(file))
                        .doTest()));
      }
      for (Path dir : cases(corpus().resolve(rule.name()))) {
        tests.add(
            DynamicTest.dynamicTest(
                rule.name() + "/" + dir.getFileName() + "/",
                () -> {
                  List<Path> files = files(dir);
                  assertThat(files.size() + stubs().size())
                      .as("a fixture of several files (its own and the stubs)")
                      .isGreaterThan(1);
                  assertThat(files).as("a fixture's own files").isNotEmpty();
                  CompilationTestHelper helper =
                      CompilationTestHelper.newInstance(checker(rule.name()), getClass());
                  for (Path file : files) {
                    helper = helper.addSourceLines(file.getFileName().toString(), lines(file));
                  }
                  for (Path stub : stubs()) {
                    helper = helper.addSourceLines(stub.getFileName().toString(), lines(stub));
                  }
                  helper.doTest();
                }));
      }
    }
    return tests.stream();
  }

  private static List<Path> fixedFiles() {
    List<Path> fixed = new ArrayList<>();
    for (Rule rule : Rules.all()) {
      for (Path file : files(corpus().resolve(rule.name()))) {
        if (file.getFileName().toString().endsWith(".fixed.java")) {
          fixed.add(file);
        }
      }
    }
    return fixed;
  }

  /**
   * What -XepPatchLocation:IN_PLACE leaves must compile, and must not be reported again: each fixed
   * file (which {@link #fixes()} proves is exactly what the fix produces) is compiled with its
   * rule's check, its expectation comments dropped, and must compile with no finding of that rule.
   * Other rules may still have something to say about a fixture written for one rule (an
   * InterruptRetried fixture's untimed {@code get()}), so they are not asked here.
   */
  @TestFactory
  Stream<DynamicTest> everyFixedFileCompilesAndIsNotReportedAgain() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path fixed : fixedFiles()) {
      String name = fixed.getFileName().toString();
      String[] code =
          Stream.of(lines(fixed))
              .filter(l -> !l.strip().startsWith("// BUG:"))
              .toArray(String[]::new);
      tests.add(
          DynamicTest.dynamicTest(
              fixed.getParent().getFileName() + "/" + name + " compiles, no finding left",
              () ->
                  CompilationTestHelper.newInstance(
                          checker(fixed.getParent().getFileName().toString()), getClass())
                      .addSourceLines(name.replace(".fixed.java", ".java"), code)
                      .doTest()));
    }
    return tests.stream();
  }

  @Test
  void theFixCorpusCoversTheShapesWhereALeavingStatementMustStillCompile() {
    String all =
        String.join(
            "\n",
            fixedFiles().stream()
                .filter(f -> f.getParent().getFileName().toString().equals("InterruptRetried"))
                .map(f -> String.join("\n", lines(f)))
                .toList());
    assertThat(all)
        .as("void and non-void methods, while (true), for (;;), labelled loops")
        .contains(" void ", " String ", "while (true)", "for (;;)", "break retry;")
        .as("a loop that ends a method returning a value is left by a throw, not a break")
        .contains("throw new CancellationException(");
  }

  /**
   * Every fix pair exactly, character for character: the input is compiled as a build would compile
   * it with {@code -XepPatchChecks:<Rule> -XepPatchLocation:IN_PLACE}, and the rewritten file must
   * equal {@code X.fixed.java} (Error Prone's refactoring test helper compares after
   * google-java-format, which would hide layout: line width and line breaks are part of the fix).
   */
  @TestFactory
  Stream<DynamicTest> fixes() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Rule rule : Rules.all()) {
      for (Path fixed : files(corpus().resolve(rule.name()))) {
        String name = fixed.getFileName().toString();
        if (!name.endsWith(".fixed.java")) {
          continue;
        }
        Path input = fixed.resolveSibling(name.replace(".fixed.java", ".java"));
        tests.add(
            DynamicTest.dynamicTest(
                rule.name() + "/" + input.getFileName() + " -> " + name,
                () -> assertThat(patchedInPlace(rule.name(), input)).isEqualTo(read(fixed))));
      }
    }
    return tests.stream();
  }

  @Test
  void fixedFilesStayWithinOneHundredColumns() {
    for (Path fixed : fixedFiles()) {
      assertThat(lines(fixed))
          .as("%s: lines over 100 columns", fixed.getFileName())
          .allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(100));
    }
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file);
  }

  /** Compiles a copy of {@code input} with the rule's fixes applied in place; returns the copy. */
  private static String patchedInPlace(String rule, Path input) throws IOException {
    Path dir = Files.createTempDirectory("bounded-fix");
    try {
      Path copy = Files.copy(input, dir.resolve(input.getFileName()));
      Path classes = Files.createDirectory(dir.resolve("classes"));
      String classPath = System.getProperty("java.class.path");
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
      try (StandardJavaFileManager files =
          javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
        boolean compiled =
            javac
                .getTask(
                    new StringWriter(),
                    files,
                    diagnostics,
                    List.of(
                        "-d",
                        classes.toString(),
                        "-classpath",
                        classPath,
                        "-processorpath",
                        classPath,
                        "-proc:none",
                        "-XDcompilePolicy=simple",
                        "--should-stop=ifError=FLOW",
                        "-Xplugin:ErrorProne -XepDisableAllChecks -Xep:"
                            + rule
                            + ":WARN -XepPatchChecks:"
                            + rule
                            + " -XepPatchLocation:IN_PLACE"),
                    null,
                    files.getJavaFileObjects(copy))
                .call();
        assertThat(compiled).as("%s compiles: %s", input, diagnostics.getDiagnostics()).isTrue();
      }
      return Files.readString(copy);
    } finally {
      try (Stream<Path> walk = Files.walk(dir)) {
        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }
}
