package dev.bounded.examples;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Prints the demos' output for a 100-column terminal: long lines wrap at word boundaries. */
final class Terminal {
  /** The width the demos' output fits. */
  static final int WIDTH = 100;

  private final PrintStream out;

  Terminal(PrintStream out) {
    this.out = out;
  }

  /** Prints an empty line. */
  void println() {
    out.println();
  }

  /**
   * Prints text as is: for lines that must not be wrapped (a patch).
   *
   * @param line the line
   */
  void raw(String line) {
    out.println(line);
  }

  /**
   * Prints text wrapped to {@link #WIDTH} columns.
   *
   * @param first the first line's indentation (or leading label)
   * @param text the text
   * @param next the indentation of the lines it wraps onto
   */
  void wrapped(String first, String text, String next) {
    for (String line : wrap(first, text, next)) {
      out.println(line);
    }
    out.flush();
  }

  /**
   * Prints text wrapped to {@link #WIDTH} columns, continuation lines indented as the first one
   * plus three spaces.
   *
   * @param text the text, its leading spaces the indentation
   */
  void wrapped(String text) {
    String indent = text.substring(0, text.length() - text.stripLeading().length());
    wrapped(indent, text.stripLeading(), indent + "   ");
  }

  /**
   * Wraps text at spaces so that no line exceeds {@link #WIDTH} columns (a word longer than a line
   * stays whole).
   *
   * @param first the first line's prefix
   * @param text the text
   * @param next the prefix of the following lines
   * @return the lines
   */
  static List<String> wrap(String first, String text, String next) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder(first);
    int empty = first.length();
    for (String word : text.split(" ", -1)) {
      if (word.isEmpty()) {
        continue;
      }
      if (line.length() > empty && line.length() + 1 + word.length() > WIDTH) {
        lines.add(line.toString());
        line = new StringBuilder(next);
        empty = next.length();
      }
      if (line.length() > empty) {
        line.append(' ');
      }
      line.append(word);
    }
    lines.add(line.toString());
    return lines;
  }
}
