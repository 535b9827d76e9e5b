package dev.bounded.runtime;

/**
 * How a {@link RetryPolicy} call ended, as reported to {@link RetryListener#onOutcome}: the seven
 * outcomes of the first release, kept as they are so that existing {@code switch}es stay
 * exhaustive. {@link RetryEnding}, reported to {@link RetryListener#onEnd}, tells them apart more
 * finely.
 */
public enum RetryOutcome {
  /** An attempt returned normally; its result was returned. */
  SUCCESS,
  /** Every allowed attempt failed with a retryable failure: {@link RetriesExhaustedException}. */
  EXHAUSTED,
  /**
   * The deadline passed, or the next backoff would have ended past it: {@link
   * DeadlineExceededException}.
   */
  DEADLINE_EXCEEDED,
  /** The shared {@link RetryBudget} refused a retry: {@link RetryBudgetExhaustedException}. */
  BUDGET_EXHAUSTED,
  /** The thread was interrupted during an attempt or backoff: {@link RetryInterruptedException}. */
  INTERRUPTED,
  /**
   * The failure is not retryable (not classified transient, an {@link Error}, or a {@link
   * java.util.concurrent.CancellationException}); it was rethrown as it is. Also the outcome of the
   * endings this enum does not name, each passed on without a retry: an inner layer's decision,
   * overload at a policy that is not the owner, and a local throttle rejection ({@link
   * RetryEnding#DECIDED_BELOW}, {@link RetryEnding#OVERLOADED}, {@link RetryEnding#THROTTLED}).
   */
  NON_RETRYABLE,
  /**
   * The failure left the outcome unknown and the call is not declared idempotent: {@link
   * UnknownOutcomeException}.
   */
  UNKNOWN_OUTCOME
}
