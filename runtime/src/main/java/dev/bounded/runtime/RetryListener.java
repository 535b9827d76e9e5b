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
 * is shared, and should be quick. For state per call (a timer, a span), return a per-call listener
 * from {@link #onCallStart}. An exception thrown by a listener propagates to the caller instead of
 * the call's own outcome.
 */
public interface RetryListener {

  /**
   * Called as a call starts, before its first attempt; returns the listener that hears the rest of
   * this call. The default returns this listener, for listeners that keep no state per call. A
   * telemetry adapter returns a small object per call instead (holding a start time or a span), so
   * per-call state needs no thread-local; it then hears {@link #onRetryScheduled} and exactly one
   * {@link #onEnd} (and so one {@link #onOutcome}), on the calling thread.
   *
   * @param policy the policy running the call (its {@link RetryPolicy#name()} labels telemetry)
   * @param deadline the call's deadline
   * @return the listener for this call; never {@code null}
   */
  default RetryListener onCallStart(RetryPolicy policy, Deadline deadline) {
    return this;
  }

  /**
   * Called after attempt {@code attempt} failed and before the backoff that precedes the next one.
   *
   * @param attempt the number of the attempt that failed, from 1
   * @param failure its failure
   * @param delay the backoff about to be waited, possibly {@link Duration#ZERO}
   */
  default void onRetryScheduled(int attempt, Throwable failure, Duration delay) {}

  /**
   * Called once per call, as it ends, with the ending in full detail. The default reports it to
   * {@link #onOutcome} as its coarser {@link RetryEnding#outcome()}, so a listener written for the
   * seven {@link RetryOutcome}s keeps working; override this method instead of {@link #onOutcome}
   * to tell {@link RetryEnding#DECIDED_BELOW}, {@link RetryEnding#OVERLOADED} and {@link
   * RetryEnding#THROTTLED} apart (override one of the two, not both).
   *
   * @param ending how the call ended
   * @param attempts how many attempts were sent
   * @param failure the failure that ended the call, or {@code null} on {@link RetryEnding#SUCCESS}
   */
  default void onEnd(RetryEnding ending, int attempts, Throwable failure) {
    onOutcome(ending.outcome(), attempts, failure);
  }

  /**
   * Called once per call, as it ends (by the default {@link #onEnd}).
   *
   * @param outcome how the call ended
   * @param attempts how many attempts were started
   * @param failure the failure that ended the call, or {@code null} on {@link RetryOutcome#SUCCESS}
   */
  default void onOutcome(RetryOutcome outcome, int attempts, Throwable failure) {}
}
