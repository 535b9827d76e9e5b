package dev.bounded.runtime;

import java.util.concurrent.RejectedExecutionException;

/**
 * A {@link BoundedExecutor} refused a task because its queue was full: at once for {@link
 * BoundedExecutor#execute(Runnable)} and {@code submit}, or after waiting until the {@link
 * Deadline} for {@link BoundedExecutor#execute(Runnable, Deadline)}. The task was not accepted and
 * will never run; the caller still holds it.
 *
 * <pre>{@code
 * try {
 *   inventoryPool.execute(() -> refresh(sku));
 * } catch (ExecutorFullException e) {
 *   return Response.status(503).header("Retry-After", "1").build(); // shed load
 * }
 * }</pre>
 *
 * <p>The message names the executor and gives its queue depth, queue capacity and worker count.
 */
public final class ExecutorFullException extends RejectedExecutionException {
  private static final long serialVersionUID = 1L;

  private final String executorName;
  private final int queueCapacity;
  private final int queueDepth;

  /**
   * Creates the exception.
   *
   * @param message what was refused, and how full the executor was
   * @param executorName the executor's name
   * @param queueCapacity the executor's queue capacity
   * @param queueDepth the number of queued tasks when the task was refused
   */
  public ExecutorFullException(
      String message, String executorName, int queueCapacity, int queueDepth) {
    super(message);
    this.executorName = executorName;
    this.queueCapacity = queueCapacity;
    this.queueDepth = queueDepth;
  }

  /**
   * Returns the name of the executor that refused the task.
   *
   * @return the executor's name
   */
  public String executorName() {
    return executorName;
  }

  /**
   * Returns the capacity of the executor's queue.
   *
   * @return the most tasks that can wait for a worker
   */
  public int queueCapacity() {
    return queueCapacity;
  }

  /**
   * Returns how many tasks were queued when this one was refused.
   *
   * @return the queue depth at the refusal
   */
  public int queueDepth() {
    return queueDepth;
  }
}
