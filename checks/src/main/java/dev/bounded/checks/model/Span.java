package dev.bounded.checks.model;

/**
 * A range of source text as character offsets: {@code start} inclusive, {@code end} exclusive.
 *
 * @param start the offset of the first character
 * @param end the offset just past the last character
 */
public record Span(int start, int end) {
  /** The span of nodes that have no position in the source (synthetic code). */
  public static final Span NONE = new Span(-1, -1);

  /**
   * Validates the offsets.
   *
   * @throws IllegalArgumentException if {@code end < start} for a positioned span
   */
  public Span {
    if (start >= 0 && end < start) {
      throw new IllegalArgumentException("span ends before it starts: " + start + ".." + end);
    }
  }

  /**
   * Tells whether this span has a position in the source.
   *
   * @return {@code false} for {@link #NONE}
   */
  public boolean isKnown() {
    return start >= 0;
  }

  /**
   * Tells whether {@code other} lies within this span.
   *
   * @param other another span
   * @return {@code true} if both are known and {@code other} is inside this one
   */
  public boolean contains(Span other) {
    return isKnown() && other.isKnown() && start <= other.start && other.end <= end;
  }
}
