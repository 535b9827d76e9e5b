package dev.bounded.runtime;

/**
 * Thrown by {@link TaskScope#join()} when the owner was interrupted while waiting: the scope
 * cancelled every subtask, waited for all of them to finish, and set the owner's interrupt flag
 * again before throwing, so code further up the stack still sees the request to stop.
 *
 * <pre>{@code
 * try (TaskScope scope = TaskScope.open()) {
 *   scope.fork(() -> slowCall());
 *   scope.join();
 * } catch (TaskScopeInterruptedException e) {
 *   assert Thread.currentThread().isInterrupted(); // the flag is kept: stop, do not retry
 * }
 * }</pre>
 *
 * <p>The cause is the {@link InterruptedException}; failures of subtasks that ended while being
 * cancelled are attached as suppressed. Unchecked for the same reason as {@link
 * RetryInterruptedException}: the flag, not a checked exception, carries the interruption on.
 */
public final class TaskScopeInterruptedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message which scope was interrupted and what it cancelled
   * @param cause the interruption
   */
  public TaskScopeInterruptedException(String message, Throwable cause) {
    super(message, cause);
  }
}
