package dev.bounded.bench;

import dev.bounded.runtime.Deadline;
import dev.bounded.runtime.RetryPolicy;
import dev.bounded.runtime.RetryableCall;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.function.CheckedSupplier;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * One flaky dependency and the same retry configuration expressed in each library: 3 attempts in
 * total, no delay between them, retry on {@link TransientFailure} only.
 *
 * <p>The dependency fails the first {@link #failuresBeforeSuccess} calls of each invocation with
 * the preallocated {@link TransientFailure}, then returns {@link #RESULT}. Every variant method
 * resets the call counter, runs one retried call and returns its result, so all variants do the
 * same work; {@link #verify()} checks that before a trial starts.
 *
 * <p>Every policy, executor, decorated supplier and operation is built once per trial: a variant
 * allocates only what its library allocates per call. Not thread-safe: one instance per benchmark
 * thread.
 */
public abstract class RetryFixture {
  /** Total attempts, the first call included, in every library. */
  public static final int MAX_ATTEMPTS = 3;

  /** What the dependency returns once it stops failing; a constant, so returning it is free. */
  public static final Object RESULT = "ok";

  /** The deadline of the Bounded variant that creates one per invocation. */
  private static final Duration DEADLINE = Duration.ofSeconds(10);

  private final int failuresBeforeSuccess;
  private final RuntimeException failure;

  /** Calls made to the dependency in the current invocation. */
  private int calls;

  private final RetryPolicy bounded;
  private final RetryableCall<Object, RuntimeException> boundedOperation;
  private final FailsafeExecutor<Object> failsafe;
  private final CheckedSupplier<Object> failsafeOperation;
  private final Supplier<Object> resilience4j;

  /**
   * Builds the fixture.
   *
   * @param failuresBeforeSuccess how many calls of each invocation fail before one succeeds; at
   *     most {@code MAX_ATTEMPTS - 1} for the benchmarks, more for the exhaustion check
   */
  protected RetryFixture(int failuresBeforeSuccess) {
    this(failuresBeforeSuccess, TransientFailure.INSTANCE);
  }

  /**
   * Builds a fixture whose dependency fails with {@code failure}: the equivalence check uses a
   * failure that no variant may retry.
   *
   * @param failuresBeforeSuccess how many calls of each invocation fail before one succeeds
   * @param failure what the failing calls throw; the benchmarks use {@link TransientFailure}
   */
  protected RetryFixture(int failuresBeforeSuccess, RuntimeException failure) {
    this.failuresBeforeSuccess = failuresBeforeSuccess;
    this.failure = failure;

    bounded =
        RetryPolicy.builder()
            .maxAttempts(MAX_ATTEMPTS)
            .noBackoff()
            .retryOn(TransientFailure.class)
            .build();
    boundedOperation = attempt -> callDependency();

    dev.failsafe.RetryPolicy<Object> failsafePolicy =
        dev.failsafe.RetryPolicy.builder()
            .handle(TransientFailure.class)
            .withMaxAttempts(MAX_ATTEMPTS) // = withMaxRetries(MAX_ATTEMPTS - 1)
            .build(); // no delay: the default; withDelay(Duration.ZERO) is rejected (must be > 0)
    if (!Duration.ZERO.equals(failsafePolicy.getConfig().getDelay())) {
      throw new IllegalStateException("Failsafe delay is " + failsafePolicy.getConfig().getDelay());
    }
    failsafe = Failsafe.with(failsafePolicy);
    failsafeOperation = this::callDependency;

    RetryConfig resilience4jConfig =
        RetryConfig.custom()
            .maxAttempts(MAX_ATTEMPTS) // total calls, the first included
            .waitDuration(Duration.ZERO) // accepted: the builder only rejects negative waits
            .retryExceptions(TransientFailure.class)
            .build();
    // Decorated once, as resilience4j's documentation shows; each get() is one retried call.
    resilience4j =
        Retry.decorateSupplier(Retry.of("bench", resilience4jConfig), this::callDependency);
  }

  /**
   * The dependency: fails the first {@code failuresBeforeSuccess} calls of an invocation, then
   * succeeds. Never inlined, so no library's loop can be optimised together with the work.
   *
   * @return {@link #RESULT}
   * @throws RuntimeException the fixture's failure (in the benchmarks, {@link TransientFailure}) on
   *     the failing calls
   */
  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  public Object callDependency() {
    if (calls++ < failuresBeforeSuccess) {
      throw failure;
    }
    return RESULT;
  }

  /**
   * Returns the calls made to the dependency since the last variant call started.
   *
   * @return the call count of the current or last invocation
   */
  public int calls() {
    return calls;
  }

  /**
   * Baseline: the retry loop a careful engineer writes by hand.
   *
   * @return the dependency's result
   */
  public Object handWritten() {
    calls = 0;
    for (int attempt = 1; ; attempt++) {
      try {
        return callDependency();
      } catch (TransientFailure e) {
        if (attempt >= MAX_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /**
   * The baseline plus {@code Thread.sleep(0)} between attempts, which is what Failsafe and
   * resilience4j do when the delay is zero. Shows what that call costs on its own.
   *
   * @return the dependency's result
   */
  public Object handWrittenSleepZero() {
    calls = 0;
    for (int attempt = 1; ; attempt++) {
      try {
        return callDependency();
      } catch (TransientFailure e) {
        if (attempt >= MAX_ATTEMPTS) {
          throw e;
        }
        try {
          Thread.sleep(0L);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  /**
   * Bounded, without a deadline: {@code policy.call(op)}.
   *
   * @return the dependency's result
   */
  public Object bounded() {
    calls = 0;
    return bounded.call(boundedOperation);
  }

  /**
   * Bounded with a deadline created per invocation, as a request handler would: {@code
   * policy.call(Deadline.after(10 s), op)}.
   *
   * @return the dependency's result
   */
  public Object boundedWithDeadline() {
    calls = 0;
    return bounded.call(Deadline.after(DEADLINE), boundedOperation);
  }

  /**
   * Failsafe: {@code Failsafe.with(policy)} built once, {@code get(supplier)} per invocation.
   *
   * @return the dependency's result
   */
  public Object failsafe() {
    calls = 0;
    return failsafe.get(failsafeOperation);
  }

  /**
   * resilience4j: the supplier decorated once, {@code get()} per invocation.
   *
   * @return the dependency's result
   */
  public Object resilience4j() {
    calls = 0;
    return resilience4j.get();
  }

  /**
   * Checks, before any measurement, that every variant returns the dependency's result after
   * exactly {@code failuresBeforeSuccess + 1} calls: the variants do equal work.
   *
   * @throws IllegalStateException if a variant does otherwise
   */
  @Setup(Level.Trial)
  public void verify() {
    int expected = failuresBeforeSuccess + 1;
    check("handWritten", handWritten(), expected);
    check("handWrittenSleepZero", handWrittenSleepZero(), expected);
    check("bounded", bounded(), expected);
    check("boundedWithDeadline", boundedWithDeadline(), expected);
    check("failsafe", failsafe(), expected);
    check("resilience4j", resilience4j(), expected);
  }

  private void check(String variant, Object result, int expectedCalls) {
    if (result != RESULT || calls != expectedCalls) {
      throw new IllegalStateException(
          variant
              + ": expected "
              + RESULT
              + " after "
              + expectedCalls
              + " calls, got "
              + result
              + " after "
              + calls);
    }
  }
}
