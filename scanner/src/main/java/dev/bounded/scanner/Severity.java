package dev.bounded.scanner;

import java.util.Locale;

/** How serious a finding is, from most to least; {@link #OFF} turns a rule off. */
public enum Severity {
  /** A near-certain bug. */
  ERROR,
  /** Fragile code that fails under load or cancellation. */
  WARNING,
  /** A suggestion. */
  NOTE,
  /** The rule does not run. */
  OFF;

  /**
   * Parses a level as written in a settings file or on the command line.
   *
   * @param text {@code error}, {@code warning}, {@code note} (or {@code suggestion}), {@code off}
   * @return the severity
   * @throws IllegalArgumentException for anything else
   */
  public static Severity parse(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "error" -> ERROR;
      case "warning", "warn" -> WARNING;
      case "note", "suggestion", "info" -> NOTE;
      case "off" -> OFF;
      default ->
          throw new IllegalArgumentException(
              "unknown level '" + text + "' (use error, warning, note or off)");
    };
  }

  /**
   * Tells whether this is at least as serious as {@code threshold}.
   *
   * @param threshold a level
   * @return {@code true} if this level reaches it
   */
  public boolean atLeast(Severity threshold) {
    return this != OFF && compareTo(threshold) <= 0;
  }

  /**
   * Returns the level's name in lower case, as SARIF spells it.
   *
   * @return {@code error}, {@code warning}, {@code note} or {@code off}
   */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
