package dev.bounded.runtime;

/**
 * The calling thread was interrupted during an attempt or during backoff, so the call stopped at
 * once: no further attempt was started. Interruption is cancellation, never a transient failure.
 *
 * <p>When this exception is thrown the thread's interrupt flag is set again, so code further up the
 * stack still sees the request to stop. The cause is the {@link InterruptedException} (or the
 * failure observed while the flag was set); the last retryable failure, if different, is attached
 * as suppressed.
 */
public final class RetryInterruptedException extends RetryException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message when the interruption was seen
   * @param cause the interruption, or the failure observed with the interrupt flag set
   * @param attempts how many attempts were started
   */
  public RetryInterruptedException(String message, Throwable cause, int attempts) {
    super(message, cause, attempts);
  }
}
