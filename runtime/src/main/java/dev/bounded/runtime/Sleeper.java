package dev.bounded.runtime;

import dev.bounded.runtime.internal.SystemClock;
import java.time.Duration;

/**
 * Waits for a given time: the one seam through which the runtime sleeps (between retry attempts).
 *
 * <p>Production code uses {@link #system()}. Tests inject a sleeper that advances a manual ticker
 * and records the requested delays instead of sleeping (for example {@code
 * dev.bounded.testing.RecordingSleeper}):
 *
 * <pre>{@code
 * List<Duration> slept = new ArrayList<>();
 * RetryPolicy policy = RetryPolicy.builder().sleeper(slept::add).build();
 * }</pre>
 *
 * <p>The runtime never asks a sleeper to wait for zero or a negative time. Implementations must be
 * thread-safe and must respond to interruption by throwing {@link InterruptedException}.
 */
@FunctionalInterface
public interface Sleeper {

  /**
   * Waits for {@code duration}.
   *
   * @param duration how long to wait; always positive when called by the runtime
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  void sleep(Duration duration) throws InterruptedException;

  /**
   * Returns the sleeper backed by {@link Thread#sleep(long, int)}.
   *
   * @return the system's sleeper
   */
  static Sleeper system() {
    return SystemClock.INSTANCE;
  }
}
