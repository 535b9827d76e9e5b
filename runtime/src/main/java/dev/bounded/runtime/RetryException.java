package dev.bounded.runtime;

/**
 * A {@link RetryPolicy} call gave up on a failure it would otherwise have retried. The subclass
 * says why; {@link #getCause()} is the failure (or the interruption) that ended the call.
 */
public abstract class RetryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int attempts;

  /**
   * Creates the exception.
   *
   * @param message why the call gave up
   * @param cause the failure that ended it
   * @param attempts how many attempts were started
   */
  protected RetryException(String message, Throwable cause, int attempts) {
    super(message, cause);
    this.attempts = attempts;
  }

  /**
   * Returns how many attempts were started before the call gave up.
   *
   * @return the number of calls made to the operation
   */
  public int attempts() {
    return attempts;
  }
}
