package dev.bounded.runtime;

import java.util.Optional;

/**
 * A {@link RetryPolicy} call gave up on a failure it would otherwise have retried. The subclass
 * says why; {@link #getCause()} is the failure (or the interruption) that ended the call.
 */
public abstract class RetryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int attempts;
  private final String policyName;

  /**
   * Creates the exception.
   *
   * @param message why the call gave up
   * @param cause the failure that ended it
   * @param attempts how many attempts were started
   */
  protected RetryException(String message, Throwable cause, int attempts) {
    this(null, message, cause, attempts);
  }

  /**
   * Creates the exception for a named policy; the message starts with the policy's name.
   *
   * @param policyName the name of the policy that gave up, or {@code null} if it has none
   * @param message why the call gave up
   * @param cause the failure that ended it
   * @param attempts how many attempts were started
   */
  protected RetryException(String policyName, String message, Throwable cause, int attempts) {
    super(policyName == null ? message : "retry policy '" + policyName + "': " + message, cause);
    this.attempts = attempts;
    this.policyName = policyName;
  }

  /**
   * Returns the name of the policy that gave up.
   *
   * @return the policy's name, or empty if it has none
   */
  public Optional<String> policyName() {
    return Optional.ofNullable(policyName);
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
