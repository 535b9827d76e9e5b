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
 * Bounded integer draws ({@code nextInt(bound)}, {@code nextLong(origin, bound)}, ...) map the bits
 * onto the range in one step, {@code origin + floor(bits / 2^64 * (bound - origin))}, instead of
 * {@link RandomGenerator}'s rejection sampling, which would reject a fixed draw forever: {@link
 * #lowest()} gives the origin and {@link #highest()} {@code bound - 1}. Immutable and thread-safe.
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
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive, was " + bound);
    }
    return (int) scaled(bound);
  }

  @Override
  public int nextInt(int origin, int bound) {
    if (origin >= bound) {
      throw new IllegalArgumentException(
          "bound must be greater than origin, was " + origin + ", " + bound);
    }
    return (int) (origin + scaled((long) bound - origin));
  }

  @Override
  public long nextLong(long bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive, was " + bound);
    }
    return scaled(bound);
  }

  @Override
  public long nextLong(long origin, long bound) {
    if (origin >= bound) {
      throw new IllegalArgumentException(
          "bound must be greater than origin, was " + origin + ", " + bound);
    }
    return origin + scaled(bound - origin); // the range is read as unsigned: it may exceed 2^63
  }

  /**
   * {@code floor(bits * range / 2^64)} with both read as unsigned: a point in {@code [0, range)}.
   */
  private long scaled(long range) {
    return Math.multiplyHigh(bits, range) + ((bits >> 63) & range) + ((range >> 63) & bits);
  }

  @Override
  public String toString() {
    return "FixedRandom[nextDouble=" + nextDouble() + "]";
  }
}
