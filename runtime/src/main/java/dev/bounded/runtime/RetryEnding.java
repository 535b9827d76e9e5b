package dev.bounded.runtime;

/**
 * How a {@link RetryPolicy} call ended, in full detail, as reported to {@link RetryListener#onEnd}:
 * the {@link RetryOutcome}s, with the cases that {@link RetryOutcome#NON_RETRYABLE} groups told
 * apart. Each ending maps to its {@link #outcome()}.
 */
public enum RetryEnding {
  /** An attempt returned normally; its result was returned. */
  SUCCESS(RetryOutcome.SUCCESS),
  /** Every allowed attempt failed with a retryable failure: {@link RetriesExhaustedException}. */
  EXHAUSTED(RetryOutcome.EXHAUSTED),
  /** The deadline passed, or the next backoff would have ended past it. */
  DEADLINE_EXCEEDED(RetryOutcome.DEADLINE_EXCEEDED),
  /** The shared {@link RetryBudget} refused a retry: {@link RetryBudgetExhaustedException}. */
  BUDGET_EXHAUSTED(RetryOutcome.BUDGET_EXHAUSTED),
  /** The thread was interrupted during an attempt or backoff: {@link RetryInterruptedException}. */
  INTERRUPTED(RetryOutcome.INTERRUPTED),
  /** Not classified transient, an {@link Error} or a cancellation; rethrown as it is. */
  NON_RETRYABLE(RetryOutcome.NON_RETRYABLE),
  /** The outcome is unknown and the call is not idempotent: {@link UnknownOutcomeException}. */
  UNKNOWN_OUTCOME(RetryOutcome.UNKNOWN_OUTCOME),
  /**
   * The failure came out of an inner layer that had already decided on it (a {@link
   * RetryException}, a {@link DeadlineExceededException}, a {@link ThrottledException} or a
   * policy's {@link UnknownOutcomeException}, in its cause chain); rethrown as it is, not retried.
   */
  DECIDED_BELOW(RetryOutcome.NON_RETRYABLE),
  /**
   * The dependency signalled overload ({@link OverloadedException} in the failure's cause chain)
   * and this policy is not the retry owner; rethrown as it is, not retried.
   */
  OVERLOADED(RetryOutcome.NON_RETRYABLE),
  /**
   * The policy's {@link AdaptiveThrottle} rejected the next attempt locally: {@link
   * ThrottledException}; the attempt was not sent, and the count of attempts excludes it.
   */
  THROTTLED(RetryOutcome.NON_RETRYABLE);

  private final RetryOutcome outcome;

  RetryEnding(RetryOutcome outcome) {
    this.outcome = outcome;
  }

  /**
   * Returns the coarser outcome this ending is reported as to {@link RetryListener#onOutcome}.
   *
   * @return the outcome
   */
  public RetryOutcome outcome() {
    return outcome;
  }
}
