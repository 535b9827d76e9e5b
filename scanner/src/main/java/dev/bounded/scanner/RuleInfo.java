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
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

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

  private static final Properties PROPERTIES = load("rules.properties");

  /** Each rule's metadata, read once (its page is a resource of the jar). */
  private static final Map<String, RuleInfo> CACHE = new ConcurrentHashMap<>();

  /** The sections of a rule page that are reference, not explanation: left out of a hover. */
  private static final List<String> REFERENCE_SECTIONS =
      List.of("## Not reported", "## Suggested fix", "## Flags", "## Suppression");

  /** The published page of each rule, {@code {rule}} standing for its name. */
  private static final String LINK_TEMPLATE = linkTemplate();

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
    return CACHE.computeIfAbsent(name, RuleInfo::read);
  }

  private static RuleInfo read(String name) {
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

  /**
   * Returns the link to the rule's page: under the settings' {@code docsUrl} when there is one (as
   * SARIF's {@code helpUri}), otherwise the page the project publishes.
   *
   * @param docsUrl where the rule pages live, ending in {@code /}, or {@code null}
   * @return the link
   */
  public String link(String docsUrl) {
    return docsUrl != null ? docsUrl + name + ".md" : LINK_TEMPLATE.replace("{rule}", name);
  }

  /**
   * Returns the explanation of the rule for a reader of one finding (an editor's hover): its page
   * up to the reference sections (what is not reported, the fix, flags, suppression).
   *
   * @return Markdown
   */
  public String explanation() {
    StringBuilder out = new StringBuilder();
    boolean inFence = false;
    for (String line : markdown.split("\\R", -1)) {
      if (line.startsWith("```")) {
        inFence = !inFence;
      }
      if (!inFence && REFERENCE_SECTIONS.stream().anyMatch(line::startsWith)) {
        break;
      }
      out.append(line).append('\n');
    }
    return out.toString().strip();
  }

  private static String page(String name, String summary) {
    try (InputStream in = RuleInfo.class.getResourceAsStream("rules/" + name + ".md")) {
      return in == null ? summary : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String linkTemplate() {
    String rules = load("links.properties").getProperty("rules", "");
    // Unfiltered (an IDE build that skipped Maven's resource filtering): the repository's pages.
    return rules.isBlank() || rules.contains("${")
        ? "https://github.com/bounded-dev/bounded/blob/main/docs/rules/{rule}.md"
        : rules.strip();
  }

  private static Properties load(String resource) {
    Properties properties = new Properties();
    try (InputStream in = RuleInfo.class.getResourceAsStream(resource)) {
      if (in != null) {
        properties.load(new InputStreamReader(in, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties;
  }
}
