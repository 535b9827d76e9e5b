package dev.bounded.runtime.internal;

import java.time.Duration;

/** Saturating nanosecond arithmetic: huge durations clamp to {@code Long.MAX_VALUE}, never wrap. */
public final class Nanos {
  /** The largest whole number of seconds that still fits in a {@code long} of nanoseconds. */
  private static final long MAX_SECONDS = Long.MAX_VALUE / 1_000_000_000L;

  private Nanos() {}

  /**
   * Converts {@code duration} to nanoseconds, clamping to the {@code long} range.
   *
   * @param duration any duration
   * @return its length in nanoseconds, saturated at {@link Long#MAX_VALUE} / {@link Long#MIN_VALUE}
   */
  public static long saturated(Duration duration) {
    long seconds = duration.toSeconds();
    if (seconds < MAX_SECONDS && seconds > -MAX_SECONDS) {
      return duration.toNanos(); // fast path: cannot overflow
    }
    // Within a second of either end: the exact length when it fits, else the end itself.
    try {
      return duration.toNanos();
    } catch (ArithmeticException overflow) {
      return seconds < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  /**
   * Returns what is left of a budget after {@code elapsed} nanoseconds, never negative; a reading
   * that went backwards leaves the whole budget.
   *
   * @param budget the budget, at least zero
   * @param elapsed nanoseconds spent, as the difference of two readings
   * @return the nanoseconds left, in {@code [0, budget]}
   */
  public static long remaining(long budget, long elapsed) {
    return elapsed <= 0 ? budget : Math.max(0L, budget - elapsed);
  }

  /**
   * Adds two nanosecond values, clamping instead of overflowing.
   *
   * @param a the first addend
   * @param b the second addend
   * @return {@code a + b}, saturated
   */
  public static long saturatedAdd(long a, long b) {
    long sum = a + b;
    // Overflow iff both operands have the same sign and the sum's sign differs.
    if (((a ^ sum) & (b ^ sum)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return sum;
  }

  /**
   * Returns {@code min(cap, base * 2^exponent)} without overflow, for non-negative arguments.
   *
   * @param base the base, at least zero
   * @param cap the cap, at least zero
   * @param exponent the power of two, at least zero
   * @return the capped exponential value
   */
  public static long cappedExponential(long base, long cap, int exponent) {
    if (base == 0) {
      return 0;
    }
    if (exponent >= Long.SIZE - 1 || base > (cap >> exponent)) {
      return cap;
    }
    return Math.min(cap, base << exponent);
  }

  /**
   * Formats a nanosecond count for people: {@code 250ms}, {@code 1.5s}, {@code 12.345µs}.
   *
   * @param nanos a duration in nanoseconds, not negative
   * @return the duration in the largest unit below it, with up to three decimals
   */
  public static String format(long nanos) {
    if (nanos < 1_000L) {
      return nanos + "ns";
    }
    if (nanos < 1_000_000L) {
      return decimal(nanos, 1_000L) + "µs";
    }
    if (nanos < 1_000_000_000L) {
      return decimal(nanos, 1_000_000L) + "ms";
    }
    return decimal(nanos / 1_000_000L, 1_000L) + "s";
  }

  private static String decimal(long value, long unit) {
    long whole = value / unit;
    long thousandths = (value % unit) * 1000 / unit;
    if (thousandths == 0) {
      return Long.toString(whole);
    }
    String fraction = String.format("%03d", thousandths);
    int end = fraction.length();
    while (fraction.charAt(end - 1) == '0') {
      end--;
    }
    return whole + "." + fraction.substring(0, end);
  }
}
