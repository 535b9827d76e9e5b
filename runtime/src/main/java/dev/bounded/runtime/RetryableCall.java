package dev.bounded.runtime;

/**
 * An operation run by a {@link RetryPolicy}, once per attempt.
 *
 * <p>It receives the {@link Attempt}, so it can bound its own waits by the time the shared deadline
 * has left rather than by a fixed per-attempt timeout:
 *
 * <pre>{@code
 * policy.call(deadline, attempt ->
 *     future.get(attempt.remainingNanos(), TimeUnit.NANOSECONDS));
 * }</pre>
 *
 * @param <T> the result type
 * @param <X> the checked exception the operation may throw ({@link RuntimeException} when none)
 */
@FunctionalInterface
public interface RetryableCall<T, X extends Exception> {

  /**
   * Runs one attempt.
   *
   * @param attempt the attempt's number and the deadline shared by all attempts
   * @return the result
   * @throws X when the attempt fails; the policy decides whether to try again
   */
  T call(Attempt attempt) throws X;
}
