package dev.bounded.runtime;

import dev.bounded.runtime.internal.SystemClock;

/**
 * A source of monotonic time in nanoseconds, the one seam through which the runtime reads time.
 *
 * <p>Only differences between two readings of the same ticker are meaningful, exactly as for {@link
 * System#nanoTime()}. Production code uses {@link #system()}; tests inject a manual ticker (for
 * example {@code dev.bounded.testing.ManualTicker}) so that no test waits on the wall clock:
 *
 * <pre>{@code
 * AtomicLong now = new AtomicLong();
 * Deadline deadline = Deadline.after(Duration.ofSeconds(1), now::get);
 * now.addAndGet(Duration.ofSeconds(2).toNanos());
 * assert deadline.isExpired();
 * }</pre>
 *
 * <p>Implementations must be thread-safe and must never go backwards.
 */
@FunctionalInterface
public interface Ticker {

  /**
   * Reads the current time.
   *
   * @return nanoseconds since an arbitrary, fixed origin
   */
  long read();

  /**
   * Returns the ticker backed by {@link System#nanoTime()}.
   *
   * @return the system's monotonic ticker
   */
  static Ticker system() {
    return SystemClock.INSTANCE;
  }
}
