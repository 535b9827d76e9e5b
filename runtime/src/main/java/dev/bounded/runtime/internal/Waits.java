package dev.bounded.runtime.internal;

import dev.bounded.runtime.Ticker;

/**
 * How long one timed wait lasts before the runtime reads its ticker again.
 *
 * <p>A timed wait ({@code Condition.awaitNanos}, {@code Thread.join}) sleeps in real time. On the
 * system ticker that is the same clock, so one wait for the whole remaining time is exact. On any
 * other ticker (a manual one in tests, a scaled one in simulations) time can jump while nothing
 * signals the waiter, so such waits are cut into slices of at most {@link #POLL_NANOS} and the
 * ticker is re-read after each: a manual ticker advanced from another thread is noticed within that
 * slice of real time instead of after the whole manual duration.
 */
public final class Waits {
  /** The longest real-time slice of a wait on a ticker other than the system's: 10 ms. */
  public static final long POLL_NANOS = 10_000_000L;

  private Waits() {}

  /**
   * Returns how long the next timed wait may last.
   *
   * @param ticker the ticker the deadline of the wait is measured on
   * @param remainingNanos the time left on that ticker, positive
   * @return {@code remainingNanos} for the system ticker, else at most {@link #POLL_NANOS}
   */
  public static long sliceNanos(Ticker ticker, long remainingNanos) {
    return ticker == SystemClock.INSTANCE ? remainingNanos : Math.min(remainingNanos, POLL_NANOS);
  }
}
