package dev.bounded.scanner;

import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.Rules;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * What the outputs say about a rule: its summary, default level, tags, and its page under {@code
 * docs/rules/} (bundled in the scanner's jar).
 *
 * @param name the rule's name
 * @param summary one line
 * @param defaultSeverity the level when the settings do not say
 * @param tags the rule's tags
 * @param markdown the rule's page, or the summary when the page is not bundled
 */
public record RuleInfo(
    String name, String summary, Severity defaultSeverity, List<String> tags, String markdown) {

  private static final Properties PROPERTIES = load();

  /** Copies the list. */
  public RuleInfo {
    tags = List.copyOf(tags);
  }

  /**
   * Returns the metadata of every registered rule, in the registry's order.
   *
   * @return the rules' metadata
   */
  public static List<RuleInfo> all() {
    List<RuleInfo> all = new ArrayList<>();
    for (Rule rule : Rules.all()) {
      all.add(of(rule.name()));
    }
    return all;
  }

  /**
   * Returns a rule's metadata.
   *
   * @param name a rule name
   * @return its metadata; a rule the table does not describe is a warning with its name as summary
   */
  public static RuleInfo of(String name) {
    String summary = PROPERTIES.getProperty(name + ".summary", name);
    Severity level = Severity.parse(PROPERTIES.getProperty(name + ".level", "warning"));
    String tags = PROPERTIES.getProperty(name + ".tags", "");
    return new RuleInfo(
        name,
        summary,
        level,
        tags.isBlank() ? List.of() : Arrays.asList(tags.split("\\s*,\\s*")),
        page(name, summary));
  }

  /**
   * Returns the rule page's path in Bounded's repository.
   *
   * @return {@code docs/rules/<name>.md}
   */
  public String docsPath() {
    return "docs/rules/" + name + ".md";
  }

  private static String page(String name, String summary) {
    try (InputStream in = RuleInfo.class.getResourceAsStream("rules/" + name + ".md")) {
      return in == null ? summary : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Properties load() {
    Properties properties = new Properties();
    try (InputStream in = RuleInfo.class.getResourceAsStream("rules.properties")) {
      if (in != null) {
        properties.load(new InputStreamReader(in, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties;
  }
}
