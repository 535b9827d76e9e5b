package dev.bounded.runtime;

/**
 * Thrown when work cannot finish within its {@link Deadline}: no attempt, wait or backoff is
 * started that would end past it.
 *
 * <p>Deliberately neither an {@link InterruptedException} nor a {@link
 * java.util.concurrent.CancellationException}: running out of time is an ordinary failure of this
 * request, not a request to stop the thread. The cause, when present, is the last failure seen
 * before time ran out.
 */
public class DeadlineExceededException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what could not be done in time
   */
  public DeadlineExceededException(String message) {
    super(message);
  }

  /**
   * Creates the exception with the last failure seen before time ran out.
   *
   * @param message what could not be done in time
   * @param cause the last failure, or {@code null}
   */
  public DeadlineExceededException(String message, Throwable cause) {
    super(message, cause);
  }
}
