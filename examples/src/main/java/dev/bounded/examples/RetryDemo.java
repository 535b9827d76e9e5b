package dev.bounded.examples;

import dev.bounded.runtime.Deadline;
import dev.bounded.runtime.RetryBudget;
import dev.bounded.runtime.RetryListener;
import dev.bounded.runtime.RetryOutcome;
import dev.bounded.runtime.RetryPolicy;
import dev.bounded.runtime.RetryableCall;
import dev.bounded.testing.ManualTicker;
import dev.bounded.testing.RecordingSleeper;
import dev.bounded.testing.ScriptedDependency;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * Runs scripted flaky dependencies through {@link RetryPolicy} and prints, attempt by attempt, what
 * happened and why each call stopped.
 *
 * <p>Time is simulated (a manual ticker that the backoff advances), so the output is the same on
 * every run and the demo finishes at once.
 */
public final class RetryDemo {
  private final Terminal out;
  private final ManualTicker ticker = new ManualTicker();
  private final RecordingSleeper sleeper = new RecordingSleeper(ticker);

  private RetryDemo(PrintStream out) {
    this.out = new Terminal(out);
  }

  /**
   * Prints the demo to standard output.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    new RetryDemo(System.out).run();
  }

  private void run() {
    out.wrapped("Bounded retry demo: scripted dependencies on a simulated clock.");
    out.println();

    RetryPolicy inventory = policy().retryOn(ConnectException.class).build();
    scenario(
        "1. Inventory: two refused connections, then an answer",
        inventory,
        Duration.ofSeconds(2),
        false,
        ScriptedDependency.failing(refused(), refused()).thenReturning("42 in stock"));

    RetryPolicy payments = policy().retryOn(ConnectException.class).build();
    scenario(
        "2. Payments: the charge times out after the request was sent (not idempotent)",
        payments,
        Duration.ofSeconds(2),
        false,
        ScriptedDependency.failing(readTimeout()).thenReturning("charged once"));
    scenario(
        "3. Payments again, with an idempotency key: the retry is safe",
        payments,
        Duration.ofSeconds(2),
        true,
        ScriptedDependency.failing(readTimeout()).thenReturning("charged once"));

    scenario(
        "4. Recommendations: down, and the request has 300 ms",
        policy().maxAttempts(5).retryOn(ConnectException.class).build(),
        Duration.ofMillis(300),
        false,
        ScriptedDependency.failing(refused(), refused(), refused(), refused(), refused())
            .thenReturning("never"));

    scenario(
        "5. Shipping: a bug, not a transient failure",
        policy().retryOn(ConnectException.class).build(),
        Duration.ofSeconds(2),
        false,
        ScriptedDependency.failing(new IllegalArgumentException("unknown country code 'XX'"))
            .thenReturning("never"));

    RetryBudget budget =
        RetryBudget.builder().ratio(0.1).minRetriesPerSecond(1).ticker(ticker).build();
    scenario(
        "6. Search: a shared retry budget with one token left",
        policy().retryOn(ConnectException.class).budget(budget).build(),
        Duration.ofSeconds(2),
        false,
        ScriptedDependency.failing(refused(), refused()).thenReturning("results"));

    sleeper.interruptSleep(sleeper.sleeps().size() + 1);
    scenario(
        "7. Pricing: the caller is cancelled (interrupted) during the backoff",
        policy().retryOn(ConnectException.class).build(),
        Duration.ofSeconds(2),
        false,
        ScriptedDependency.failing(refused()).thenReturning("price"));
    boolean interrupted = Thread.interrupted(); // reads the flag, and clears it for the demo
    out.wrapped(
        "   after the call, the caller's thread "
            + (interrupted ? "is still marked interrupted" : "is NOT marked interrupted")
            + ": RetryPolicy restored the flag it caught, so the code above it sees the"
            + " cancellation too");
  }

  private RetryPolicy.Builder policy() {
    return RetryPolicy.builder()
        .maxAttempts(3)
        .backoff(Duration.ofMillis(100), Duration.ofSeconds(1))
        .sleeper(sleeper)
        .random(new SplittableRandom(2026))
        .listener(new Printer());
  }

  private void scenario(
      String title,
      RetryPolicy policy,
      Duration timeout,
      boolean idempotent,
      ScriptedDependency<String> dependency) {
    out.wrapped(title);
    out.wrapped(
        "   policy: "
            + policy.maxAttempts()
            + " attempts in total, full-jitter backoff "
            + millis(policy.baseDelay())
            + " .. "
            + millis(policy.maxDelay())
            + ", deadline "
            + millis(timeout)
            + (idempotent ? ", declared idempotent" : ""));
    long start = ticker.read();
    Deadline deadline = Deadline.after(timeout, ticker);
    RetryableCall<String, Exception> call =
        attempt -> {
          String when =
              "   attempt "
                  + attempt.number()
                  + " at +"
                  + millis(Duration.ofNanos(ticker.read() - start))
                  + " ("
                  + millis(attempt.remaining())
                  + " left): ";
          try {
            String result = dependency.call();
            out.wrapped(when + "returned \"" + result + "\"");
            return result;
          } catch (Exception e) {
            out.wrapped(when + "failed with " + e);
            throw e;
          }
        };
    try {
      String result =
          idempotent ? policy.callIdempotent(deadline, call) : policy.call(deadline, call);
      out.wrapped("   => result: " + result);
    } catch (Exception e) {
      out.wrapped("   => thrown: " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    out.wrapped("   the dependency was called " + dependency.calls() + " time(s)");
    out.println();
  }

  private final class Printer implements RetryListener {
    @Override
    public void onRetryScheduled(int attempt, Throwable failure, Duration delay) {
      out.wrapped("      classified transient; next attempt after a backoff of " + millis(delay));
    }

    @Override
    public void onOutcome(RetryOutcome outcome, int attempts, Throwable failure) {
      out.wrapped("   stopped: " + outcome + " after " + attempts + " attempt(s)" + why(outcome));
    }

    private String why(RetryOutcome outcome) {
      return switch (outcome) {
        case SUCCESS -> "";
        case EXHAUSTED -> ": no attempts left";
        case DEADLINE_EXCEEDED ->
            ": the next backoff would end past the deadline, so it was not slept";
        case BUDGET_EXHAUSTED ->
            ": the shared budget refused a retry, so the failure surfaces at once";
        case INTERRUPTED -> ": interruption means stop; no further attempt";
        case NON_RETRYABLE -> ": the classifier does not call this failure transient";
        case UNKNOWN_OUTCOME -> ": the charge may have gone through; retrying could charge twice";
      };
    }
  }

  private static ConnectException refused() {
    return new ConnectException("Connection refused");
  }

  private static SocketTimeoutException readTimeout() {
    return new SocketTimeoutException("Read timed out");
  }

  private static String millis(Duration duration) {
    return duration.toMillis() + " ms";
  }
}
