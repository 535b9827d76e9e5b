package dev.bounded.examples.telemetry;

import dev.bounded.runtime.Deadline;
import dev.bounded.runtime.RetryEnding;
import dev.bounded.runtime.RetryListener;
import dev.bounded.runtime.RetryPolicy;
import java.time.Duration;
import java.util.Locale;

/**
 * Logs each retry decision as a structured line, and passes every event on to a second listener
 * (here the OpenTelemetry one), so a policy with one listener slot gets both. The telemetry
 * listener's {@code onCallStart} runs first and makes the call's span current, so the lines written
 * here carry that span's ids.
 */
final class LoggingRetryListener implements RetryListener {
  private final StructuredLog log;
  private final RetryListener next;

  LoggingRetryListener(StructuredLog log, RetryListener next) {
    this.log = log;
    this.next = next;
  }

  @Override
  public RetryListener onCallStart(RetryPolicy policy, Deadline deadline) {
    RetryListener call = next.onCallStart(policy, deadline);
    String name = policy.name().orElse("unnamed");
    return new RetryListener() {
      @Override
      public void onRetryScheduled(int attempt, Throwable failure, Duration delay) {
        log.log(
            "WARN",
            "retry.scheduled",
            "policy",
            name,
            "attempt",
            attempt,
            "failure",
            failure.getClass().getName(),
            "delay_ms",
            delay.toMillis(),
            "deadline_left_ms",
            deadline.remaining().toMillis());
        call.onRetryScheduled(attempt, failure, delay);
      }

      @Override
      public void onEnd(RetryEnding ending, int attempts, Throwable failure) {
        log.log(
            ending == RetryEnding.SUCCESS ? "INFO" : "ERROR",
            "retry.end",
            "policy",
            name,
            "ending",
            ending.name().toLowerCase(Locale.ROOT),
            "attempts",
            attempts,
            "failure",
            failure == null ? "-" : failure.getClass().getName());
        call.onEnd(ending, attempts, failure);
      }
    };
  }
}
