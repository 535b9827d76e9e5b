package dev.bounded.runtime;

import java.time.Duration;

/**
 * Observes a {@link RetryPolicy}'s decisions, to log or count them without the runtime depending on
 * a logging library. Both methods have empty defaults; implement the ones you need.
 *
 * <pre>{@code
 * RetryListener logging = new RetryListener() {
 *   @Override public void onRetryScheduled(int attempt, Throwable failure, Duration delay) {
 *     log.warn("attempt {} failed, retrying in {}", attempt, delay, failure);
 *   }
 *   @Override public void onOutcome(RetryOutcome outcome, int attempts, Throwable failure) {
 *     metrics.counter("retry." + outcome).increment();
 *   }
 * };
 * }</pre>
 *
 * <p>Listeners run on the calling thread, synchronously; they must be thread-safe when the policy
 * is shared, and should be quick. An exception thrown by a listener propagates to the caller
 * instead of the call's own outcome.
 */
public interface RetryListener {

  /**
   * Called after attempt {@code attempt} failed and before the backoff that precedes the next one.
   *
   * @param attempt the number of the attempt that failed, from 1
   * @param failure its failure
   * @param delay the backoff about to be waited, possibly {@link Duration#ZERO}
   */
  default void onRetryScheduled(int attempt, Throwable failure, Duration delay) {}

  /**
   * Called once per call, as it ends.
   *
   * @param outcome how the call ended
   * @param attempts how many attempts were started
   * @param failure the failure that ended the call, or {@code null} on {@link RetryOutcome#SUCCESS}
   */
  default void onOutcome(RetryOutcome outcome, int attempts, Throwable failure) {}
}
