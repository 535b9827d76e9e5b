package dev.bounded.testing.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.Rules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the shared fixture corpus through the compiler frontend (the Error Prone plugin), with the
 * runtime on the class path: every expected finding and no other, and every fix pair exactly.
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
    }
    return tests.stream();
  }

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
                () ->
                    BugCheckerRefactoringTestHelper.newInstance(checker(rule.name()), getClass())
                        .addInputLines(input.getFileName().toString(), lines(input))
                        .addOutputLines(input.getFileName().toString(), lines(fixed))
                        .doTest(TestMode.TEXT_MATCH)));
      }
    }
    return tests.stream();
  }
}
