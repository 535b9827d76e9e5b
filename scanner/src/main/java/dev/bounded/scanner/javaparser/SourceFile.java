package dev.bounded.scanner.javaparser;

import dev.bounded.checks.model.Span;
import java.util.Arrays;

/**
 * A file's text and where its lines start: javaparser reports line and column, the model wants
 * character offsets. Immutable.
 */
public final class SourceFile {
  private final String path;
  private final String text;
  private final int[] lineStarts;

  /**
   * Indexes a file's lines.
   *
   * @param path the path to report, relative to the scan's base where possible
   * @param text the whole text
   */
  public SourceFile(String path, String text) {
    this.path = path;
    this.text = text;
    int[] starts = new int[64];
    int n = 0;
    starts[n++] = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n'))) {
        if (n == starts.length) {
          starts = Arrays.copyOf(starts, n * 2);
        }
        starts[n++] = i + 1;
      }
    }
    this.lineStarts = Arrays.copyOf(starts, n);
  }

  /**
   * Returns the path to report.
   *
   * @return the path
   */
  public String path() {
    return path;
  }

  /**
   * Returns the text.
   *
   * @return the text
   */
  public String text() {
    return text;
  }

  /**
   * Returns the offset of a 1-based line and column.
   *
   * @param line the line
   * @param column the column
   * @return the character offset, clamped to the text
   */
  public int offset(int line, int column) {
    if (line < 1) {
      return 0;
    }
    if (line > lineStarts.length) {
      return text.length();
    }
    return Math.min(text.length(), lineStarts[line - 1] + column - 1);
  }

  /**
   * Returns the 1-based line of an offset.
   *
   * @param offset a character offset
   * @return the line
   */
  public int line(int offset) {
    int i = Arrays.binarySearch(lineStarts, offset);
    return i >= 0 ? i + 1 : -i - 1;
  }

  /**
   * Returns the 1-based column of an offset, in characters.
   *
   * @param offset a character offset
   * @return the column
   */
  public int column(int offset) {
    return offset - lineStarts[line(offset) - 1] + 1;
  }

  /**
   * Returns the text of a 1-based line, without its terminator.
   *
   * @param line the line
   * @return the line's text
   */
  public String lineText(int line) {
    int start = lineStarts[line - 1];
    int end = line < lineStarts.length ? lineStarts[line] : text.length();
    while (end > start && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
      end--;
    }
    return text.substring(start, end);
  }

  /**
   * Returns the number of lines.
   *
   * @return the count
   */
  public int lineCount() {
    return lineStarts.length;
  }

  /**
   * Returns the span of a javaparser range.
   *
   * @param range a node's range, or {@code null}
   * @return the span, end exclusive, or {@link Span#NONE}
   */
  Span span(com.github.javaparser.Range range) {
    if (range == null) {
      return Span.NONE;
    }
    int start = offset(range.begin.line, range.begin.column);
    int end = offset(range.end.line, range.end.column) + 1;
    return end < start ? Span.NONE : new Span(start, Math.min(end, text.length()));
  }
}
