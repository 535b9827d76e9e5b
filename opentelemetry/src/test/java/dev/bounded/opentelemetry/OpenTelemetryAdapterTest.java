package dev.bounded.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bounded.runtime.AdaptiveThrottle;
import dev.bounded.runtime.BoundedExecutor;
import dev.bounded.runtime.RetriesExhaustedException;
import dev.bounded.runtime.RetryBudget;
import dev.bounded.runtime.RetryPolicy;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The OpenTelemetry adapter against the SDK's in-memory span exporter and metric reader. */
@Timeout(20)
final class OpenTelemetryAdapterTest {
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
  private final OpenTelemetrySdk sdk =
      OpenTelemetrySdk.builder()
          .setTracerProvider(
              SdkTracerProvider.builder()
                  .addSpanProcessor(SimpleSpanProcessor.create(spans))
                  .build())
          .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
          .build();
  private final AtomicLong now = new AtomicLong();
  private final OpenTelemetryRetryListener listener = new OpenTelemetryRetryListener(sdk, now::get);

  @AfterEach
  void closeSdk() {
    sdk.close();
  }

  private RetryPolicy inventory() {
    return RetryPolicy.builder()
        .name("inventory")
        .maxAttempts(3)
        .retryOn(IllegalStateException.class)
        .backoff(Duration.ofMillis(100), Duration.ofMillis(100))
        .random(() -> -1L) // the highest draw: every backoff is the full 100 ms
        .sleeper(d -> now.addAndGet(d.toNanos()))
        .listener(listener)
        .build();
  }

  @Test
  void aCallIsOneSpanWithAnEventPerAttempt() {
    AtomicReference<String> traceInside = new AtomicReference<>();

    Throwable failed =
        catchThrowable(
            () ->
                inventory()
                    .call(
                        a -> {
                          traceInside.set(Span.current().getSpanContext().getTraceId());
                          now.addAndGet(TimeUnit.MILLISECONDS.toNanos(5));
                          throw new IllegalStateException("down");
                        }));

    assertThat(failed).isInstanceOf(RetriesExhaustedException.class);
    List<SpanData> finished = spans.getFinishedSpanItems();
    assertThat(finished).hasSize(1);
    SpanData span = finished.get(0);
    assertThat(span.getName()).isEqualTo("retry inventory");
    assertThat(span.getTraceId()).isEqualTo(traceInside.get()); // current while the call runs
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span.getAttributes().get(AttributeKey.stringKey("bounded.retry.outcome")))
        .isEqualTo("exhausted");
    assertThat(span.getAttributes().get(AttributeKey.longKey("bounded.retry.attempts")))
        .isEqualTo(3);
    assertThat(span.getEvents())
        .extracting(EventData::getName)
        .containsExactly("attempt", "attempt", "attempt");
    EventData last = span.getEvents().get(2);
    assertThat(last.getAttributes().get(AttributeKey.longKey("bounded.retry.attempt")))
        .isEqualTo(3);
    assertThat(last.getAttributes().get(AttributeKey.longKey("bounded.retry.delay_ms")))
        .as("no retry follows the last attempt")
        .isNull();
    EventData first = span.getEvents().get(0);
    assertThat(first.getAttributes().get(AttributeKey.longKey("bounded.retry.attempt")))
        .isEqualTo(1);
    assertThat(first.getAttributes().get(AttributeKey.longKey("bounded.retry.delay_ms")))
        .isEqualTo(100);
    assertThat(first.getAttributes().get(AttributeKey.stringKey("exception.type")))
        .isEqualTo("java.lang.IllegalStateException");
    assertThat(Span.current().getSpanContext().isValid()).as("scope closed").isFalse();
  }

  @Test
  void aSuccessfulFirstAttemptIsOneEventWithoutAFailure() {
    String ok = inventory().call(a -> "ok");

    SpanData span = spans.getFinishedSpanItems().get(0);
    assertThat(ok).isEqualTo("ok");
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    EventData only = span.getEvents().get(0);
    assertThat(span.getEvents()).hasSize(1);
    assertThat(only.getName()).isEqualTo("attempt");
    assertThat(only.getAttributes().get(AttributeKey.longKey("bounded.retry.attempt")))
        .isEqualTo(1);
    assertThat(only.getAttributes().get(AttributeKey.stringKey("exception.type"))).isNull();
  }

  @Test
  void callsAreMeasuredByPolicyAndOutcome() {
    RetryPolicy policy = inventory();
    String ok = policy.call(a -> "ok");
    Throwable failed =
        catchThrowable(
            () ->
                policy.call(
                    a -> {
                      now.addAndGet(TimeUnit.MILLISECONDS.toNanos(5));
                      throw new IllegalStateException("down");
                    }));
    assertThat(ok).isEqualTo("ok");
    assertThat(failed).isInstanceOf(RetriesExhaustedException.class);

    Collection<MetricData> collected = metrics.collectAllMetrics();
    MetricData duration = metric(collected, OpenTelemetryRetryListener.CALL_DURATION);
    assertThat(duration.getUnit()).isEqualTo("s");
    HistogramPointData exhausted =
        duration.getHistogramData().getPoints().stream()
            .filter(p -> "exhausted".equals(p.getAttributes().get(outcome())))
            .findFirst()
            .orElseThrow();
    assertThat(exhausted.getCount()).isEqualTo(1);
    assertThat(exhausted.getSum()).isCloseTo(0.215, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(exhausted.getAttributes().get(AttributeKey.stringKey("bounded.retry.policy")))
        .isEqualTo("inventory");
    assertThat(exhausted.getExemplars())
        .as("the measurement links to the call's trace")
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.getSpanContext().getTraceId())
                    .isEqualTo(spans.getFinishedSpanItems().get(1).getTraceId()));
    MetricData attempts = metric(collected, OpenTelemetryRetryListener.ATTEMPTS);
    assertThat(attempts.getLongSumData().getPoints())
        .extracting(p -> p.getAttributes().get(outcome()) + "=" + p.getValue())
        .containsExactlyInAnyOrder("success=1", "exhausted=3");
  }

  @Test
  void theRuntimesGaugesAreObserved() throws Exception {
    RetryBudget budget =
        RetryBudget.builder().ratio(0).minRetriesPerSecond(10).ticker(now::get).build();
    AdaptiveThrottle throttle =
        AdaptiveThrottle.builder("inventory").k(1).ticker(now::get).random(() -> 0L).build();
    for (int i = 0; i < 3; i++) {
      throttle.tryAcquire();
    }
    BoundedExecutor executor =
        BoundedExecutor.builder("shipping").workers(1).queueCapacity(2).build();
    var meter = sdk.getMeter(OpenTelemetryRetryListener.SCOPE);
    List<AutoCloseable> handles =
        List.of(
            BoundedObservables.observe(meter, "inventory", budget),
            BoundedObservables.observe(meter, throttle),
            BoundedObservables.observe(meter, executor));
    try {
      executor.execute(() -> {});
      executor.close();

      Collection<MetricData> collected = metrics.collectAllMetrics();
      assertThat(
              metric(collected, "bounded.retry.budget.tokens")
                  .getDoubleGaugeData()
                  .getPoints()
                  .iterator()
                  .next()
                  .getValue())
          .isEqualTo(10.0);
      assertThat(
              metric(collected, "bounded.throttle.rejection_probability")
                  .getDoubleGaugeData()
                  .getPoints()
                  .iterator()
                  .next()
                  .getValue())
          .isEqualTo(0.75);
      assertThat(longValue(collected, "bounded.throttle.rejections")).isEqualTo(2);
      assertThat(longGauge(collected, "bounded.executor.queued")).isZero();
      assertThat(longGauge(collected, "bounded.executor.active")).isZero();
      assertThat(longValue(collected, "bounded.executor.completed")).isEqualTo(1);
      assertThat(longValue(collected, "bounded.executor.rejected")).isZero();
      assertThat(
              metric(collected, "bounded.executor.queued")
                  .getLongGaugeData()
                  .getPoints()
                  .iterator()
                  .next()
                  .getAttributes()
                  .get(AttributeKey.stringKey(BoundedObservables.NAME)))
          .isEqualTo("shipping");

      for (AutoCloseable handle : handles) {
        handle.close();
      }
      assertThat(metrics.collectAllMetrics())
          .extracting(MetricData::getName)
          .noneMatch(n -> n.startsWith("bounded.executor") || n.startsWith("bounded.throttle"));
    } finally {
      executor.shutdownNow();
      assertThat(executor.awaitTermination(1, TimeUnit.DAYS)).isTrue();
    }
  }

  private static AttributeKey<String> outcome() {
    return AttributeKey.stringKey("bounded.retry.outcome");
  }

  private static MetricData metric(Collection<MetricData> all, String name) {
    return all.stream().filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
  }

  private static long longValue(Collection<MetricData> all, String name) {
    return metric(all, name).getLongSumData().getPoints().stream()
        .mapToLong(LongPointData::getValue)
        .sum();
  }

  private static long longGauge(Collection<MetricData> all, String name) {
    return metric(all, name).getLongGaugeData().getPoints().stream()
        .mapToLong(LongPointData::getValue)
        .sum();
  }
}
