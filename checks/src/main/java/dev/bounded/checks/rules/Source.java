package dev.bounded.checks.rules;

import dev.bounded.checks.model.Edit;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Helpers for building fix text that fits the surrounding source. */
final class Source {
  /** The column limit of google-java-format, which most formatted codebases share. */
  static final int MAX_COLUMNS = 100;

  private Source() {}

  /**
   * Returns an edit that replaces {@code [start, end)} with the first of {@code layouts} that keeps
   * every line it touches within {@link #MAX_COLUMNS}: in place, or else moved to a continuation
   * line after an {@code =} that precedes it on its line (as google-java-format breaks). A layout
   * may span lines: each {@code '\n'} in it starts a continuation line, indented four columns
   * deeper than the line it continues. When none fits, the last candidate is used.
   *
   * @param source the file
   * @param start the first replaced offset
   * @param end the offset after the last replaced one
   * @param layouts the same code laid out from widest (one line) to narrowest
   * @return the edit
   */
  static Edit fitting(String source, int start, int end, List<String> layouts) {
    int lineStart = source.lastIndexOf('\n', Math.max(0, start - 1)) + 1;
    int lineEnd = source.indexOf('\n', end);
    if (lineEnd < 0) {
      lineEnd = source.length();
    }
    String prefix = source.substring(lineStart, start);
    String suffix = source.substring(end, lineEnd);
    String indent = indentAt(source, start);
    String continuation = indent + "    ";
    String head = prefix.stripTrailing();
    boolean afterEquals = head.endsWith("=") && !head.endsWith("==") && !head.endsWith("!=");
    Edit last = null;
    for (String layout : layouts) {
      String inline = layout.replace("\n", "\n" + continuation);
      last = new Edit(start, end, inline);
      if (fits(prefix + inline + suffix)) {
        return last;
      }
      if (afterEquals) {
        String moved = "\n" + continuation + layout.replace("\n", "\n" + continuation + "    ");
        last = new Edit(lineStart + head.length(), end, moved);
        if (fits(head + moved + suffix)) {
          return last;
        }
      }
    }
    return last;
  }

  private static boolean fits(String text) {
    return text.lines().allMatch(line -> line.length() <= MAX_COLUMNS);
  }

  /**
   * Tells whether a simple name is used in the file outside {@code [start, end)} and outside import
   * declarations: whether its import is still needed once that range is replaced. Conservative: any
   * mention (a comment included) counts as a use.
   *
   * @param source the file
   * @param start the first replaced offset
   * @param end the offset after the last replaced one
   * @param simpleName the imported type's simple name
   * @return {@code true} if the name appears elsewhere
   */
  static boolean usedOutside(String source, int start, int end, String simpleName) {
    Matcher m = Pattern.compile("\\b" + Pattern.quote(simpleName) + "\\b").matcher(source);
    while (m.find()) {
      if (m.start() >= start && m.end() <= end) {
        continue;
      }
      int lineStart = source.lastIndexOf('\n', Math.max(0, m.start() - 1)) + 1;
      if (source.startsWith("import ", lineStart)) {
        continue;
      }
      return true;
    }
    return false;
  }

  /**
   * Returns the indentation of the line holding {@code offset}.
   *
   * @param source the file
   * @param offset an offset in it
   * @return the leading spaces and tabs of that line
   */
  static String indentAt(String source, int offset) {
    int start = source.lastIndexOf('\n', Math.max(0, offset - 1)) + 1;
    int end = start;
    while (end < source.length() && (source.charAt(end) == ' ' || source.charAt(end) == '\t')) {
      end++;
    }
    return source.substring(start, end);
  }

  /**
   * Returns the indentation one level deeper than {@code indent}, in the file's own unit: the
   * smallest step by which a line after an opening brace is indented (two spaces if none).
   *
   * @param source the file
   * @param indent an indentation
   * @return the deeper indentation
   */
  static String deeper(String source, String indent) {
    if (indent.startsWith("\t")) {
      return indent + "\t";
    }
    return indent + unit(source);
  }

  /**
   * Returns the start of the line after an opening brace, when nothing but blanks follows the brace
   * on its line: where an edit starts so that Error Prone's "Did you mean" line (the first line an
   * edit touches) shows the new code rather than the unchanged brace line.
   *
   * @param source the file
   * @param brace the offset of a '{'
   * @return the offset of the next line's first character, or -1
   */
  static int lineAfter(String source, int brace) {
    int newline = source.indexOf('\n', brace);
    if (newline < 0 || !source.substring(brace + 1, newline).isBlank()) {
      return -1;
    }
    return newline + 1;
  }

  /**
   * Returns the start of the line holding a closing brace, when only blanks precede it there.
   *
   * @param source the file
   * @param brace the offset of a '}'
   * @return the offset of its line's first character, or -1
   */
  static int lineStartOfClosingBrace(String source, int brace) {
    int start = source.lastIndexOf('\n', brace - 1) + 1;
    return source.substring(start, brace).isBlank() ? start : -1;
  }

  /** The last file measured: fixes for several findings in one file reuse it. */
  private static final ThreadLocal<Object[]> LAST_UNIT = new ThreadLocal<>();

  private static String unit(String source) {
    Object[] last = LAST_UNIT.get();
    if (last != null && last[0] == source) {
      return (String) last[1];
    }
    String unit = measureUnit(source);
    LAST_UNIT.set(new Object[] {source, unit});
    return unit;
  }

  private static String measureUnit(String source) {
    // The smallest positive indentation of a line that follows a line ending in '{'.
    int best = Integer.MAX_VALUE;
    String[] lines = source.split("\n", -1);
    for (int i = 1; i < lines.length; i++) {
      if (lines[i - 1].stripTrailing().endsWith("{")) {
        int previous = leading(lines[i - 1]);
        int current = leading(lines[i]);
        if (current > previous) {
          best = Math.min(best, current - previous);
        }
      }
    }
    return best == Integer.MAX_VALUE || best > 8 ? "  " : " ".repeat(best);
  }

  private static int leading(String line) {
    int n = 0;
    while (n < line.length() && line.charAt(n) == ' ') {
      n++;
    }
    return n;
  }
}
