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
 * <p>Thread-safe: any thread may read or advance it.
 */
public final class ManualTicker implements Ticker {
  private final AtomicLong nanos;

  /** Creates a ticker that reads zero until advanced. */
  public ManualTicker() {
    this(0L);
  }

  private ManualTicker(long start) {
    this.nanos = new AtomicLong(start);
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
    return nanos.get();
  }

  /**
   * Moves time forward by {@code duration}.
   *
   * @param duration how far, not negative
   * @return this ticker
   * @throws IllegalArgumentException if {@code duration} is negative: monotonic time never goes
   *     back
   */
  public ManualTicker advance(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative()) {
      throw new IllegalArgumentException("a ticker never goes back, cannot advance by " + duration);
    }
    nanos.addAndGet(duration.toNanos());
    return this;
  }

  @Override
  public String toString() {
    return "ManualTicker[" + nanos.get() + "ns]";
  }
}
