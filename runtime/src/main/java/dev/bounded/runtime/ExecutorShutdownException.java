package dev.bounded.runtime;

import java.util.concurrent.RejectedExecutionException;

/**
 * A {@link BoundedExecutor} refused a task because it has been shut down. The task was not accepted
 * and will never run; the caller still holds it.
 *
 * <pre>{@code
 * executor.shutdown();
 * executor.execute(task); // throws ExecutorShutdownException: executor 'inventory' is shut down
 * }</pre>
 */
public final class ExecutorShutdownException extends RejectedExecutionException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message which executor refused the task
   */
  public ExecutorShutdownException(String message) {
    super(message);
  }
}
