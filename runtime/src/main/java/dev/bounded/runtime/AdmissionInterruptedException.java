package dev.bounded.runtime;

import java.util.concurrent.RejectedExecutionException;

/**
 * The thread submitting to a {@link BoundedExecutor} was interrupted while it waited for queue
 * space, so the task was not accepted. The interrupt flag is set again before this is thrown, so
 * code further up the stack still sees the request to stop; the cause is the {@link
 * InterruptedException}.
 *
 * <pre>{@code
 * try {
 *   executor.execute(task, deadline);
 * } catch (AdmissionInterruptedException e) {
 *   return; // the flag is still set: stop, do not retry
 * }
 * }</pre>
 */
public final class AdmissionInterruptedException extends RejectedExecutionException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message which executor the task was waiting for
   * @param cause the interruption
   */
  public AdmissionInterruptedException(String message, Throwable cause) {
    super(message, cause);
  }
}
