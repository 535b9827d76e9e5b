package dev.bounded.micrometer;

import dev.bounded.runtime.AdaptiveThrottle;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * Binds an {@link AdaptiveThrottle}, tagged {@code name} (the throttle's name): the gauge {@value
 * #REJECTION_PROBABILITY} (the share of requests it sheds now) and the counter {@value #REJECTIONS}
 * (requests rejected locally since it was built).
 *
 * <pre>{@code
 * new AdaptiveThrottleMetrics(INVENTORY_THROTTLE).bindTo(registry);
 * }</pre>
 *
 * <p>The meters hold the throttle weakly. Immutable and thread-safe.
 */
public final class AdaptiveThrottleMetrics implements MeterBinder {
  /** The gauge of the rejection probability, in {@code [0, 1)}. */
  public static final String REJECTION_PROBABILITY = "bounded.throttle.rejection.probability";

  /** The counter of local rejections. */
  public static final String REJECTIONS = "bounded.throttle.rejections";

  private final AdaptiveThrottle throttle;

  /**
   * Creates the binder.
   *
   * @param throttle the throttle
   */
  public AdaptiveThrottleMetrics(AdaptiveThrottle throttle) {
    this.throttle = Objects.requireNonNull(throttle, "throttle");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder(REJECTION_PROBABILITY, throttle, AdaptiveThrottle::rejectionProbability)
        .description("Probability with which a Bounded AdaptiveThrottle rejects a request now")
        .tag("name", throttle.name())
        .register(registry);
    FunctionCounter.builder(REJECTIONS, throttle, t -> (double) t.rejected())
        .description("Requests rejected locally by a Bounded AdaptiveThrottle")
        .baseUnit("requests")
        .tag("name", throttle.name())
        .register(registry);
  }
}
