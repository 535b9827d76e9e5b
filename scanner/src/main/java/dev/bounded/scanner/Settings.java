package dev.bounded.scanner;

import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.RuleConfig;
import dev.bounded.checks.rules.Rules;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Bounded's one settings file, read by every channel: a Java properties file.
 *
 * <pre>{@code
 * # level of each rule: error, warning, note or off
 * severity.PerAttemptTimeout = error
 * severity.UnclassifiedExceptionRetry = off
 * # methods, as fully.qualified.Type#method, separated by commas
 * nonIdempotent = com.acme.Payments#charge
 * idempotent = com.acme.Inventory#reserve
 * timeoutMethods = com.acme.Client#fetch
 * idempotencyKeyHeaders = Idempotency-Key, X-Request-Id
 * # whether fixes may use dev.bounded.runtime: true, false or auto (some file imports it)
 * runtime = auto
 * # paths to leave out (globs against the path relative to the scan's base)
 * exclude = **}{@code /generated/**
 * docsUrl = https://docs.example.com/bounded/rules/
 * }</pre>
 *
 * Immutable.
 *
 * @param severities each rule's level
 * @param ruleConfig the rules' configuration
 * @param idempotentMethods methods to treat as {@code @Idempotent}
 * @param runtimeAvailable whether fixes may use the runtime, or {@code null} to decide from the
 *     code
 * @param excludes globs of paths to leave out
 * @param docsUrl where the rule pages live (ending in {@code /}), or {@code null}
 */
public record Settings(
    Map<String, Severity> severities,
    RuleConfig ruleConfig,
    Set<String> idempotentMethods,
    Boolean runtimeAvailable,
    List<String> excludes,
    String docsUrl) {

  private static final Set<String> KEYS =
      Set.of(
          "nonIdempotent",
          "idempotent",
          "timeoutMethods",
          "idempotencyKeyHeaders",
          "runtime",
          "exclude",
          "docsUrl");

  /** Copies the collections. */
  public Settings {
    severities = Map.copyOf(severities);
    idempotentMethods = Set.copyOf(idempotentMethods);
    excludes = List.copyOf(excludes);
  }

  /**
   * Returns the defaults: every rule at its default level, nothing configured.
   *
   * @return the default settings
   */
  public static Settings defaults() {
    Map<String, Severity> severities = new HashMap<>();
    for (RuleInfo info : RuleInfo.all()) {
      severities.put(info.name(), info.defaultSeverity());
    }
    return new Settings(severities, RuleConfig.DEFAULT, Set.of(), null, List.of(), null);
  }

  /**
   * Reads a settings file.
   *
   * @param file the file
   * @return the settings
   * @throws IOException if it cannot be read
   * @throws IllegalArgumentException naming the key, for an unknown key, rule, level or a malformed
   *     method
   */
  public static Settings read(Path file) throws IOException {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
    }
    return of(properties, file.toString());
  }

  static Settings of(Properties properties, String source) {
    Settings defaults = defaults();
    Map<String, Severity> severities = new HashMap<>(defaults.severities());
    for (String key : properties.stringPropertyNames()) {
      String value = properties.getProperty(key);
      if (key.startsWith("severity.")) {
        String rule = key.substring("severity.".length());
        if (Rules.all().stream().map(Rule::name).noneMatch(rule::equals)) {
          throw new IllegalArgumentException(
              source + ": " + key + ": no rule named " + rule + " (see `bounded scan --rules`)");
        }
        try {
          severities.put(rule, Severity.parse(value));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(source + ": " + key + ": " + e.getMessage(), e);
        }
      } else if (!KEYS.contains(key)) {
        throw new IllegalArgumentException(
            source + ": unknown setting '" + key + "' (known: severity.<Rule>, " + KEYS + ")");
      }
    }
    Set<String> headers = list(properties, "idempotencyKeyHeaders");
    if (headers.isEmpty()) {
      headers = Set.of(RuleConfig.DEFAULT_IDEMPOTENCY_KEY_HEADER);
    }
    RuleConfig config;
    try {
      config =
          new RuleConfig(
              list(properties, "nonIdempotent"), headers, list(properties, "timeoutMethods"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
    Set<String> idempotent = list(properties, "idempotent");
    for (String method : idempotent) {
      int hash = method.indexOf('#');
      if (hash <= 0 || hash == method.length() - 1) {
        throw new IllegalArgumentException(
            source
                + ": idempotent takes methods as fully.qualified.Type#method; got '"
                + method
                + "'");
      }
    }
    String runtime = properties.getProperty("runtime", "auto").strip().toLowerCase(Locale.ROOT);
    Boolean runtimeAvailable =
        switch (runtime) {
          case "auto" -> null;
          case "true" -> Boolean.TRUE;
          case "false" -> Boolean.FALSE;
          default ->
              throw new IllegalArgumentException(
                  source + ": runtime: use true, false or auto; got '" + runtime + "'");
        };
    String docsUrl = properties.getProperty("docsUrl");
    if (docsUrl != null && !docsUrl.isBlank() && !docsUrl.endsWith("/")) {
      docsUrl = docsUrl.strip() + "/";
    }
    return new Settings(
        severities,
        config,
        idempotent,
        runtimeAvailable,
        List.copyOf(list(properties, "exclude")),
        docsUrl == null || docsUrl.isBlank() ? null : docsUrl.strip());
  }

  private static Set<String> list(Properties properties, String key) {
    String value = properties.getProperty(key, "");
    Set<String> items = new LinkedHashSet<>();
    Arrays.stream(value.split(","))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .forEach(items::add);
    return items;
  }

  /**
   * Returns a copy with another runtime setting.
   *
   * @param available whether fixes may use the runtime, or {@code null} for auto
   * @return the settings
   */
  public Settings withRuntimeAvailable(Boolean available) {
    return new Settings(severities, ruleConfig, idempotentMethods, available, excludes, docsUrl);
  }

  /**
   * Returns a copy with more excluded globs and another docs URL if given.
   *
   * @param moreExcludes globs to add
   * @param url the docs URL, or {@code null} to keep the current one
   * @return the settings
   */
  public Settings with(List<String> moreExcludes, String url) {
    List<String> all = new java.util.ArrayList<>(excludes);
    all.addAll(moreExcludes);
    String docs = url == null ? docsUrl : (url.endsWith("/") ? url : url + "/");
    return new Settings(severities, ruleConfig, idempotentMethods, runtimeAvailable, all, docs);
  }

  /**
   * Returns a rule's level.
   *
   * @param rule a rule name
   * @return its level
   */
  public Severity severity(String rule) {
    return severities.getOrDefault(rule, Severity.WARNING);
  }
}
