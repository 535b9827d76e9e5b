package dev.bounded.runtime;

import java.util.concurrent.RejectedExecutionException;

/**
 * A {@link BoundedExecutor} refused a task because the caller's {@link Deadline} had already passed
 * when it asked: no work starts after the deadline, even when the executor has room. (A deadline
 * that passes while the caller waits for room ends in {@link ExecutorFullException}: the executor
 * was full.)
 *
 * <p>A {@link RejectedExecutionException}, so existing handlers of refused tasks see it.
 */
public final class AdmissionDeadlineExceededException extends RejectedExecutionException {
  private static final long serialVersionUID = 1L;

  private final String executorName;

  /**
   * Creates the exception.
   *
   * @param message what was refused
   * @param executorName the name of the executor that refused the task
   */
  public AdmissionDeadlineExceededException(String message, String executorName) {
    super(message);
    this.executorName = executorName;
  }

  /**
   * Returns the name of the executor that refused the task.
   *
   * @return the executor's name
   */
  public String executorName() {
    return executorName;
  }
}
