package dev.bounded.opentelemetry;

import dev.bounded.runtime.Deadline;
import dev.bounded.runtime.RetryEnding;
import dev.bounded.runtime.RetryListener;
import dev.bounded.runtime.RetryPolicy;
import dev.bounded.runtime.Ticker;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * A {@link RetryListener} that traces and measures every {@link RetryPolicy} call with
 * OpenTelemetry.
 *
 * <p><b>Traces.</b> One span per call, named {@code retry <policy name>}, kind {@code INTERNAL}, a
 * child of the current span and made current while the call runs (so the operation's own spans and
 * log lines carry the same trace id). Attributes: {@value #POLICY}, and at the end {@value
 * #OUTCOME} and {@value #ATTEMPTS_ATTRIBUTE}. One event {@code attempt} per attempt sent, with
 * {@value #ATTEMPT} (its number) and, when it failed, {@code exception.type} (the failure's class)
 * and, when a retry follows, {@value #DELAY_MS} (the backoff before it). Any ending but {@code
 * SUCCESS} sets the span's status to {@code ERROR} with the ending as description.
 *
 * <p><b>Metrics.</b> {@value #CALL_DURATION}, a histogram in seconds, and {@value #ATTEMPTS}, a
 * counter, both with {@value #POLICY} and {@value #OUTCOME}: the same figures as the Micrometer
 * adapter. They are recorded while the call's span is current, so the SDK's exemplars (kept for
 * sampled spans by default) link a measurement to its trace: from a metric to the trace id.
 *
 * <pre>{@code
 * RetryPolicy inventory = RetryPolicy.builder()
 *     .name("inventory")
 *     .listener(new OpenTelemetryRetryListener(GlobalOpenTelemetry.get()))
 *     .build();
 * }</pre>
 *
 * <p>Attributes are low-cardinality: a fixed policy name, ten outcomes, exception classes (not
 * messages) and only on span events. Thread-safe: one listener may serve every policy.
 */
public final class OpenTelemetryRetryListener implements RetryListener {
  /** The instrumentation scope of the tracer and the meter. */
  public static final String SCOPE = "dev.bounded.opentelemetry";

  /** The histogram of call durations, in seconds. */
  public static final String CALL_DURATION = "bounded.retry.call.duration";

  /** The counter of attempts. */
  public static final String ATTEMPTS = "bounded.retry.attempts";

  /** The attribute naming the policy ({@code unnamed} for a policy without a name). */
  public static final String POLICY = "bounded.retry.policy";

  /** The attribute giving the outcome, in lower case ({@code success}, {@code exhausted}, ...). */
  public static final String OUTCOME = "bounded.retry.outcome";

  /** The span attribute giving the attempts the call made. */
  public static final String ATTEMPTS_ATTRIBUTE = "bounded.retry.attempts";

  /** The event attribute giving the attempt's number, from 1. */
  public static final String ATTEMPT = "bounded.retry.attempt";

  /** The event attribute giving the backoff before the next attempt, in milliseconds. */
  public static final String DELAY_MS = "bounded.retry.delay_ms";

  private static final AttributeKey<String> POLICY_KEY = AttributeKey.stringKey(POLICY);
  private static final AttributeKey<String> OUTCOME_KEY = AttributeKey.stringKey(OUTCOME);
  private static final AttributeKey<Long> ATTEMPTS_KEY = AttributeKey.longKey(ATTEMPTS_ATTRIBUTE);
  private static final AttributeKey<Long> ATTEMPT_KEY = AttributeKey.longKey(ATTEMPT);
  private static final AttributeKey<Long> DELAY_KEY = AttributeKey.longKey(DELAY_MS);
  private static final AttributeKey<String> EXCEPTION_TYPE =
      AttributeKey.stringKey("exception.type");

  private final Tracer tracer;
  private final DoubleHistogram durations;
  private final LongCounter attempts;
  private final Ticker ticker;

  /**
   * Creates a listener on the system ticker.
   *
   * @param openTelemetry where the spans and metrics go
   */
  public OpenTelemetryRetryListener(OpenTelemetry openTelemetry) {
    this(openTelemetry, Ticker.system());
  }

  /**
   * Creates a listener that measures call durations on {@code ticker}; tests pass a manual one.
   *
   * @param openTelemetry where the spans and metrics go
   * @param ticker the source of time for the duration histogram
   */
  public OpenTelemetryRetryListener(OpenTelemetry openTelemetry, Ticker ticker) {
    Objects.requireNonNull(openTelemetry, "openTelemetry");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.tracer = openTelemetry.getTracer(SCOPE);
    Meter meter = openTelemetry.getMeter(SCOPE);
    this.durations =
        meter
            .histogramBuilder(CALL_DURATION)
            .setDescription("Duration of calls run by a Bounded RetryPolicy, attempts and backoff")
            .setUnit("s")
            .build();
    this.attempts =
        meter
            .counterBuilder(ATTEMPTS)
            .setDescription("Attempts made by calls of a Bounded RetryPolicy")
            .setUnit("{attempt}")
            .build();
  }

  // The scope cannot be a try-with-resources: it spans the call, which starts here and ends in
  // Call.onOutcome, on the same thread (a policy reports exactly one outcome per call), which
  // closes it.
  @SuppressWarnings("MustBeClosedChecker")
  @Override
  public RetryListener onCallStart(RetryPolicy policy, Deadline deadline) {
    String name = policy.name().orElse("unnamed");
    Span span =
        tracer
            .spanBuilder("retry " + name)
            .setSpanKind(SpanKind.INTERNAL)
            .setAttribute(POLICY_KEY, name)
            .startSpan();
    return new Call(name, span, span.makeCurrent(), ticker.read());
  }

  /** One call: its span, the scope that makes the span current, and its start. */
  private final class Call implements RetryListener {
    private final String name;
    private final Span span;
    private final Scope scope;
    private final long startNanos;

    /** The highest attempt number that has its event already. Confined to the calling thread. */
    private int recorded;

    Call(String name, Span span, Scope scope, long startNanos) {
      this.name = name;
      this.span = span;
      this.scope = scope;
      this.startNanos = startNanos;
    }

    @Override
    public void onRetryScheduled(int attempt, Throwable failure, Duration delay) {
      recorded = attempt;
      span.addEvent(
          "attempt",
          Attributes.of(
              ATTEMPT_KEY,
              (long) attempt,
              EXCEPTION_TYPE,
              failure.getClass().getName(),
              DELAY_KEY,
              delay.toMillis()));
    }

    @Override
    public void onEnd(RetryEnding ending, int attemptCount, Throwable failure) {
      String result = ending.name().toLowerCase(Locale.ROOT);
      Attributes metricAttributes = Attributes.of(POLICY_KEY, name, OUTCOME_KEY, result);
      try {
        if (attemptCount > recorded) { // the last attempt sent, unless its retry was scheduled
          span.addEvent(
              "attempt",
              failure == null
                  ? Attributes.of(ATTEMPT_KEY, (long) attemptCount)
                  : Attributes.of(
                      ATTEMPT_KEY,
                      (long) attemptCount,
                      EXCEPTION_TYPE,
                      failure.getClass().getName()));
        }
        span.setAttribute(OUTCOME_KEY, result);
        span.setAttribute(ATTEMPTS_KEY, (long) attemptCount);
        if (ending != RetryEnding.SUCCESS) {
          span.setStatus(StatusCode.ERROR, result);
          if (failure != null) {
            span.setAttribute(EXCEPTION_TYPE, failure.getClass().getName());
          }
        }
        // Recorded while the call's span is current, so an SDK that keeps exemplars (the default
        // filter keeps those of sampled spans) links the measurement to this trace.
        durations.record((ticker.read() - startNanos) / 1e9, metricAttributes);
        attempts.add(attemptCount, metricAttributes);
      } finally {
        scope.close();
        span.end();
      }
    }
  }
}
