package dev.bounded.checks.javac;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.errorprone.BugPattern;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.Rules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every rule is registered with Error Prone under its own name, links to its page, and has one. */
final class RegistryTest {
  private static final Path DOCS = Path.of("../docs/rules");

  static List<Class<? extends BugChecker>> registered() {
    return ServiceLoader.load(BugChecker.class).stream()
        .map(ServiceLoader.Provider::type)
        .filter(c -> c.getPackageName().equals("dev.bounded.checks.javac"))
        .toList();
  }

  @Test
  void everyRuleHasExactlyOneCheckOfTheSameName() {
    assertThat(registered().stream().map(Class::getSimpleName))
        .containsExactlyInAnyOrderElementsOf(Rules.all().stream().map(Rule::name).toList());
  }

  @ParameterizedTest
  @MethodSource("registered")
  void linksToItsOwnPage(Class<? extends BugChecker> check) {
    BugPattern pattern = check.getAnnotation(BugPattern.class);

    assertThat(pattern.name()).as("the name defaults to the class name").isEmpty();
    assertThat(pattern.linkType()).isEqualTo(BugPattern.LinkType.CUSTOM);
    assertThat(pattern.link()).isEqualTo("docs/rules/" + check.getSimpleName() + ".md");
    assertThat(pattern.summary()).doesNotEndWith(".").doesNotContain("\n");
  }

  @ParameterizedTest
  @MethodSource("registered")
  void hasAPageThatExplainsTheProblemTheFixAndSuppression(Class<? extends BugChecker> check)
      throws IOException {
    Path page = DOCS.resolve(check.getSimpleName() + ".md");

    assertThat(page).exists();
    String text = Files.readString(page);
    assertThat(text)
        .startsWith("# " + check.getSimpleName() + "\n")
        .contains("## The problem", "## Suggested fix", "## Not reported", "## Suppression")
        .contains("@SuppressWarnings(\"" + check.getSimpleName() + "\")")
        .contains(check.getAnnotation(BugPattern.class).severity().name());
    assertThat(Files.readString(DOCS.resolve("README.md")))
        .contains("(" + check.getSimpleName() + ".md)");
  }

  @Test
  void checksCanBeInstantiatedWithoutFlagsForTheServiceLoader() {
    assertThat(ServiceLoader.load(BugChecker.class).stream().map(ServiceLoader.Provider::get))
        .hasSizeGreaterThanOrEqualTo(Rules.all().size());
  }
}
