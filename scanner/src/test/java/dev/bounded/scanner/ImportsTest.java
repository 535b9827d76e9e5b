package dev.bounded.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bounded.checks.model.Edit;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Imports are looked for only before the first type declaration, where Java allows them. */
final class ImportsTest {
  private static final String SOURCE =
      """
      package demo;

      import java.util.List;

      public class A {
        String text = \"""
      import java.time.Duration;
      \""";
      }
      """;

  @Test
  void addsAnImportInSortedPlaceAndIgnoresLookalikesInTheBody() {
    List<Edit> edits = Imports.edits(SOURCE, Set.of("java.time.Duration"));
    assertThat(edits).hasSize(1);
    assertThat(edits.get(0).start()).isEqualTo(SOURCE.indexOf("import java.util.List;"));
    assertThat(edits.get(0).replacement()).isEqualTo("import java.time.Duration;\n");
  }

  @Test
  void removesOnlyImportLines() {
    assertThat(Imports.removals(SOURCE, Set.of("java.time.Duration"))).isEmpty();
    List<Edit> removals = Imports.removals(SOURCE, Set.of("java.util.List"));
    assertThat(removals).hasSize(1);
    assertThat(SOURCE.substring(removals.get(0).start(), removals.get(0).end()))
        .isEqualTo("import java.util.List;\n");
  }

  @Test
  void nothingToAddOrRemoveIsNoEdit() {
    assertThat(Imports.edits(SOURCE, Set.of())).isEmpty();
    assertThat(Imports.removals(SOURCE, Set.of())).isEmpty();
    assertThat(Imports.edits(SOURCE, Set.of("java.util.List"))).isEmpty();
  }
}
