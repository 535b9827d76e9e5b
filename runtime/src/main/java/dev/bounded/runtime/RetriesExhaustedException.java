package dev.bounded.runtime;

/**
 * Every attempt allowed by {@link RetryPolicy.Builder#maxAttempts(int)} failed with a retryable
 * failure. The cause is the last failure. Earlier distinct failures are attached as {@linkplain
 * #getSuppressed() suppressed}, oldest first: at most the 16 most recent of them, so that a policy
 * with hundreds of attempts does not hold hundreds of stack traces; the older ones are counted in
 * {@link #omittedFailures()} and named in the message.
 */
public final class RetriesExhaustedException extends RetryException {
  private static final long serialVersionUID = 1L;

  private final int omittedFailures;

  /**
   * Creates the exception, with no earlier failure omitted.
   *
   * @param attempts how many attempts were made
   * @param last the last failure
   */
  public RetriesExhaustedException(int attempts, Throwable last) {
    this(attempts, last, 0);
  }

  /**
   * Creates the exception.
   *
   * @param attempts how many attempts were made
   * @param last the last failure
   * @param omittedFailures how many earlier distinct failures were not kept as suppressed
   * @throws IllegalArgumentException if {@code omittedFailures} is negative
   */
  public RetriesExhaustedException(int attempts, Throwable last, int omittedFailures) {
    this(null, attempts, last, omittedFailures);
  }

  /**
   * Creates the exception for a named policy.
   *
   * @param policyName the name of the policy, or {@code null} if it has none
   * @param attempts how many attempts were made
   * @param last the last failure
   * @param omittedFailures how many earlier distinct failures were not kept as suppressed
   * @throws IllegalArgumentException if {@code omittedFailures} is negative
   */
  public RetriesExhaustedException(
      String policyName, int attempts, Throwable last, int omittedFailures) {
    super(policyName, message(attempts, last, omittedFailures), last, attempts);
    this.omittedFailures = omittedFailures;
  }

  /**
   * Returns how many earlier distinct failures are not attached as suppressed, because only the
   * most recent ones are kept.
   *
   * @return zero unless more than 16 earlier distinct failures occurred
   */
  public int omittedFailures() {
    return omittedFailures;
  }

  private static String message(int attempts, Throwable last, int omittedFailures) {
    if (omittedFailures < 0) {
      throw new IllegalArgumentException("omittedFailures must be >= 0, was " + omittedFailures);
    }
    return (attempts == 1 ? "1 attempt" : attempts + " attempts")
        + " failed, giving up"
        + (omittedFailures == 0
            ? ""
            : " (the "
                + omittedFailures
                + " oldest earlier "
                + (omittedFailures == 1 ? "failure is" : "failures are")
                + " not attached)")
        + "; last failure: "
        + last;
  }
}
