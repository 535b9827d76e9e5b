/**
 * Bounded's runtime: the primitives that Bounded's suggested fixes point to.
 *
 * <p>{@link dev.bounded.runtime.Deadline} (one monotonic deadline per request); {@link
 * dev.bounded.runtime.RetryPolicy} (classified failures, a total-attempt cap, capped full-jitter
 * backoff, a shared {@link dev.bounded.runtime.RetryBudget}, one deadline for attempts and
 * backoff); {@link dev.bounded.runtime.TaskScope} (subtasks that never outlive their owner); {@link
 * dev.bounded.runtime.BoundedExecutor} (a bulkhead: fixed workers, a bounded queue, explicit
 * admission); and the idempotency markers {@link dev.bounded.runtime.Idempotent} and {@link
 * dev.bounded.runtime.NonIdempotent}. The module depends on nothing but {@code java.base}.
 */
module dev.bounded.runtime {
  exports dev.bounded.runtime;
}
