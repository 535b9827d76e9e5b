package dev.bounded.testing;

import dev.bounded.runtime.Ticker;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Ticker} that moves only when told to, so tests of deadlines, backoff and budgets run
 * without the wall clock.
 *
 * <pre>{@code
 * ManualTicker ticker = new ManualTicker();
 * Deadline deadline = Deadline.after(Duration.ofSeconds(1), ticker);
 * ticker.advance(Duration.ofMillis(999));
 * assertThat(deadline.remaining()).isEqualTo(Duration.ofMillis(1));
 * }</pre>
 *
 * <p>Advances saturate: time moves at most {@link Long#MAX_VALUE} nanoseconds (about 292 years)
 * past the first reading, and then stands still, so differences between readings never wrap and a
 * deadline of any length still compares correctly. Thread-safe: any thread may read or advance it.
 */
public final class ManualTicker implements Ticker {
  private final long start;

  /** Nanoseconds advanced since {@link #start}, from 0 to {@link Long#MAX_VALUE}. */
  private final AtomicLong elapsed = new AtomicLong();

  /** Creates a ticker that reads zero until advanced. */
  public ManualTicker() {
    this(0L);
  }

  private ManualTicker(long start) {
    this.start = start;
  }

  /**
   * Creates a ticker that starts at {@code nanos}: start near {@link Long#MAX_VALUE} to check that
   * code compares tickers by difference, as {@link System#nanoTime()} requires.
   *
   * @param nanos the first reading
   * @return the new ticker
   */
  public static ManualTicker startingAt(long nanos) {
    return new ManualTicker(nanos);
  }

  @Override
  public long read() {
    return start + elapsed.get(); // may wrap past Long.MAX_VALUE, exactly as System.nanoTime may
  }

  /**
   * Moves time forward by {@code duration}.
   *
   * @param duration how far, not negative; any length (time stops about 292 years after the start)
   * @return this ticker
   * @throws IllegalArgumentException if {@code duration} is negative: monotonic time never goes
   *     back
   */
  public ManualTicker advance(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative()) {
      throw new IllegalArgumentException("a ticker never goes back, cannot advance by " + duration);
    }
    long nanos = saturatedNanos(duration);
    elapsed.accumulateAndGet(
        nanos, (sum, more) -> sum > Long.MAX_VALUE - more ? Long.MAX_VALUE : sum + more);
    return this;
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  @Override
  public String toString() {
    return "ManualTicker[" + read() + "ns]";
  }
}
