package dev.bounded.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Reactor fixtures are compiled with stubs of Reactor's types ({@code fixtures/stubs/reactor/},
 * see {@link Corpus#stubs()}); a real project's scan has no Reactor sources. Scanned without the
 * stubs, the scanner must still report every expected finding of the fixtures' rule, from its type
 * table alone.
 */
final class ReactorWithoutSourcesTest {
  private static final List<String> CASES =
      List.of(
          "UnboundedRetry/ReactorOperators",
          "RetryPolicyWithoutJitter/ReactorSpecs",
          "NestedRetry/ReactorLayers");

  @Test
  void theTypeTableAloneGivesEveryExpectedFinding(@TempDir Path tmp) throws IOException {
    for (String name : CASES) {
      Path dir = Corpus.root().resolve(name);
      String rule = Corpus.rule(dir);
      Path copy = Files.createDirectories(tmp.resolve(name));
      List<Path> copies = new ArrayList<>();
      Set<String> expected = new TreeSet<>();
      for (Path file : Corpus.filesOf(dir)) {
        String source = Corpus.read(file);
        Path copied = copy.resolve(file.getFileName().toString());
        Files.writeString(copied, source);
        copies.add(copied);
        String[] lines = source.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
          if (lines[i].strip().startsWith("// BUG: Diagnostic contains")) {
            expected.add(file.getFileName() + ":" + (i + 2));
          }
        }
      }
      assertThat(copies).as(name).isNotEmpty();
      assertThat(expected).as(name).isNotEmpty();
      Settings settings = Settings.defaults().withRuntimeAvailable(true);
      ScanReport report = new Scanner(settings, copy, 1, n -> {}).scan(copies);
      assertThat(report.problems()).as(name).isEmpty();
      Set<String> found =
          report.findings().stream()
              .filter(f -> f.rule().equals(rule))
              .map(f -> Path.of(f.path()).getFileName() + ":" + f.line())
              .collect(Collectors.toCollection(TreeSet::new));
      assertThat(found).as(name + ": the scanner without Reactor's sources").isEqualTo(expected);
    }
  }
}
