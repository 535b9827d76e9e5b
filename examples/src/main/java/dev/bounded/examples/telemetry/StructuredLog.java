package dev.bounded.examples.telemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One-line {@code key=value} log records that carry the current trace and span ids, as a log
 * appender with OpenTelemetry's MDC integration would write them. Thread-safe.
 */
final class StructuredLog {
  private final PrintStream out;
  private final List<String> lines = new ArrayList<>();

  StructuredLog(PrintStream out) {
    this.out = Objects.requireNonNull(out, "out");
  }

  /**
   * Writes a record at {@code level}: the current trace and span ids, the event, then {@code
   * fields} as alternating keys and values.
   */
  void log(String level, String event, Object... fields) {
    SpanContext context = Span.current().getSpanContext();
    StringBuilder line =
        new StringBuilder()
            .append("level=")
            .append(level)
            .append(" trace_id=")
            .append(context.isValid() ? context.getTraceId() : "-")
            .append(" span_id=")
            .append(context.isValid() ? context.getSpanId() : "-")
            .append(" event=")
            .append(event);
    for (int i = 0; i + 1 < fields.length; i += 2) {
      line.append(' ').append(fields[i]).append('=').append(fields[i + 1]);
    }
    String text = line.toString();
    synchronized (this) {
      lines.add(text);
      out.println(text);
    }
  }

  synchronized List<String> lines() {
    return List.copyOf(lines);
  }
}
