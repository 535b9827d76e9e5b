package dev.bounded.micrometer;

import dev.bounded.runtime.RetryBudget;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * Binds a {@link RetryBudget}'s balance as the gauge {@value #TOKENS}, tagged {@code name}: the
 * retries the budget would grant now. A gauge near zero while calls fail is a budget doing its job.
 *
 * <pre>{@code
 * new RetryBudgetMetrics("inventory", INVENTORY_BUDGET).bindTo(registry);
 * }</pre>
 *
 * <p>The gauge holds the budget weakly, as Micrometer gauges do. Immutable and thread-safe.
 */
public final class RetryBudgetMetrics implements MeterBinder {
  /** The gauge of available tokens. */
  public static final String TOKENS = "bounded.retry.budget.tokens";

  private final String name;
  private final RetryBudget budget;

  /**
   * Creates the binder.
   *
   * @param name the {@code name} tag, usually the dependency the budget guards
   * @param budget the budget
   */
  public RetryBudgetMetrics(String name, RetryBudget budget) {
    this.name = Objects.requireNonNull(name, "name");
    this.budget = Objects.requireNonNull(budget, "budget");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder(TOKENS, budget, RetryBudget::availableTokens)
        .description("Retry tokens a Bounded RetryBudget would grant now")
        .baseUnit("tokens")
        .tag("name", name)
        .register(registry);
  }
}
