package dev.bounded.checks.model;

/**
 * One text edit: replace {@code [start, end)} with {@code replacement} (an insertion when {@code
 * start == end}).
 *
 * @param start the offset of the first replaced character
 * @param end the offset just past the last replaced character
 * @param replacement the new text
 */
public record Edit(int start, int end, String replacement) {

  /**
   * Validates the offsets.
   *
   * @throws IllegalArgumentException if the range is negative or reversed
   */
  public Edit {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad edit range " + start + ".." + end);
    }
  }

  /**
   * Returns an insertion.
   *
   * @param offset where to insert
   * @param text what to insert
   * @return the edit
   */
  public static Edit insert(int offset, String text) {
    return new Edit(offset, offset, text);
  }

  /**
   * Returns a replacement of a span.
   *
   * @param span what to replace
   * @param text the new text
   * @return the edit
   */
  public static Edit replace(Span span, String text) {
    return new Edit(span.start(), span.end(), text);
  }
}
