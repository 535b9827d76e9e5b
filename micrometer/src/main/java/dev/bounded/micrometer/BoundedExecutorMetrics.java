package dev.bounded.micrometer;

import dev.bounded.runtime.BoundedExecutor;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * Binds a {@link BoundedExecutor}, tagged {@code name} (the executor's name): gauges {@value
 * #QUEUED} (accepted, not started), {@value #ACTIVE} (running), {@value #QUEUE_CAPACITY} and
 * {@value #WORKERS}; counters {@value #COMPLETED} and {@value #REJECTED} (full, expired deadline,
 * throttled, shut down or interrupted).
 *
 * <pre>{@code
 * new BoundedExecutorMetrics(INVENTORY_POOL).bindTo(registry);
 * }</pre>
 *
 * <p>The meters hold the executor weakly. Immutable and thread-safe.
 */
public final class BoundedExecutorMetrics implements MeterBinder {
  /** The gauge of tasks accepted and not started. */
  public static final String QUEUED = "bounded.executor.queued";

  /** The gauge of tasks running. */
  public static final String ACTIVE = "bounded.executor.active";

  /** The gauge of the queue's capacity. */
  public static final String QUEUE_CAPACITY = "bounded.executor.queue.capacity";

  /** The gauge of the number of workers. */
  public static final String WORKERS = "bounded.executor.workers";

  /** The counter of tasks finished. */
  public static final String COMPLETED = "bounded.executor.completed";

  /** The counter of tasks refused. */
  public static final String REJECTED = "bounded.executor.rejected";

  private final BoundedExecutor executor;

  /**
   * Creates the binder.
   *
   * @param executor the executor
   */
  public BoundedExecutorMetrics(BoundedExecutor executor) {
    this.executor = Objects.requireNonNull(executor, "executor");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    String name = executor.name();
    Gauge.builder(QUEUED, executor, BoundedExecutor::queued)
        .description("Tasks accepted by a Bounded executor and not started")
        .baseUnit("tasks")
        .tag("name", name)
        .register(registry);
    Gauge.builder(ACTIVE, executor, BoundedExecutor::active)
        .description("Tasks running on a Bounded executor's workers")
        .baseUnit("tasks")
        .tag("name", name)
        .register(registry);
    Gauge.builder(QUEUE_CAPACITY, executor, BoundedExecutor::queueCapacity)
        .description("Queue capacity of a Bounded executor")
        .baseUnit("tasks")
        .tag("name", name)
        .register(registry);
    Gauge.builder(WORKERS, executor, BoundedExecutor::workers)
        .description("Workers of a Bounded executor")
        .baseUnit("threads")
        .tag("name", name)
        .register(registry);
    FunctionCounter.builder(COMPLETED, executor, e -> (double) e.completed())
        .description("Tasks finished by a Bounded executor")
        .baseUnit("tasks")
        .tag("name", name)
        .register(registry);
    FunctionCounter.builder(REJECTED, executor, e -> (double) e.rejected())
        .description("Tasks refused by a Bounded executor")
        .baseUnit("tasks")
        .tag("name", name)
        .register(registry);
  }
}
