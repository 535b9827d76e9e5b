package dev.bounded.examples.telemetry;

import dev.bounded.opentelemetry.OpenTelemetryRetryListener;
import dev.bounded.runtime.Attempt;
import dev.bounded.runtime.BoundedExecutor;
import dev.bounded.runtime.Deadline;
import dev.bounded.runtime.RetryBudget;
import dev.bounded.runtime.RetryPolicy;
import dev.bounded.runtime.Sleeper;
import dev.bounded.runtime.Subtask;
import dev.bounded.runtime.TaskScope;
import dev.bounded.runtime.TaskScopeFailedException;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Finding a fault from telemetry alone: one request, {@code GET /orders/17}, fans out in a {@link
 * TaskScope} to a price lookup and a stock read; the stock read goes through a {@link
 * BoundedExecutor} (the inventory bulkhead) under a {@link RetryPolicy} with a shared {@link
 * RetryBudget}. The seeded fault: the inventory service has become slow, every read times out, and
 * the retries run the budget dry. The request answers 503.
 *
 * <p>The demo prints what an operator would have: structured log lines, one metric ({@code
 * bounded.retry.call.duration}) and one trace, all carrying the same trace id, the correlation id.
 * {@code docs/runtime-telemetry.md} walks from them to the fault.
 *
 * <p>Run it from an IDE, or with the commands in {@code docs/runtime-telemetry.md}.
 */
public final class TelemetryDemo {
  private static final AttributeKey<String> ORDER_ID = AttributeKey.stringKey("order.id");

  /** What the request produced: its answer and everything the telemetry recorded. */
  record Result(
      String response,
      int inventoryCalls,
      List<String> logLines,
      List<SpanData> spans,
      List<MetricData> metrics) {}

  private TelemetryDemo() {}

  /**
   * Runs the request and prints the log lines as they happen, then the metric and the trace.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    PrintStream out = System.out;
    out.println("-- log lines, as written --");
    Result result = run(out, Sleeper.system());
    out.println();
    out.println("-- response: " + result.response());
    out.println();
    out.println("-- metric --");
    describeMetric(result.metrics(), out);
    out.println();
    out.println("-- trace --");
    describeTrace(result.spans(), out);
  }

  /** Handles one request against the slow inventory; time passes on {@code sleeper}. */
  static Result run(PrintStream out, Sleeper sleeper) {
    InMemorySpanExporter spans = InMemorySpanExporter.create();
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    OpenTelemetrySdk sdk =
        OpenTelemetrySdk.builder()
            .setTracerProvider(
                SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(spans))
                    .build())
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .build();
    try {
      StructuredLog log = new StructuredLog(out);
      RetryBudget budget =
          RetryBudget.builder().ratio(0.1).minRetriesPerSecond(1).maxTokens(1).build();
      RetryPolicy inventoryRetry =
          RetryPolicy.builder()
              .name("inventory")
              .maxAttempts(4)
              .backoff(Duration.ofMillis(10), Duration.ofMillis(50))
              .budget(budget)
              .sleeper(sleeper)
              .listener(new LoggingRetryListener(log, new OpenTelemetryRetryListener(sdk)))
              .build();
      SlowInventory inventory = new SlowInventory(Duration.ofMillis(40), sleeper, log);
      String response;
      try (BoundedExecutor pool =
          BoundedExecutor.builder("inventory").workers(2).queueCapacity(8).build()) {
        response =
            handle(
                "17", sdk.getTracer("dev.bounded.examples"), log, inventoryRetry, pool, inventory);
      }
      return new Result(
          response,
          inventory.calls(),
          log.lines(),
          List.copyOf(spans.getFinishedSpanItems()),
          List.copyOf(metrics.collectAllMetrics()));
    } finally {
      sdk.close();
    }
  }

  /** The request handler: one deadline, one scope, one trace. */
  @SuppressWarnings("try") // the Scope is held only to make the request's span current
  private static String handle(
      String orderId,
      Tracer tracer,
      StructuredLog log,
      RetryPolicy inventoryRetry,
      BoundedExecutor pool,
      SlowInventory inventory) {
    Span request =
        tracer
            .spanBuilder("GET /orders/{id}")
            .setSpanKind(SpanKind.SERVER)
            .setAttribute(ORDER_ID, orderId)
            .startSpan();
    try (Scope current = request.makeCurrent()) {
      log.log("INFO", "request.start", "order_id", orderId);
      Deadline deadline = Deadline.after(Duration.ofSeconds(2));
      try (TaskScope scope =
          TaskScope.builder().name("order-" + orderId).deadline(deadline).open()) {
        // Threads do not inherit the OpenTelemetry context: wrap what crosses to another thread.
        Subtask<Integer> stock =
            scope.fork(
                Context.current()
                    .wrap(
                        () ->
                            inventoryRetry.callIdempotent(
                                deadline, attempt -> readStock(pool, inventory, attempt))));
        Subtask<String> price = scope.fork(Context.current().wrap(() -> "12.50 EUR"));
        scope.join();
        log.log("INFO", "request.end", "order_id", orderId, "status", 200);
        return "200 " + stock.get() + " in stock at " + price.get();
      } catch (TaskScopeFailedException failed) {
        request.setStatus(StatusCode.ERROR, "stock unavailable");
        log.log(
            "ERROR",
            "request.failed",
            "order_id",
            orderId,
            "status",
            503,
            "cause",
            failed.getCause().getClass().getName());
        return "503 stock unavailable: " + failed.getCause().getMessage();
      }
    } finally {
      request.end();
    }
  }

  /** One attempt: a read of the inventory on its bulkhead, bounded by the deadline's time left. */
  private static int readStock(BoundedExecutor pool, SlowInventory inventory, Attempt attempt)
      throws Exception {
    Future<Integer> read =
        pool.submit(Context.current().wrap(() -> inventory.stock("sku-42")), attempt.deadline());
    try {
      return read.get(attempt.remainingNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      // The read's own failure, not the executor's wrapper, is what the policy and the trace see.
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /** Prints the duration histogram's points, with the trace id of each point's exemplar. */
  static void describeMetric(List<MetricData> metrics, PrintStream out) {
    for (MetricData metric : metrics) {
      if (!metric.getName().equals(OpenTelemetryRetryListener.CALL_DURATION)) {
        continue;
      }
      for (HistogramPointData point : metric.getHistogramData().getPoints()) {
        out.printf(
            Locale.ROOT,
            "%s{%s} count=%d sum=%.3fs%n",
            metric.getName(),
            point.getAttributes().asMap().entrySet().stream()
                .map(e -> e.getKey().getKey() + "=" + e.getValue())
                .sorted()
                .reduce((a, b) -> a + ", " + b)
                .orElse(""),
            point.getCount(),
            point.getSum());
        point
            .getExemplars()
            .forEach(e -> out.println("  exemplar trace_id=" + e.getSpanContext().getTraceId()));
      }
    }
  }

  /** Prints the spans of the trace, parents first, with their events. */
  static void describeTrace(List<SpanData> spans, PrintStream out) {
    List<SpanData> ordered = new ArrayList<>(spans);
    ordered.sort((a, b) -> Long.compare(a.getStartEpochNanos(), b.getStartEpochNanos()));
    for (SpanData span : ordered) {
      out.printf(
          Locale.ROOT,
          "trace_id=%s span_id=%s parent=%s name=\"%s\" status=%s %s%n",
          span.getTraceId(),
          span.getSpanId(),
          span.getParentSpanContext().isValid() ? span.getParentSpanId() : "-",
          span.getName(),
          span.getStatus().getStatusCode(),
          span.getAttributes().asMap().entrySet().stream()
              .map(e -> e.getKey().getKey() + "=" + e.getValue())
              .sorted()
              .reduce((a, b) -> a + " " + b)
              .orElse(""));
      for (EventData event : span.getEvents()) {
        out.println(
            "  event "
                + event.getName()
                + " "
                + event.getAttributes().asMap().entrySet().stream()
                    .map(e -> e.getKey().getKey() + "=" + e.getValue())
                    .sorted()
                    .reduce((a, b) -> a + " " + b)
                    .orElse(""));
      }
    }
  }
}
