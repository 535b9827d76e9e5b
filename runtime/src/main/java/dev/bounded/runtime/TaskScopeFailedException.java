package dev.bounded.runtime;

/**
 * Thrown by {@link TaskScope#join()} when subtasks failed: the cause is the first failure, and the
 * failures that followed it (up to 16) are attached as {@linkplain #getSuppressed() suppressed}
 * exceptions, so no failure is lost to a race for first place.
 *
 * <pre>{@code
 * try (TaskScope scope = TaskScope.open()) {
 *   scope.fork(() -> inventory.reserve(order));
 *   scope.fork(() -> payments.authorize(order));
 *   scope.join();
 * } catch (TaskScopeFailedException e) {
 *   log.warn("order {} failed", order.id(), e.getCause());
 * }
 * }</pre>
 *
 * <p>Unchecked, like every outcome of the runtime: most callers let it propagate, and a checked
 * wrapper would only push them to catch and rewrap it. The cause may be an {@link Error} (an {@link
 * AssertionError} or {@link OutOfMemoryError} in a subtask is reported, not lost); it is wrapped,
 * not rethrown, because it happened on another thread: the owner's own stack is intact.
 */
public final class TaskScopeFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int failures;

  /**
   * Creates the exception.
   *
   * @param message which scope failed and how many of its subtasks failed
   * @param firstFailure the failure that cancelled the scope
   * @param failures how many subtasks failed in all, at least 1
   */
  public TaskScopeFailedException(String message, Throwable firstFailure, int failures) {
    super(message, firstFailure);
    this.failures = failures;
  }

  /**
   * Returns how many subtasks failed: the cause, the suppressed failures, and any beyond the 16
   * that are kept.
   *
   * @return at least 1
   */
  public int failures() {
    return failures;
  }
}
