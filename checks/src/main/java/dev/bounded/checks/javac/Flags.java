package dev.bounded.checks.javac;

import com.google.errorprone.ErrorProneFlags;
import dev.bounded.checks.rules.RuleConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads Bounded's {@code -XepOpt:} flags into the frontend-neutral {@link RuleConfig}, once per
 * checker instance. A bad value is not thrown (Error Prone would show it as a compiler crash): it
 * is kept as a usage error, one line naming the flag, what it expects and what it got, which the
 * checker reports as a compilation error.
 */
final class Flags {
  /** Methods to treat as {@code @NonIdempotent}: {@code com.acme.Payments#charge,...}. */
  static final String NON_IDEMPOTENT = "Bounded:NonIdempotent";

  /** Headers that carry an idempotency key (default {@code Idempotency-Key}). */
  static final String IDEMPOTENCY_KEY_HEADER = "Bounded:IdempotencyKeyHeader";

  /** Further methods that take a timeout: {@code com.acme.Client#fetch,...}. */
  static final String TIMEOUT_METHODS = "PerAttemptTimeout:Methods";

  /**
   * Where diagnostics link to: a base URL (the rule's name is appended) or a template containing
   * {@code {rule}}.
   */
  static final String DOCS_URL = "Bounded:DocsUrl";

  /**
   * Bounded's one settings file, the scanner's and the language server's too (a properties file:
   * {@code nonIdempotent}, {@code timeoutMethods}, {@code idempotencyKeyHeaders}, {@code docsUrl},
   * {@code severity.<Rule>}). Flags given on the command line add to its method lists and win over
   * its other values; {@code severity.<Rule> = off} switches a check off (other levels are set with
   * {@code -Xep:<Rule>:<level>}, which Error Prone owns).
   */
  static final String CONFIG = "Bounded:Config";

  /** The {@code Bounded:} flags this version reads; any other is a typo. */
  private static final Set<String> BOUNDED_FLAGS =
      Set.of(NON_IDEMPOTENT, IDEMPOTENCY_KEY_HEADER, DOCS_URL, CONFIG);

  private static final String METHOD_LIST =
      "a comma-separated list of methods written fully.qualified.Type#method"
          + " (e.g. com.acme.Payments#charge)";

  /**
   * Bounded's flags, read.
   *
   * @param config the rules' configuration (the defaults where a flag is bad)
   * @param docsTemplate the link template for diagnostics, with {@code {rule}} for the rule's name
   * @param errors usage errors, one line each; empty when every flag is good
   * @param disabled the rules the settings file switches off
   */
  record Parsed(RuleConfig config, String docsTemplate, List<String> errors, Set<String> disabled) {
    Parsed {
      errors = List.copyOf(errors);
      disabled = Set.copyOf(disabled);
    }
  }

  private Flags() {}

  /**
   * Reads the flags.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   * @return the configuration and any usage errors
   */
  static Parsed parse(ErrorProneFlags flags) {
    List<String> errors = new ArrayList<>();
    Set<String> disabled = new TreeSet<>();
    String configFile = flags.get(CONFIG).orElse(null);
    if (configFile != null) {
      flags = withSettingsFile(flags, configFile.strip(), errors, disabled);
    }
    for (String name : new TreeSet<>(flags.getFlagsMap().keySet())) {
      if (name.startsWith("Bounded:") && !BOUNDED_FLAGS.contains(name)) {
        errors.add(
            "-XepOpt:"
                + name
                + " is not a flag of Bounded's checks; they are -XepOpt:"
                + String.join(", -XepOpt:", new TreeSet<>(BOUNDED_FLAGS))
                + " and -XepOpt:"
                + TIMEOUT_METHODS);
      }
    }
    Set<String> nonIdempotent = methods(flags, NON_IDEMPOTENT, errors);
    Set<String> timeoutMethods = methods(flags, TIMEOUT_METHODS, errors);
    Set<String> headers = new LinkedHashSet<>();
    for (String header : list(flags, IDEMPOTENCY_KEY_HEADER)) {
      if (!header.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
        errors.add(
            usage(
                IDEMPOTENCY_KEY_HEADER,
                "a comma-separated list of HTTP header names (e.g. Idempotency-Key,X-Request-Id)",
                flags,
                header));
      } else {
        headers.add(header);
      }
    }
    if (headers.isEmpty()) {
      headers.add(RuleConfig.DEFAULT_IDEMPOTENCY_KEY_HEADER);
    }
    String docs = Docs.template();
    String value = flags.get(DOCS_URL).orElse(null);
    if (value != null) {
      String trimmed = value.strip();
      if (trimmed.isEmpty() || trimmed.chars().anyMatch(Character::isWhitespace)) {
        errors.add(
            usage(
                DOCS_URL,
                "a base URL such as https://docs.example.com/bounded/rules/ (the rule's name is"
                    + " appended) or a template with {rule}, such as"
                    + " https://docs.example.com/rules/{rule}.html",
                flags,
                value));
      } else {
        docs = Docs.templateFromFlag(trimmed);
      }
    }
    return new Parsed(
        new RuleConfig(nonIdempotent, headers, timeoutMethods), docs, errors, disabled);
  }

  /** The settings file's keys, and the flags they stand for. */
  private static final Map<String, String> SETTINGS_KEYS =
      Map.of(
          "nonIdempotent", NON_IDEMPOTENT,
          "timeoutMethods", TIMEOUT_METHODS,
          "idempotencyKeyHeaders", IDEMPOTENCY_KEY_HEADER,
          "docsUrl", DOCS_URL);

  /**
   * The flags with the settings file's values added: method lists joined, other values only where
   * no flag sets them. Keys the compiler has no use for ({@code idempotent}, {@code runtime},
   * {@code exclude}) are the scanner's.
   */
  private static ErrorProneFlags withSettingsFile(
      ErrorProneFlags flags, String file, List<String> errors, Set<String> disabled) {
    Properties settings = new Properties();
    try (Reader in = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
      settings.load(in);
    } catch (IOException | RuntimeException e) {
      errors.add(
          "-XepOpt:"
              + CONFIG
              + " expects a readable settings file (a properties file); got '"
              + file
              + "': "
              + e.getMessage());
      return flags;
    }
    ErrorProneFlags.Builder merged = ErrorProneFlags.builder();
    flags.getFlagsMap().forEach(merged::putFlag);
    for (String key : new TreeSet<>(settings.stringPropertyNames())) {
      String value = settings.getProperty(key).strip();
      if (key.startsWith("severity.")) {
        if (value.equalsIgnoreCase("off")) {
          disabled.add(key.substring("severity.".length()));
        }
        continue;
      }
      String flag = SETTINGS_KEYS.get(key);
      if (flag == null) {
        continue;
      }
      String given = flags.get(flag).orElse(null);
      if (given == null) {
        merged.putFlag(flag, value);
      } else if (!flag.equals(DOCS_URL) && !flag.equals(IDEMPOTENCY_KEY_HEADER)) {
        merged.putFlag(flag, given + "," + value);
      }
    }
    return merged.build();
  }

  /** The rules' configuration; the defaults for any flag that is bad. */
  static RuleConfig ruleConfig(ErrorProneFlags flags) {
    return parse(flags).config();
  }

  private static Set<String> methods(ErrorProneFlags flags, String name, List<String> errors) {
    Set<String> methods = new LinkedHashSet<>();
    for (String method : list(flags, name)) {
      int hash = method.indexOf('#');
      boolean good =
          hash > 0
              && hash < method.length() - 1
              && method.indexOf('#', hash + 1) < 0
              && method
                  .substring(0, hash)
                  .matches("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*")
              && method.substring(hash + 1).matches("[\\p{L}_$][\\p{L}\\p{N}_$]*");
      if (good) {
        methods.add(method);
      } else {
        errors.add(usage(name, METHOD_LIST, flags, method));
      }
    }
    return methods;
  }

  /** The flag's comma-separated values, trimmed, empty ones dropped. */
  private static List<String> list(ErrorProneFlags flags, String name) {
    List<String> values = new ArrayList<>();
    String raw = flags.get(name).orElse("");
    for (String value : raw.split(",", -1)) {
      if (!value.isBlank()) {
        values.add(value.strip());
      }
    }
    return values;
  }

  private static String usage(String flag, String expected, ErrorProneFlags flags, String bad) {
    String whole = flags.get(flag).orElse("");
    return "-XepOpt:"
        + flag
        + " expects "
        + expected
        + "; got '"
        + bad
        + "'"
        + (whole.equals(bad) ? "" : " in '" + whole + "'");
  }
}
