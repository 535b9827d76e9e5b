package dev.bounded.runtime;

/**
 * Thrown when an operation failed in a way that leaves its outcome unknown: it may or may not have
 * taken effect (a write that timed out after the request was sent may have committed).
 *
 * <p>{@link RetryPolicy} does not retry such a failure unless the call is declared idempotent
 * ({@link RetryPolicy#callIdempotent}), because a retry could apply the write twice. Operations may
 * throw this exception themselves to say the same thing:
 *
 * <pre>{@code
 * try {
 *   return payments.charge(order);
 * } catch (SocketTimeoutException e) {
 *   throw new UnknownOutcomeException("charge " + order.id() + " timed out after sending", e);
 * }
 * }</pre>
 *
 * <p>The cause is the failure that made the outcome unknown. The caller decides what to do: look
 * the outcome up, retry under an idempotency key, or report it.
 */
public class UnknownOutcomeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what may or may not have happened
   * @param cause the failure that made the outcome unknown
   */
  public UnknownOutcomeException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Set once a {@link RetryPolicy} has refused to retry this outcome: outer layers respect it. */
  private volatile boolean decidedByPolicy;

  void markDecidedByPolicy() {
    decidedByPolicy = true;
  }

  /**
   * Tells whether a {@link RetryPolicy} threw this exception, having refused to retry the unknown
   * outcome (the call was not declared idempotent). No outer policy retries it then, not even in a
   * call declared idempotent: the layer that knew the operation decided.
   *
   * @return {@code true} if a policy decided on it; {@code false} if only the operation threw it
   */
  public boolean decidedByPolicy() {
    return decidedByPolicy;
  }
}
