package dev.bounded.runtime;

/** How a {@link RetryPolicy} call ended, as reported to {@link RetryListener#onOutcome}. */
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
   * java.util.concurrent.CancellationException}); it was rethrown as it is.
   */
  NON_RETRYABLE,
  /**
   * The failure left the outcome unknown and the call is not declared idempotent: {@link
   * UnknownOutcomeException}.
   */
  UNKNOWN_OUTCOME
}
