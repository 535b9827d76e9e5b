package dev.bounded.checks.analysis;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A regular expression on names with a cheap test in front of it: words of which every match
 * contains one (or starts with one), compared ASCII case-insensitively. Most names contain none of
 * them, and then the expression is not run; when one is there, the expression decides. The answer
 * is always the expression's: the words only spare running it (in a short-lived compiler most of
 * this code runs interpreted, where a regular expression with {@code .*} costs a few microseconds a
 * name).
 *
 * <p>The words must be necessary: every string the expression matches contains one of them (starts
 * with one, for {@link #startingWith}). A {@code (?i)} expression compares ASCII letters without
 * case, and the test here compares every ASCII letter without case, so it never says no where the
 * expression would say yes.
 */
public final class NamePattern {
  private final Pattern pattern;
  private final char[][] words;
  private final boolean prefix;

  private NamePattern(String regex, boolean prefix, String... words) {
    this.pattern = Pattern.compile(regex);
    this.prefix = prefix;
    this.words = new char[words.length][];
    for (int i = 0; i < words.length; i++) {
      this.words[i] = words[i].toLowerCase(Locale.ROOT).toCharArray();
    }
  }

  /**
   * An expression every match of which contains one of the words.
   *
   * @param regex the expression, matched against the whole name
   * @param words the words (any case), one of which is in every match
   * @return the pattern
   */
  public static NamePattern containing(String regex, String... words) {
    return new NamePattern(regex, false, words);
  }

  /**
   * An expression every match of which starts with one of the words.
   *
   * @param regex the expression, matched against the whole name
   * @param words the words (any case), one of which starts every match
   * @return the pattern
   */
  public static NamePattern startingWith(String regex, String... words) {
    return new NamePattern(regex, true, words);
  }

  /**
   * Tells whether the expression matches the whole name.
   *
   * @param name a name (or any text)
   * @return {@code true} if it matches, exactly as {@code pattern().matcher(name).matches()}
   */
  public boolean matches(String name) {
    return mayMatch(name) && pattern.matcher(name).matches();
  }

  /**
   * The expression.
   *
   * @return the compiled expression
   */
  public Pattern pattern() {
    return pattern;
  }

  private boolean mayMatch(String name) {
    int length = name.length();
    for (char[] word : words) {
      int last = length - word.length; // the last offset the word can start at
      if (prefix && last > 0) {
        last = 0;
      }
      for (int at = 0; at <= last; at++) {
        if (startsAt(name, at, word)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean startsAt(String name, int at, char[] word) {
    for (int i = 0; i < word.length; i++) {
      char c = name.charAt(at + i);
      if (c >= 'A' && c <= 'Z') {
        c = (char) (c + ('a' - 'A'));
      }
      if (c != word[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Tells whether a name is written like a constant, {@code [A-Z][A-Z0-9_]*}.
   *
   * @param name a name
   * @return {@code true} for {@code MAX_RETRIES}, {@code X}, {@code A1}
   */
  public static boolean isConstantName(String name) {
    int length = name.length();
    if (length == 0 || name.charAt(0) < 'A' || name.charAt(0) > 'Z') {
      return false;
    }
    for (int i = 1; i < length; i++) {
      char c = name.charAt(i);
      if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
        return false;
      }
    }
    return true;
  }
}
