package dev.bounded.runtime;

/**
 * Every attempt allowed by {@link RetryPolicy.Builder#maxAttempts(int)} failed with a retryable
 * failure. The cause is the last failure; earlier distinct failures are attached as {@linkplain
 * #getSuppressed() suppressed}, oldest first.
 */
public final class RetriesExhaustedException extends RetryException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param attempts how many attempts were made
   * @param last the last failure
   */
  public RetriesExhaustedException(int attempts, Throwable last) {
    super(
        (attempts == 1 ? "1 attempt" : attempts + " attempts")
            + " failed, giving up; last failure: "
            + last,
        last,
        attempts);
  }
}
