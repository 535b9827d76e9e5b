package dev.bounded.examples.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bounded.opentelemetry.OpenTelemetryRetryListener;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The telemetry example's promise: the log lines, the metric and the trace of the failed request
 * share one correlation id (the trace id), and together they name the fault. The sleeper records
 * nothing and returns at once, so no time passes.
 */
@Timeout(20)
final class TelemetryDemoTest {
  @Test
  void logsMetricAndTraceShareTheTraceIdAndNameTheSlowDependency() {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    TelemetryDemo.Result result =
        TelemetryDemo.run(new PrintStream(printed, true, StandardCharsets.UTF_8), d -> {});

    assertThat(result.response()).startsWith("503 stock unavailable");
    assertThat(result.inventoryCalls()).isEqualTo(2); // one retry, then the budget said no

    SpanData root =
        result.spans().stream()
            .filter(s -> !s.getParentSpanContext().isValid())
            .findFirst()
            .orElseThrow();
    String traceId = root.getTraceId();
    assertThat(result.spans()).allMatch(s -> s.getTraceId().equals(traceId)).hasSize(2);

    assertThat(result.logLines())
        .isNotEmpty()
        .allMatch(line -> line.contains("trace_id=" + traceId), "carries the trace id");
    assertThat(result.logLines())
        .anyMatch(l -> l.contains("event=inventory.read.timeout"))
        .anyMatch(
            l -> l.contains("event=retry.end policy=inventory ending=budget_exhausted attempts=2"))
        .anyMatch(l -> l.contains("event=request.failed order_id=17 status=503"));

    HistogramPointData point =
        result.metrics().stream()
            .filter(m -> m.getName().equals(OpenTelemetryRetryListener.CALL_DURATION))
            .flatMap(m -> m.getHistogramData().getPoints().stream())
            .findFirst()
            .orElseThrow();
    assertThat(point.getAttributes().get(AttributeKey.stringKey("bounded.retry.outcome")))
        .isEqualTo("budget_exhausted");
    assertThat(point.getExemplars())
        .singleElement()
        .satisfies(e -> assertThat(e.getSpanContext().getTraceId()).isEqualTo(traceId));

    SpanData retry =
        result.spans().stream()
            .filter(s -> s.getName().equals("retry inventory"))
            .findFirst()
            .orElseThrow();
    assertThat(retry.getParentSpanId()).isEqualTo(root.getSpanId());
    assertThat(retry.getEvents()).hasSize(2); // one event per attempt
    assertThat(
            retry.getEvents().get(0).getAttributes().get(AttributeKey.stringKey("exception.type")))
        .isEqualTo("java.net.SocketTimeoutException");
    assertThat(List.of(printed.toString(StandardCharsets.UTF_8).split("\n")))
        .containsAll(result.logLines());
  }
}
