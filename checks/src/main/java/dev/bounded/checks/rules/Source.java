package dev.bounded.checks.rules;

/** Helpers for building fix text that fits the surrounding source. */
final class Source {
  private Source() {}

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
