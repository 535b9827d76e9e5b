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
  UNKNOWN_OUTCOME,
  /**
   * The failure came out of an inner layer that had already decided on it (a {@link
   * RetryException}, a {@link DeadlineExceededException}, a {@link ThrottledException} or a
   * policy's {@link UnknownOutcomeException}, in its cause chain); rethrown as it is, not retried.
   */
  DECIDED_BELOW,
  /**
   * The dependency signalled overload ({@link OverloadedException} in the failure's cause chain)
   * and this policy is not the retry owner; rethrown as it is, not retried.
   */
  OVERLOADED,
  /**
   * The policy's {@link AdaptiveThrottle} rejected the next attempt locally: {@link
   * ThrottledException}; the attempt was not sent. The count of attempts excludes it.
   */
  THROTTLED
}
