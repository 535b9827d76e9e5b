package dev.bounded.runtime;

/**
 * The dependency said it is overloaded: do not retry. Map the dependency's own signal to it, where
 * the client sees it: an HTTP 429 or 503, a gRPC {@code RESOURCE_EXHAUSTED}, a broker's throttling
 * error.
 *
 * <pre>{@code
 * if (response.statusCode() == 429 || response.statusCode() == 503) {
 *   throw new OverloadedException("inventory answered " + response.statusCode());
 * }
 * }</pre>
 *
 * <p>Every {@link RetryPolicy} passes it on without a retry, whatever its classifier says, found as
 * the failure or one of its causes: retrying an overloaded dependency from every layer is what
 * turns a brownout into an outage. The one exception is a policy built as the {@linkplain
 * RetryPolicy.Builder#retryOwner() retry owner}, which retries it with backoff and within its
 * budget. An {@link AdaptiveThrottle} counts it as a request the dependency did not accept.
 *
 * <p>Not final: subclass it to carry the dependency's details (a {@code Retry-After} value, say).
 */
public class OverloadedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message which dependency is overloaded, and how it said so
   */
  public OverloadedException(String message) {
    super(message);
  }

  /**
   * Creates the exception with the dependency's own failure.
   *
   * @param message which dependency is overloaded, and how it said so
   * @param cause the failure that carried the signal
   */
  public OverloadedException(String message, Throwable cause) {
    super(message, cause);
  }
}
