package dev.bounded.opentelemetry;

import dev.bounded.runtime.AdaptiveThrottle;
import dev.bounded.runtime.BoundedExecutor;
import dev.bounded.runtime.RetryBudget;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.Meter;
import java.util.List;
import java.util.Objects;

/**
 * Asynchronous OpenTelemetry instruments for the runtime's gauges, the same figures as the
 * Micrometer adapter: a budget's tokens, a throttle's rejection probability and local rejections,
 * an executor's queue depth, activity, completions and refusals. Each is read when the SDK
 * collects, with the attribute {@value #NAME}.
 *
 * <pre>{@code
 * Meter meter = openTelemetry.getMeter(OpenTelemetryRetryListener.SCOPE);
 * AutoCloseable budgetGauge = BoundedObservables.observe(meter, "inventory", INVENTORY_BUDGET);
 * AutoCloseable poolGauges = BoundedObservables.observe(meter, INVENTORY_POOL);
 * }</pre>
 *
 * <p>Each method returns a handle whose {@code close()} removes the instruments' callbacks.
 * Thread-safe: the callbacks only read the runtime objects' counters.
 */
public final class BoundedObservables {
  /** The attribute naming the budget, throttle or executor. */
  public static final String NAME = "bounded.name";

  private static final AttributeKey<String> NAME_KEY = AttributeKey.stringKey(NAME);

  private BoundedObservables() {}

  /**
   * Observes a budget's available tokens as {@code bounded.retry.budget.tokens}.
   *
   * @param meter the meter to register with
   * @param name the budget's name, usually its dependency
   * @param budget the budget
   * @return the handle that removes the instrument
   */
  public static AutoCloseable observe(Meter meter, String name, RetryBudget budget) {
    Objects.requireNonNull(budget, "budget");
    Attributes attributes = Attributes.of(NAME_KEY, Objects.requireNonNull(name, "name"));
    return meter
        .gaugeBuilder("bounded.retry.budget.tokens")
        .setDescription("Retry tokens a Bounded RetryBudget would grant now")
        .setUnit("{token}")
        .buildWithCallback(m -> m.record(budget.availableTokens(), attributes));
  }

  /**
   * Observes a throttle as {@code bounded.throttle.rejection_probability} (a gauge) and {@code
   * bounded.throttle.rejections} (a counter of local rejections).
   *
   * @param meter the meter to register with
   * @param throttle the throttle, named by its own name
   * @return the handle that removes both instruments
   */
  public static AutoCloseable observe(Meter meter, AdaptiveThrottle throttle) {
    Objects.requireNonNull(throttle, "throttle");
    Attributes attributes = Attributes.of(NAME_KEY, throttle.name());
    return all(
        List.of(
            meter
                .gaugeBuilder("bounded.throttle.rejection_probability")
                .setDescription("Probability with which a Bounded AdaptiveThrottle rejects now")
                .setUnit("1")
                .buildWithCallback(m -> m.record(throttle.rejectionProbability(), attributes)),
            meter
                .counterBuilder("bounded.throttle.rejections")
                .setDescription("Requests rejected locally by a Bounded AdaptiveThrottle")
                .setUnit("{request}")
                .buildWithCallback(m -> m.record(throttle.rejected(), attributes))));
  }

  /**
   * Observes an executor as {@code bounded.executor.queued} and {@code bounded.executor.active}
   * (gauges), {@code bounded.executor.completed} and {@code bounded.executor.rejected} (counters).
   *
   * @param meter the meter to register with
   * @param executor the executor, named by its own name
   * @return the handle that removes the instruments
   */
  public static AutoCloseable observe(Meter meter, BoundedExecutor executor) {
    Objects.requireNonNull(executor, "executor");
    Attributes attributes = Attributes.of(NAME_KEY, executor.name());
    return all(
        List.of(
            meter
                .gaugeBuilder("bounded.executor.queued")
                .ofLongs()
                .setDescription("Tasks accepted by a Bounded executor and not started")
                .setUnit("{task}")
                .buildWithCallback(m -> m.record(executor.queued(), attributes)),
            meter
                .gaugeBuilder("bounded.executor.active")
                .ofLongs()
                .setDescription("Tasks running on a Bounded executor's workers")
                .setUnit("{task}")
                .buildWithCallback(m -> m.record(executor.active(), attributes)),
            meter
                .counterBuilder("bounded.executor.completed")
                .setDescription("Tasks finished by a Bounded executor")
                .setUnit("{task}")
                .buildWithCallback(m -> m.record(executor.completed(), attributes)),
            meter
                .counterBuilder("bounded.executor.rejected")
                .setDescription("Tasks refused by a Bounded executor")
                .setUnit("{task}")
                .buildWithCallback(m -> m.record(executor.rejected(), attributes))));
  }

  private static AutoCloseable all(List<? extends AutoCloseable> instruments) {
    return () -> {
      Exception first = null;
      for (AutoCloseable instrument : instruments) {
        try {
          instrument.close();
        } catch (Exception e) {
          if (first == null) {
            first = e;
          } else {
            first.addSuppressed(e);
          }
        }
      }
      if (first != null) {
        throw first;
      }
    };
  }
}
