package dev.bounded.checks.javac;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Where each check's page lives; diagnostics link to it. The published location is set in one
 * place, the parent POM's {@code bounded.docs.rules} property, and reaches this class through the
 * filtered resource {@code docs.properties}; {@code -XepOpt:Bounded:DocsUrl} overrides it.
 */
final class Docs {
  /**
   * The rule pages, relative to the root of Bounded's repository: the {@code @BugPattern} link of
   * each check (a compile-time constant). Diagnostics link to {@link #template()} instead.
   */
  static final String RULES = "docs/rules/";

  /** The placeholder for the rule's name in a link template. */
  static final String RULE = "{rule}";

  private static final String TEMPLATE = load();

  private Docs() {}

  /**
   * Returns the published link template, with {@value #RULE} for the rule's name.
   *
   * @return the template
   */
  static String template() {
    return TEMPLATE;
  }

  /**
   * Returns the link template a {@code DocsUrl} flag value stands for: the value itself when it
   * contains {@value #RULE}, otherwise a base to which the rule's name is appended (no {@code .md}
   * is added: a documentation site serves its own page names).
   *
   * @param value the flag's value, not blank
   * @return the template
   */
  static String templateFromFlag(String value) {
    if (value.contains(RULE)) {
      return value;
    }
    return (value.endsWith("/") ? value : value + "/") + RULE;
  }

  /**
   * Returns the link for one rule.
   *
   * @param template a link template
   * @param rule the rule's name
   * @return the link
   */
  static String page(String template, String rule) {
    return template.replace(RULE, rule);
  }

  private static String load() {
    Properties properties = new Properties();
    try (InputStream in = Docs.class.getResourceAsStream("docs.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String rules = properties.getProperty("rules", "");
    // Unfiltered (an IDE build that skipped Maven's resource filtering): the repository path.
    return rules.isBlank() || rules.contains("${") ? RULES + RULE + ".md" : rules.strip();
  }
}
