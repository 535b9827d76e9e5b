package dev.bounded.testing;

import java.util.random.RandomGenerator;

/**
 * A {@link RandomGenerator} that always draws the same value, to pin jitter at an end of its range.
 *
 * <pre>{@code
 * RetryPolicy lowest = RetryPolicy.builder().random(FixedRandom.lowest()).build();   // delay 0
 * RetryPolicy highest = RetryPolicy.builder().random(FixedRandom.highest()).build(); // the ceiling
 * }</pre>
 *
 * <p>{@link #nextLong()} returns the same bits on every call; the generator's other methods derive
 * from it as {@link RandomGenerator} defines, so {@link #lowest()} gives {@code nextDouble() == 0},
 * {@link #highest()} the largest double below 1, and {@link #ofFraction(double)} any point between.
 * Immutable and thread-safe.
 */
public final class FixedRandom implements RandomGenerator {
  private final long bits;

  private FixedRandom(long bits) {
    this.bits = bits;
  }

  /**
   * Returns the generator of the lowest values: {@code nextDouble()} is 0.
   *
   * @return the generator
   */
  public static FixedRandom lowest() {
    return new FixedRandom(0L);
  }

  /**
   * Returns the generator of the highest values: {@code nextDouble()} is {@code 1 - 2^-53}.
   *
   * @return the generator
   */
  public static FixedRandom highest() {
    return new FixedRandom(-1L);
  }

  /**
   * Returns the generator whose {@code nextDouble()} is {@code fraction} (rounded down to a
   * multiple of {@code 2^-53}): a point inside the jitter range.
   *
   * @param fraction in {@code [0, 1)}
   * @return the generator
   * @throws IllegalArgumentException if {@code fraction} is outside {@code [0, 1)}
   */
  public static FixedRandom ofFraction(double fraction) {
    if (!(fraction >= 0 && fraction < 1)) {
      throw new IllegalArgumentException("fraction must be in [0, 1), was " + fraction);
    }
    return new FixedRandom(((long) (fraction * 0x1.0p53)) << 11);
  }

  @Override
  public long nextLong() {
    return bits;
  }

  @Override
  public String toString() {
    return "FixedRandom[nextDouble=" + nextDouble() + "]";
  }
}
