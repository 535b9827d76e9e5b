package dev.bounded.micrometer;

import dev.bounded.runtime.Deadline;
import dev.bounded.runtime.RetryEnding;
import dev.bounded.runtime.RetryListener;
import dev.bounded.runtime.RetryPolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.Objects;

/**
 * A {@link RetryListener} that records every {@link RetryPolicy} call in Micrometer:
 *
 * <ul>
 *   <li>{@value #CALLS}, a {@link Timer}: one sample per call, its duration from the start of the
 *       call to its outcome (attempts and backoff included), tagged {@code name} (the policy's
 *       {@link RetryPolicy#name()}, or {@value #UNNAMED}) and {@code outcome} (the {@link
 *       RetryEnding} in lower case: {@code success}, {@code exhausted}, {@code throttled}, ...);
 *   <li>{@value #ATTEMPTS}, a {@link Counter}: the attempts those calls made, same tags, so
 *       attempts / calls is the retry amplification of each policy.
 * </ul>
 *
 * <pre>{@code
 * MicrometerRetryListener metrics = new MicrometerRetryListener(registry);
 * RetryPolicy inventory = RetryPolicy.builder().name("inventory").listener(metrics).build();
 * // bounded_retry_calls_seconds_count{name="inventory",outcome="exhausted"} in Prometheus
 * }</pre>
 *
 * <p>Tags are low-cardinality by construction: policy names are fixed and there are ten outcomes;
 * no exception message or class is a tag. Durations are read from the registry's {@link
 * io.micrometer.core.instrument.Clock}. Thread-safe: one listener may serve every policy.
 */
public final class MicrometerRetryListener implements RetryListener {
  /** The timer of calls, by policy name and outcome. */
  public static final String CALLS = "bounded.retry.calls";

  /** The counter of attempts, by policy name and outcome. */
  public static final String ATTEMPTS = "bounded.retry.attempts";

  /** The {@code name} tag of a policy built without a name. */
  public static final String UNNAMED = "unnamed";

  private final MeterRegistry registry;

  /**
   * Creates a listener that registers its meters in {@code registry} as outcomes occur.
   *
   * @param registry the registry
   */
  public MicrometerRetryListener(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public RetryListener onCallStart(RetryPolicy policy, Deadline deadline) {
    return new Call(policy.name().orElse(UNNAMED), Timer.start(registry));
  }

  /** One call's state: its policy's name and the running timer sample. */
  private final class Call implements RetryListener {
    private final String name;
    private final Timer.Sample sample;

    Call(String name, Timer.Sample sample) {
      this.name = name;
      this.sample = sample;
    }

    @Override
    public void onEnd(RetryEnding ending, int attempts, Throwable failure) {
      Tags tags = Tags.of("name", name, "outcome", ending.name().toLowerCase(Locale.ROOT));
      sample.stop(
          Timer.builder(CALLS)
              .description("Calls run by a Bounded RetryPolicy, from start to outcome")
              .tags(tags)
              .register(registry));
      Counter.builder(ATTEMPTS)
          .description("Attempts made by calls of a Bounded RetryPolicy")
          .baseUnit("attempts")
          .tags(tags)
          .register(registry)
          .increment(attempts);
    }
  }
}
