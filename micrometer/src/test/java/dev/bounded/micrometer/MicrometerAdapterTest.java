package dev.bounded.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bounded.runtime.AdaptiveThrottle;
import dev.bounded.runtime.BoundedExecutor;
import dev.bounded.runtime.OverloadedException;
import dev.bounded.runtime.RetriesExhaustedException;
import dev.bounded.runtime.RetryBudget;
import dev.bounded.runtime.RetryPolicy;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Micrometer adapter against {@link SimpleMeterRegistry} on a {@link MockClock}. */
@Timeout(20)
final class MicrometerAdapterTest {
  private final MockClock clock = new MockClock();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
  private final MicrometerRetryListener listener = new MicrometerRetryListener(registry);

  @Test
  void callsAreTimedAndAttemptsCountedByPolicyNameAndOutcome() {
    RetryPolicy inventory =
        RetryPolicy.builder()
            .name("inventory")
            .maxAttempts(3)
            .retryOn(IllegalStateException.class)
            .backoff(Duration.ofMillis(100), Duration.ofMillis(100))
            .random(() -> -1L) // the highest draw: every backoff is the full 100 ms
            .sleeper(d -> clock.add(d))
            .listener(listener)
            .build();

    String ok = inventory.call(a -> "ok");
    assertThat(ok).isEqualTo("ok");
    Throwable failed =
        catchThrowable(
            () ->
                inventory.call(
                    a -> {
                      clock.add(Duration.ofMillis(5)); // each attempt takes 5 ms
                      throw new IllegalStateException("down");
                    }));

    assertThat(failed).isInstanceOf(RetriesExhaustedException.class);
    Timer exhausted =
        registry
            .get(MicrometerRetryListener.CALLS)
            .tags("name", "inventory", "outcome", "exhausted")
            .timer();
    assertThat(exhausted.count()).isEqualTo(1);
    assertThat(exhausted.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3 * 5 + 2 * 100);
    assertThat(
            registry
                .get(MicrometerRetryListener.CALLS)
                .tags("name", "inventory", "outcome", "success")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get(MicrometerRetryListener.ATTEMPTS)
                .tags("name", "inventory", "outcome", "exhausted")
                .counter()
                .count())
        .isEqualTo(3);
    assertThat(
            registry
                .get(MicrometerRetryListener.ATTEMPTS)
                .tags("name", "inventory", "outcome", "success")
                .counter()
                .count())
        .isEqualTo(1);
  }

  @Test
  void tagsStayLowCardinality() {
    RetryPolicy unnamed = RetryPolicy.builder().listener(listener).build();
    for (int i = 0; i < 50; i++) {
      int n = i;
      Throwable overloaded =
          catchThrowable(
              () ->
                  unnamed.call(
                      a -> {
                        throw new OverloadedException(
                            "request " + n + " refused"); // unique messages
                      }));
      assertThat(overloaded).isInstanceOf(OverloadedException.class);
    }

    assertThat(registry.getMeters())
        .extracting(m -> m.getId().getName() + m.getId().getTags())
        .containsExactlyInAnyOrder(
            "bounded.retry.calls[tag(name=unnamed), tag(outcome=overloaded)]",
            "bounded.retry.attempts[tag(name=unnamed), tag(outcome=overloaded)]");
    assertThat(
            registry.getMeters().stream()
                .flatMap(m -> m.getId().getTags().stream())
                .map(t -> t.getKey())
                .collect(Collectors.toSet()))
        .containsExactlyInAnyOrder("name", "outcome");
  }

  @Test
  void theBudgetsTokensAreAGauge() {
    AtomicLong now = new AtomicLong();
    RetryBudget budget =
        RetryBudget.builder().ratio(0).minRetriesPerSecond(10).ticker(now::get).build();
    new RetryBudgetMetrics("inventory", budget).bindTo(registry);

    assertThat(gauge(RetryBudgetMetrics.TOKENS, "inventory")).isEqualTo(10.0);
    budget.tryAcquireRetry();
    assertThat(gauge(RetryBudgetMetrics.TOKENS, "inventory")).isEqualTo(9.0);
  }

  @Test
  void theThrottlesRejectionProbabilityAndRejectionsAreExported() {
    AtomicLong now = new AtomicLong();
    AdaptiveThrottle throttle =
        AdaptiveThrottle.builder("inventory").k(1).ticker(now::get).random(() -> 0L).build();
    new AdaptiveThrottleMetrics(throttle).bindTo(registry);
    assertThat(gauge(AdaptiveThrottleMetrics.REJECTION_PROBABILITY, "inventory")).isZero();

    for (int i = 0; i < 3; i++) {
      throttle.tryAcquire(); // nothing accepted; the draw 0.0 rejects once p > 0
    }

    assertThat(gauge(AdaptiveThrottleMetrics.REJECTION_PROBABILITY, "inventory"))
        .isEqualTo(3.0 / 4);
    assertThat(
            registry
                .get(AdaptiveThrottleMetrics.REJECTIONS)
                .tag("name", "inventory")
                .functionCounter()
                .count())
        .isEqualTo(2);
  }

  @Test
  void theExecutorsQueueDepthAndActivityAreGauges() throws InterruptedException {
    BoundedExecutor executor =
        BoundedExecutor.builder("shipping").workers(1).queueCapacity(2).build();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try {
      new BoundedExecutorMetrics(executor).bindTo(registry);
      executor.execute(
          () -> {
            started.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
      started.await();
      executor.execute(() -> {});

      assertThat(gauge(BoundedExecutorMetrics.ACTIVE, "shipping")).isEqualTo(1.0);
      assertThat(gauge(BoundedExecutorMetrics.QUEUED, "shipping")).isEqualTo(1.0);
      assertThat(gauge(BoundedExecutorMetrics.QUEUE_CAPACITY, "shipping")).isEqualTo(2.0);
      assertThat(gauge(BoundedExecutorMetrics.WORKERS, "shipping")).isEqualTo(1.0);
      release.countDown();
      executor.close();
      assertThat(
              registry
                  .get(BoundedExecutorMetrics.COMPLETED)
                  .tag("name", "shipping")
                  .functionCounter()
                  .count())
          .isEqualTo(2);
      assertThat(
              registry
                  .get(BoundedExecutorMetrics.REJECTED)
                  .tag("name", "shipping")
                  .functionCounter()
                  .count())
          .isZero();
    } finally {
      release.countDown();
      executor.shutdownNow();
      assertThat(executor.awaitTermination(1, TimeUnit.DAYS)).isTrue();
    }
  }

  private double gauge(String name, String tag) {
    return registry.get(name).tag("name", tag).gauge().value();
  }
}
