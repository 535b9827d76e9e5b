package dev.bounded.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Bounded's {@code RetryPolicy} against Failsafe and resilience4j-retry, with a hand-written loop
 * as the baseline, in two scenarios: {@code success_*} (the first call succeeds) and {@code
 * failTwice_*} (two failures, then success on the third and last allowed attempt, no delay).
 *
 * <p>Run with {@code -prof gc} to get bytes per operation ({@code gc.alloc.rate.norm}); the exact
 * command is in {@code bench/README.md}. The annotations below are only defaults.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class RetryBenchmark {

  /** Scenario (a): the first call succeeds. */
  @State(Scope.Thread)
  public static class Success extends RetryFixture {
    /** Creates the fixture. */
    public Success() {
      super(0);
    }
  }

  /** Scenario (b): the first two calls fail, the third succeeds. */
  @State(Scope.Thread)
  public static class FailTwice extends RetryFixture {
    /** Creates the fixture. */
    public FailTwice() {
      super(2);
    }
  }

  /**
   * Scenario (a), hand-written loop.
   *
   * @param f the fixture
   * @return the result
   */
  @Benchmark
  public Object success_handWritten(Success f) {
    return f.handWritten();
  }

  /**
   * Scenario (a), Bounded without a deadline.
   *
   * @param f the fixture
   * @return the result
   */
  @Benchmark
  public Object success_bounded(Success f) {
    return f.bounded();
  }

  /**
   * Scenario (a), Bounded with a deadline created per invocation.
   *
   * @param f the fixture
   * @return the result
   */
  @Benchmark
  public Object success_boundedWithDeadline(Success f) {
    return f.boundedWithDeadline();
  }

  /**
   * For context: one {@code System.nanoTime()}, the clock read that creating a deadline takes, and
   * that checking it before the first attempt takes again.
   *
   * @return the reading
   */
  @Benchmark
  public long clock_nanoTime() {
    return System.nanoTime();
  }

  /**
   * Scenario (a), Failsafe.
   *
   * @param f the fixture
   * @return the result
   */
  @Benchmark
  public Object success_failsafe(Success f) {
    return f.failsafe();
  }

  /**
   * Scenario (a), resilience4j.
   *
   * @param f the fixture
   * @return the result
   */
  @Benchmark
  public Object success_resilience4j(Success f) {
    return f.resilience4j();
  }

  /**
   * Scenario (b), hand-written loop.
   *
   * @param f the fixture
   * @return the result
   */
  @Benchmark
  public Object failTwice_handWritten(FailTwice f) {
    return f.handWritten();
  }

  /**
   * Scenario (b), hand-written loop with {@code Thread.sleep(0)} between attempts.
   *
   * @param f the fixture
   * @return the result
   */
  @Benchmark
  public Object failTwice_handWrittenSleepZero(FailTwice f) {
    return f.handWrittenSleepZero();
  }

  /**
   * Scenario (b), Bounded without a deadline.
   *
   * @param f the fixture
   * @return the result
   */
  @Benchmark
  public Object failTwice_bounded(FailTwice f) {
    return f.bounded();
  }

  /**
   * Scenario (b), Bounded with a deadline created per invocation.
   *
   * @param f the fixture
   * @return the result
   */
  @Benchmark
  public Object failTwice_boundedWithDeadline(FailTwice f) {
    return f.boundedWithDeadline();
  }

  /**
   * Scenario (b), Failsafe.
   *
   * @param f the fixture
   * @return the result
   */
  @Benchmark
  public Object failTwice_failsafe(FailTwice f) {
    return f.failsafe();
  }

  /**
   * Scenario (b), resilience4j.
   *
   * @param f the fixture
   * @return the result
   */
  @Benchmark
  public Object failTwice_resilience4j(FailTwice f) {
    return f.resilience4j();
  }
}
