package dev.bounded.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.errorprone.BugPattern;
import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.Rules;
import org.junit.jupiter.api.Test;

/** The scanner's rule metadata says what each rule's {@code @BugPattern} says. */
final class RuleInfoTest {
  @Test
  void everyRuleHasItsBugPatternsSummaryLevelAndPage() throws ClassNotFoundException {
    for (Rule rule : Rules.all()) {
      BugPattern pattern =
          Class.forName("dev.bounded.checks.javac." + rule.name()).getAnnotation(BugPattern.class);
      RuleInfo info = RuleInfo.of(rule.name());
      assertThat(info.summary()).as(rule.name()).isEqualTo(pattern.summary());
      Severity expected =
          switch (pattern.severity()) {
            case ERROR -> Severity.ERROR;
            case WARNING -> Severity.WARNING;
            case SUGGESTION -> Severity.NOTE;
          };
      assertThat(info.defaultSeverity()).as(rule.name()).isEqualTo(expected);
      assertThat(info.markdown()).as(rule.name() + " page is bundled").startsWith("# ");
    }
  }

  @Test
  void linksToThePublishedPageOrUnderTheSettingsDocsUrl() {
    RuleInfo info = RuleInfo.of("InterruptSwallowed");
    assertThat(info.link(null))
        .startsWith("https://")
        .endsWith("/docs/rules/InterruptSwallowed.md")
        .doesNotContain("${");
    assertThat(info.link("https://docs.example.com/r/"))
        .isEqualTo("https://docs.example.com/r/InterruptSwallowed.md");
  }

  @Test
  void theExplanationIsThePageWithoutItsReferenceSections() {
    for (Rule rule : Rules.all()) {
      String explanation = RuleInfo.of(rule.name()).explanation();
      assertThat(explanation)
          .as(rule.name())
          .startsWith("# " + rule.name())
          .contains("## The problem")
          .doesNotContain("## Not reported")
          .doesNotContain("## Suppression")
          .doesNotContain("## Suggested fix");
    }
  }
}
