package dev.bounded.bench;

import dev.bounded.runtime.RetriesExhaustedException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Checks outside JMH that every variant of {@link RetryFixture} does the same work: one call on
 * success, three calls when the third succeeds, and exactly three calls, then the last failure,
 * when every call fails (so "3 attempts" means 3 calls in every library, not 4), and one call when
 * the failure is of another type (only {@link TransientFailure} is retried).
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar dev.bounded.bench.EquivalenceCheck}. It runs
 * in a JVM of its own so that the exhaustion path never warms up the benchmarks' code. Exits 1 on
 * the first mismatch.
 */
public final class EquivalenceCheck {

  private EquivalenceCheck() {}

  /**
   * Runs the checks.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    for (int failures = 0; failures < RetryFixture.MAX_ATTEMPTS; failures++) {
      Fixture fixture = new Fixture(failures);
      fixture.verify();
      System.out.println(
          "ok: every variant returns the result after "
              + (failures + 1)
              + " call(s) when "
              + failures
              + " fail");
    }

    Fixture alwaysFails = new Fixture(Integer.MAX_VALUE);
    for (Map.Entry<String, Supplier<Object>> variant : variants(alwaysFails).entrySet()) {
      Throwable thrown = null;
      try {
        variant.getValue().get();
      } catch (RuntimeException e) {
        thrown = e;
      }
      Throwable last = thrown instanceof RetriesExhaustedException ? thrown.getCause() : thrown;
      if (last != TransientFailure.INSTANCE || alwaysFails.calls() != RetryFixture.MAX_ATTEMPTS) {
        System.err.println(
            "MISMATCH "
                + variant.getKey()
                + ": "
                + alwaysFails.calls()
                + " calls, threw "
                + thrown);
        System.exit(1);
      }
      System.out.println(
          "ok: "
              + variant.getKey()
              + " gives up after exactly "
              + alwaysFails.calls()
              + " calls and throws "
              + thrown.getClass().getSimpleName());
    }

    IllegalStateException permanent = new IllegalStateException("not transient");
    Fixture otherFailure = new Fixture(Integer.MAX_VALUE, permanent);
    for (Map.Entry<String, Supplier<Object>> variant : variants(otherFailure).entrySet()) {
      Throwable thrown = null;
      try {
        variant.getValue().get();
      } catch (RuntimeException e) {
        thrown = e;
      }
      if (thrown != permanent || otherFailure.calls() != 1) {
        System.err.println(
            "MISMATCH "
                + variant.getKey()
                + ": "
                + otherFailure.calls()
                + " calls, threw "
                + thrown);
        System.exit(1);
      }
      System.out.println(
          "ok: " + variant.getKey() + " does not retry another failure type; rethrows it as is");
    }
  }

  private static Map<String, Supplier<Object>> variants(RetryFixture f) {
    Map<String, Supplier<Object>> variants = new LinkedHashMap<>();
    variants.put("handWritten", f::handWritten);
    variants.put("handWrittenSleepZero", f::handWrittenSleepZero);
    variants.put("bounded", f::bounded);
    variants.put("boundedWithDeadline", f::boundedWithDeadline);
    variants.put("failsafe", f::failsafe);
    variants.put("resilience4j", f::resilience4j);
    return variants;
  }

  private static final class Fixture extends RetryFixture {
    Fixture(int failuresBeforeSuccess) {
      super(failuresBeforeSuccess);
    }

    Fixture(int failuresBeforeSuccess, RuntimeException failure) {
      super(failuresBeforeSuccess, failure);
    }
  }
}
