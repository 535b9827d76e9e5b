package dev.bounded.runtime;

/**
 * The shared {@link RetryBudget} refused a retry: across all callers, retries already add as much
 * load as the budget allows. The cause is the failure that would have been retried; it surfaces at
 * once, without waiting.
 */
public final class RetryBudgetExhaustedException extends RetryException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param attempts how many attempts were made
   * @param last the failure that would have been retried
   */
  public RetryBudgetExhaustedException(int attempts, Throwable last) {
    this(null, attempts, last);
  }

  /**
   * Creates the exception for a named policy.
   *
   * @param policyName the name of the policy, or {@code null} if it has none
   * @param attempts how many attempts were made
   * @param last the failure that would have been retried
   */
  public RetryBudgetExhaustedException(String policyName, int attempts, Throwable last) {
    super(
        policyName,
        "retry budget exhausted after "
            + (attempts == 1 ? "1 attempt" : attempts + " attempts")
            + ", not retrying; last failure: "
            + last,
        last,
        attempts);
  }
}
